# The KOKKOS package in the private LAMMPS copy (HGRID_KOKKOS = OpenMP or CUDA).
# Run after LammpsSource.cmake (HGRID_LAMMPS_DIR is the patched copy) and
# KokkosSource.cmake (HGRID_KOKKOS_DIR is the prepared Kokkos).  Three changes to
# that copy, all redone at every configure and idempotent:
#  - lib/kokkos, the place of LAMMPS' bundled Kokkos, links to HGRID_KOKKOS_DIR (no
#    download at build time);
#  - src/KOKKOS is trimmed to the files in kokkos-files.txt;
#  - if the Kokkos source names UnorderedMap's mirror type HostMirror (Kokkos < 5), the
#    one LAMMPS line that uses the newer name host_mirror_type (KOKKOS/kokkos_type.h) is
#    switched to it.

# --- lib/kokkos -> the prepared Kokkos ----------------------------------------------------
set(_lib "${HGRID_LAMMPS_DIR}/lib/kokkos")
if(NOT IS_SYMLINK "${_lib}")
  file(REMOVE_RECURSE "${_lib}")
  file(MAKE_DIRECTORY "${HGRID_LAMMPS_DIR}/lib")
  file(CREATE_LINK "${HGRID_KOKKOS_DIR}" "${_lib}" SYMBOLIC)
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
file(STRINGS "${HGRID_KOKKOS_DIR}/containers/src/Kokkos_UnorderedMap.hpp" _newname REGEX "host_mirror_type")
if(NOT _newname)
  set(_type_h "${HGRID_LAMMPS_DIR}/src/KOKKOS/kokkos_type.h")
  file(READ "${_type_h}" _text)
  string(REPLACE "hash_type::host_mirror_type" "hash_type::HostMirror" _new "${_text}")
  if(NOT _new STREQUAL _text)
    file(WRITE "${_type_h}" "${_new}")
  endif()
endif()

# --- CUDA: nvcc's cross-execution-space checks as errors in the sources hgrid adds or
# patches (an extended lambda capturing this, or a __host__ function called from a
# __host__ __device__ one, e.g. a functor member's copy constructor, faults on the GPU);
# the list is read off the patch series: every src/KOKKOS file it changes, and the
# Kokkos class of every core class it changes (neighbor.h -> neighbor_kokkos.cpp)
set(HGRID_CUDA_CHECKED_SOURCES "")
if(HGRID_KOKKOS STREQUAL "CUDA")
  file(GLOB _hgrid_kk "${CMAKE_SOURCE_DIR}/src/HGRID/KOKKOS/*.cpp")
  list(APPEND HGRID_CUDA_CHECKED_SOURCES ${_hgrid_kk})
  foreach(file ${HGRID_PATCHED_FILES})
    get_filename_component(_name "${file}" NAME_WE)    # src/KOKKOS/neighbor_kokkos.h
    string(REGEX REPLACE "_kokkos$" "" _name "${_name}")
    set(_kk "${HGRID_LAMMPS_DIR}/src/KOKKOS/${_name}_kokkos.cpp")
    if(EXISTS "${_kk}" AND NOT _kk IN_LIST HGRID_CUDA_CHECKED_SOURCES)
      list(APPEND HGRID_CUDA_CHECKED_SOURCES "${_kk}")
    endif()
  endforeach()
  set(HGRID_CUDA_WERROR "--Werror=cross-execution-space-call,ext-lambda-captures-this")
endif()
