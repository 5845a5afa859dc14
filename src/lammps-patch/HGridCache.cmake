# The download cache of the hgrid build, shared by LammpsSource.cmake and
# KokkosSource.cmake (which runs before project(): nothing here needs a compiler).
#   HGRID_CACHE_DIR      where downloads and unpacked pristine trees are kept
include_guard(GLOBAL)

if(DEFINED ENV{XDG_CACHE_HOME})
  set(_cache_default "$ENV{XDG_CACHE_HOME}/hgrid")
else()
  set(_cache_default "$ENV{HOME}/.cache/hgrid")
endif()
set(HGRID_CACHE_DIR "${_cache_default}" CACHE PATH "Cache for source downloads and unpacked trees")

# --- unpack a tarball once into the cache (HGRID_CACHE_DIR/<name>-<sha256 prefix>) and
# return the folder, or the one folder below it, that holds the file <marker> -----------
function(hgrid_unpack tarball name marker out)
  file(SHA256 "${tarball}" sum)
  string(SUBSTRING "${sum}" 0 16 key)
  set(dest "${HGRID_CACHE_DIR}/${name}-${key}")
  if(NOT EXISTS "${dest}/.unpacked")
    message(STATUS "hgrid: unpacking ${tarball}")
    file(REMOVE_RECURSE "${dest}")
    file(MAKE_DIRECTORY "${dest}")
    file(ARCHIVE_EXTRACT INPUT "${tarball}" DESTINATION "${dest}")
    file(TOUCH "${dest}/.unpacked")
  endif()
  if(EXISTS "${dest}/${marker}")
    set(${out} "${dest}" PARENT_SCOPE)
    return()
  endif()
  file(GLOB subdirs LIST_DIRECTORIES true "${dest}/*")
  foreach(d ${subdirs})
    if(EXISTS "${d}/${marker}")
      set(${out} "${d}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "hgrid: ${tarball} holds no ${name} source tree (no ${marker})")
endfunction()
