# The Kokkos source of the KOKKOS package (HGRID_KOKKOS = OpenMP or CUDA), prepared
# before project(), because with CUDA it also names the C++ compiler.
#
#   HGRID_KOKKOS_SOURCE  a Kokkos source folder or tarball you name (upstream Kokkos; a
#                        develop snapshot of 4.6.99 or newer, or a release); a tarball is
#                        unpacked once into HGRID_CACHE_DIR
#
# Result: HGRID_KOKKOS_DIR = ${CMAKE_BINARY_DIR}/kokkos, a private copy of that source
# (your tree is never modified; the copy is redone when the source changes), with:
#  - example/ and benchmarks/ emptied (Kokkos' CMake adds them; a granular build needs
#    neither);
#  - CUDA 13 API calls where the source still has the CUDA 12 ones (Kokkos develop of
#    mid-2025; a Kokkos release that has them is left unchanged): cudaGraphAddDependencies
#    takes an edge-data argument, cudaMemPrefetchAsync a cudaMemLocation and flags;
#  - CUDA: bin/nvcc_wrapper's default architecture set to the Kokkos_ARCH_* you choose
#    (HOPPER90 if none: H100/H200), since the wrapper's own default sm_70 is gone from
#    CUDA 13 and CMake's compiler check at project() would fail with it; and, unless you
#    set CMAKE_CXX_COMPILER, that wrapper as the C++ compiler.
# KokkosPackage.cmake puts the copy where LAMMPS builds its bundled Kokkos.

include(${CMAKE_CURRENT_LIST_DIR}/HGridCache.cmake)

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
  hgrid_unpack("${HGRID_KOKKOS_SOURCE}" kokkos ${_marker} _kokkos)
else()
  message(FATAL_ERROR "hgrid: HGRID_KOKKOS_SOURCE=${HGRID_KOKKOS_SOURCE} is neither a folder nor a file")
endif()
if(NOT EXISTS "${_kokkos}/${_marker}")
  message(FATAL_ERROR "hgrid: ${HGRID_KOKKOS_SOURCE} holds no Kokkos source tree (no ${_marker})")
endif()

# --- CUDA 13 API: <old> becomes a CUDART_VERSION switch between <new> and <old>, once per copy
function(hgrid_kokkos_cuda13 file old new)
  set(_path "${HGRID_KOKKOS_DIR}/${file}")
  file(READ "${_path}" _text)
  string(FIND "${_text}" "${old}" _at)
  if(_at LESS 0)
    return()    # a Kokkos that has the CUDA 13 call already
  endif()
  string(REPLACE "${old}"
         "\n#if CUDART_VERSION >= 13000    // hgrid: CUDA 13 API (KokkosSource.cmake)\n${new}\n#else\n${old}\n#endif\n"
         _text "${_text}")
  file(WRITE "${_path}" "${_text}")
  string(REGEX MATCH "cuda[A-Za-z]+" _call "${old}")
  message(STATUS "hgrid: ${file}: ${_call} switched to its CUDA 13 form for CUDA >= 13")
endfunction()

# --- the private copy ---------------------------------------------------------------------
set(HGRID_KOKKOS_DIR "${CMAKE_BINARY_DIR}/kokkos")
set(_stamp_file "${HGRID_KOKKOS_DIR}/.hgrid-kokkos-source")
set(_old "")
if(EXISTS "${_stamp_file}")
  file(READ "${_stamp_file}" _old)
endif()
if(NOT _old STREQUAL _kokkos)
  message(STATUS "hgrid: Kokkos from ${_kokkos}")
  file(REMOVE_RECURSE "${HGRID_KOKKOS_DIR}")
  file(COPY "${_kokkos}/" DESTINATION "${HGRID_KOKKOS_DIR}" PATTERN ".git" EXCLUDE)
  foreach(d example benchmarks)
    file(REMOVE_RECURSE "${HGRID_KOKKOS_DIR}/${d}")
    file(WRITE "${HGRID_KOKKOS_DIR}/${d}/CMakeLists.txt" "# removed by hgrid (KokkosSource.cmake)\n")
  endforeach()
  set(_instance core/src/Cuda/Kokkos_Cuda_Instance.hpp)
  if(EXISTS "${HGRID_KOKKOS_DIR}/${_instance}")
    hgrid_kokkos_cuda13(${_instance}
      "    return cudaGraphAddDependencies(graph, from, to, numDependencies);"
      "    return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);")
    hgrid_kokkos_cuda13(${_instance}
      "    return cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream);"
      "    cudaMemLocation location{};\n    location.type = cudaMemLocationTypeDevice;\n    location.id = dstDevice;\n    return cudaMemPrefetchAsync(devPtr, count, location, 0, m_stream);")
  endif()
  file(WRITE "${_stamp_file}" "${_kokkos}")
endif()

# --- CUDA: the architecture and the compiler ---------------------------------------------
if(HGRID_KOKKOS STREQUAL "CUDA")
  # NVIDIA architectures are named Kokkos_ARCH_<family><sm>, e.g. HOPPER90 -> sm_90
  set(_nvidia "KEPLER|MAXWELL|PASCAL|VOLTA|TURING|AMPERE|ADA|HOPPER|BLACKWELL")
  get_cmake_property(_vars CACHE_VARIABLES)
  set(_archs "")
  foreach(v ${_vars})
    if(v MATCHES "^Kokkos_ARCH_(${_nvidia})([0-9]+)$" AND ${v})
      list(APPEND _archs ${v})
      set(HGRID_CUDA_SM "sm_${CMAKE_MATCH_2}")
    endif()
  endforeach()
  list(LENGTH _archs _narch)
  if(_narch EQUAL 0)
    set(Kokkos_ARCH_HOPPER90 ON CACHE BOOL "Kokkos GPU architecture (hgrid's default: H100/H200)")
    set(HGRID_CUDA_SM sm_90)
  elseif(_narch GREATER 1)
    message(FATAL_ERROR "hgrid: choose one NVIDIA Kokkos architecture, not ${_archs}")
  endif()
  set(_wrapper "${HGRID_KOKKOS_DIR}/bin/nvcc_wrapper")
  if(NOT EXISTS "${_wrapper}")
    message(FATAL_ERROR "hgrid: ${HGRID_KOKKOS_SOURCE} has no bin/nvcc_wrapper")
  endif()
  file(READ "${_wrapper}" _text)
  string(REGEX REPLACE "\ndefault_arch=\"[^\"]*\"" "\ndefault_arch=\"${HGRID_CUDA_SM}\"" _new "${_text}")
  if(NOT _new STREQUAL _text)
    file(WRITE "${_wrapper}" "${_new}")
  endif()
  if(NOT CMAKE_CXX_COMPILER)
    find_program(HGRID_NVCC nvcc)    # what nvcc_wrapper runs: nvcc from PATH
    if(NOT HGRID_NVCC)
      message(FATAL_ERROR "hgrid: HGRID_KOKKOS=CUDA needs nvcc on PATH (e.g. export "
                          "PATH=$PATH:/usr/local/cuda/bin)")
    endif()
    set(CMAKE_CXX_COMPILER "${_wrapper}" CACHE FILEPATH "C++ compiler (hgrid: Kokkos' nvcc_wrapper)")
  endif()
  message(STATUS "hgrid: CUDA for ${HGRID_CUDA_SM}, C++ compiler ${CMAKE_CXX_COMPILER}")
endif()
