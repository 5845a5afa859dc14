# The KOKKOS package in the private LAMMPS copy (HGRID_KOKKOS = OpenMP or CUDA).
#
#   HGRID_KOKKOS_SOURCE  a Kokkos source folder or tarball you name (upstream Kokkos; a
#                        develop snapshot of 4.6.99 or newer, or a release): unpacked once
#                        into HGRID_CACHE_DIR and copied to lammps-patched/lib/kokkos, the
#                        place of LAMMPS' bundled Kokkos (no download at build time)
#
# Run after LammpsSource.cmake (HGRID_LAMMPS_DIR is the patched copy).  Two changes to
# that copy, both redone at every configure and idempotent:
#  - src/KOKKOS is trimmed to the files in kokkos-files.txt;
#  - if the Kokkos source names UnorderedMap's mirror type HostMirror (Kokkos < 5), the
#    one LAMMPS line that uses the newer name host_mirror_type (KOKKOS/kokkos_type.h) is
#    switched to it.

set(HGRID_KOKKOS_SOURCE "" CACHE PATH "Kokkos source folder or tarball (HGRID_KOKKOS)")
if(HGRID_KOKKOS_SOURCE STREQUAL "")
  message(FATAL_ERROR "hgrid: HGRID_KOKKOS=${HGRID_KOKKOS} needs -DHGRID_KOKKOS_SOURCE=<Kokkos source "
                      "folder or tarball> (e.g. a release tarball from the Kokkos project)")
endif()

# --- the Kokkos tree: a folder as it is, a tarball unpacked once into the cache ---------
set(_marker core/src/Kokkos_Core.hpp)
if(IS_DIRECTORY "${HGRID_KOKKOS_SOURCE}")
  get_filename_component(_kokkos "${HGRID_KOKKOS_SOURCE}" ABSOLUTE)
elseif(EXISTS "${HGRID_KOKKOS_SOURCE}")
  hgrid_unpack("${HGRID_KOKKOS_SOURCE}" kokkos ${_marker} _kokkos)    # LammpsSource.cmake
else()
  message(FATAL_ERROR "hgrid: HGRID_KOKKOS_SOURCE=${HGRID_KOKKOS_SOURCE} is neither a folder nor a file")
endif()
if(NOT EXISTS "${_kokkos}/${_marker}")
  message(FATAL_ERROR "hgrid: ${HGRID_KOKKOS_SOURCE} holds no Kokkos source tree (no ${_marker})")
endif()

set(_lib "${HGRID_LAMMPS_DIR}/lib/kokkos")
set(_stamp_file "${_lib}/.hgrid-kokkos-source")
set(_old "")
if(EXISTS "${_stamp_file}")
  file(READ "${_stamp_file}" _old)
endif()
if(NOT _old STREQUAL _kokkos)
  message(STATUS "hgrid: Kokkos from ${_kokkos}")
  file(REMOVE_RECURSE "${_lib}")
  file(MAKE_DIRECTORY "${HGRID_LAMMPS_DIR}/lib")
  file(COPY "${_kokkos}/" DESTINATION "${_lib}" PATTERN ".git" EXCLUDE)
  # Kokkos' CMake adds these folders; a granular build needs neither
  foreach(d example benchmarks)
    file(REMOVE_RECURSE "${_lib}/${d}")
    file(WRITE "${_lib}/${d}/CMakeLists.txt" "# removed by hgrid (KokkosSource.cmake)\n")
  endforeach()
  file(WRITE "${_stamp_file}" "${_kokkos}")
endif()

# --- trim src/KOKKOS -------------------------------------------------------------------
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/kokkos-files.txt" _keep REGEX "^[a-z]")
file(GLOB _files "${HGRID_LAMMPS_DIR}/src/KOKKOS/*.cpp" "${HGRID_LAMMPS_DIR}/src/KOKKOS/*.h")
foreach(f ${_files})
  get_filename_component(_name "${f}" NAME_WE)
  if(NOT _name IN_LIST _keep)
    file(REMOVE "${f}")
  endif()
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/kokkos-files.txt")

# --- the mirror-type name of Kokkos < 5 ------------------------------------------------
file(STRINGS "${_lib}/containers/src/Kokkos_UnorderedMap.hpp" _newname REGEX "host_mirror_type")
if(NOT _newname)
  set(_type_h "${HGRID_LAMMPS_DIR}/src/KOKKOS/kokkos_type.h")
  file(READ "${_type_h}" _text)
  string(REPLACE "hash_type::host_mirror_type" "hash_type::HostMirror" _new "${_text}")
  if(NOT _new STREQUAL _text)
    file(WRITE "${_type_h}" "${_new}")
  endif()
endif()
