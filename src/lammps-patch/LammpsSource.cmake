# Provide a patched private copy of the LAMMPS source tree for the hgrid build.
#
#   HGRID_LAMMPS_SOURCE  a LAMMPS source folder or tarball of LAMMPS 4 Jul 2026; empty:
#                        Debian's lammps 20260704+dfsg orig tarball, downloaded once into
#                        HGRID_CACHE_DIR and checked against its SHA-256
#   HGRID_CACHE_DIR      where downloads and unpacked pristine trees are kept
#
# The user's tree is never modified: cmake/, src/, lib/ and third_party/ are copied to
# ${CMAKE_BINARY_DIR}/lammps-patched and the core patch is applied to that copy.
# Result: HGRID_LAMMPS_DIR (the patched copy), HGRID_LAMMPS_EXAMPLES (its examples),
# HGRID_LAMMPS_PRISTINE (the unpatched tree).

set(HGRID_LAMMPS_VERSION_STRING "4 Jul 2026")
set(HGRID_DEBIAN_VERSION "20260704+dfsg")
set(HGRID_DEBIAN_SHA256 "cddbc45a047416bd48a4a0b87f24a5b61b3446982b74d18cafe619c22b17eb62")
set(HGRID_DEBIAN_SUITE "forky" CACHE STRING "Debian suite whose source index lists lammps ${HGRID_DEBIAN_VERSION}")

include(${CMAKE_CURRENT_LIST_DIR}/HGridCache.cmake)    # HGRID_CACHE_DIR, hgrid_unpack()
set(HGRID_LAMMPS_SOURCE "" CACHE PATH "LAMMPS 4Jul2026 source folder or tarball (empty: Debian's)")
# the patch series, in order (the file "series": one name a line, # comments)
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/series" _series REGEX "^[^#]")
set(HGRID_PATCH_FILES "")
foreach(name ${_series})
  list(APPEND HGRID_PATCH_FILES "${CMAKE_CURRENT_LIST_DIR}/${name}")
endforeach()
# the LAMMPS files the series changes (src/...), one list for the build's checks:
# KokkosPackage.cmake (nvcc) and, through hgrid-patched-files.txt, unittest/stubs_check.sh
set(HGRID_PATCHED_FILES "")
foreach(p ${HGRID_PATCH_FILES})
  file(STRINGS "${p}" _lines REGEX "^\\+\\+\\+ b/src/")
  foreach(line ${_lines})
    string(REGEX REPLACE "^\\+\\+\\+ b/" "" _file "${line}")
    list(APPEND HGRID_PATCHED_FILES "${_file}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES HGRID_PATCHED_FILES)
list(JOIN HGRID_PATCHED_FILES "\n" _patched_text)
file(WRITE "${CMAKE_BINARY_DIR}/hgrid-patched-files.txt" "${_patched_text}\n")

# --- the tarball: user-given or Debian's --------------------------------------------
function(hgrid_debian_tarball out)
  set(tarball "${HGRID_CACHE_DIR}/lammps_${HGRID_DEBIAN_VERSION}.orig.tar.gz")
  if(NOT EXISTS "${tarball}")
    message(STATUS "hgrid: downloading Debian's lammps ${HGRID_DEBIAN_VERSION} source into ${HGRID_CACHE_DIR}")
    execute_process(COMMAND sh "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/fetch-debian-lammps.sh"
                            "${HGRID_CACHE_DIR}" "${HGRID_DEBIAN_VERSION}" "${HGRID_DEBIAN_SUITE}"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${tarball}")
      message(FATAL_ERROR "hgrid: could not download Debian's lammps ${HGRID_DEBIAN_VERSION} source "
                          "(apt-get source --tar-only). Point -DHGRID_LAMMPS_SOURCE=<folder or tarball> "
                          "at a LAMMPS 4 Jul 2026 source instead.")
    endif()
  endif()
  file(SHA256 "${tarball}" sum)
  if(NOT sum STREQUAL HGRID_DEBIAN_SHA256)
    message(FATAL_ERROR "hgrid: ${tarball} has SHA-256 ${sum}, expected ${HGRID_DEBIAN_SHA256}. "
                        "Delete it to download it again.")
  endif()
  set(${out} "${tarball}" PARENT_SCOPE)
endfunction()

# --- pristine tree ---------------------------------------------------------------
if(HGRID_LAMMPS_SOURCE STREQUAL "")
  hgrid_debian_tarball(_tarball)
  hgrid_unpack("${_tarball}" lammps cmake/CMakeLists.txt _pristine)
elseif(IS_DIRECTORY "${HGRID_LAMMPS_SOURCE}")
  get_filename_component(_pristine "${HGRID_LAMMPS_SOURCE}" ABSOLUTE)
elseif(EXISTS "${HGRID_LAMMPS_SOURCE}")
  hgrid_unpack("${HGRID_LAMMPS_SOURCE}" lammps cmake/CMakeLists.txt _pristine)
else()
  message(FATAL_ERROR "hgrid: HGRID_LAMMPS_SOURCE=${HGRID_LAMMPS_SOURCE} is neither a folder nor a file")
endif()

foreach(f cmake/CMakeLists.txt src/version.h src/neighbor.cpp)
  if(NOT EXISTS "${_pristine}/${f}")
    message(FATAL_ERROR "hgrid: ${_pristine} is not a LAMMPS source tree (missing ${f})")
  endif()
endforeach()
file(STRINGS "${_pristine}/src/version.h" _version REGEX "LAMMPS_VERSION")
if(NOT _version MATCHES "\"${HGRID_LAMMPS_VERSION_STRING}\"")
  message(FATAL_ERROR "hgrid: the core patch is written for LAMMPS ${HGRID_LAMMPS_VERSION_STRING}, "
                      "but ${_pristine}/src/version.h says: ${_version}")
endif()

# --- private copy + patch, redone when the source or the patch changes ---------------
set(HGRID_LAMMPS_DIR "${CMAKE_BINARY_DIR}/lammps-patched")
set(HGRID_LAMMPS_EXAMPLES "${_pristine}/examples")    # LAMMPS' own inputs (examples test)
set(HGRID_LAMMPS_PRISTINE "${_pristine}")    # python/, bench/, ... for the install (src/Install.cmake)
set(_stamp "${_pristine}")
foreach(p ${HGRID_PATCH_FILES})
  file(SHA256 "${p}" _patch_sum)
  string(APPEND _stamp "|${_patch_sum}")
endforeach()
set(_stamp_file "${HGRID_LAMMPS_DIR}/.hgrid-stamp")
set(_old_stamp "")
if(EXISTS "${_stamp_file}")
  file(READ "${_stamp_file}" _old_stamp)
endif()
if(NOT _old_stamp STREQUAL _stamp)
  message(STATUS "hgrid: copying LAMMPS from ${_pristine} and applying the patch series")
  file(REMOVE_RECURSE "${HGRID_LAMMPS_DIR}")
  file(MAKE_DIRECTORY "${HGRID_LAMMPS_DIR}")
  foreach(d cmake src lib third_party)
    if(EXISTS "${_pristine}/${d}")
      file(COPY "${_pristine}/${d}" DESTINATION "${HGRID_LAMMPS_DIR}")
    endif()
  endforeach()
  find_program(HGRID_PATCH_PROGRAM patch REQUIRED)
  # each patch after its predecessors: a dry run first, so that one that does not apply
  # stops the configure step with its failing hunks and leaves the copy as it was
  foreach(p ${HGRID_PATCH_FILES})
    get_filename_component(_name "${p}" NAME)
    execute_process(COMMAND ${HGRID_PATCH_PROGRAM} -p1 --dry-run --forward --batch -i "${p}"
                    WORKING_DIRECTORY "${HGRID_LAMMPS_DIR}"
                    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "hgrid: ${_name} does not apply to the LAMMPS source in ${_pristine} "
                          "after the patches before it in src/lammps-patch/series (it needs an "
                          "unmodified LAMMPS ${HGRID_LAMMPS_VERSION_STRING}):\n${_out}${_err}")
    endif()
    execute_process(COMMAND ${HGRID_PATCH_PROGRAM} -p1 --forward --batch --quiet -i "${p}"
                    WORKING_DIRECTORY "${HGRID_LAMMPS_DIR}" RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "hgrid: applying ${_name} failed")
    endif()
  endforeach()
  file(WRITE "${_stamp_file}" "${_stamp}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/series"
             ${HGRID_PATCH_FILES})
