# The CUDA language for the whole tree (included from the top level: CMake wants a language
# enabled in a directory above every target that compiles it). Sets ROOFLAB_HAVE_CUDA and
# ROOFLAB_CUDA_FLAGS; kernels/cuda builds the kernels and native-bench the backend library.
# Built whenever nvcc is found, for sm_80, sm_86 and sm_90; no GPU is needed to build. Skipped in
# sanitizer builds (nvcc does not take -fsanitize; the CPU side is what ASan checks).
option(ROOFLAB_CUDA "Build the CUDA kernels when nvcc is found" ON)
set(ROOFLAB_HAVE_CUDA OFF CACHE INTERNAL "CUDA backend built")
set(ROOFLAB_CUDA_FLAGS -O3 -lineinfo --expt-relaxed-constexpr)
if(ROOFLAB_CUDA AND NOT ROOFLAB_SANITIZE AND NOT EMSCRIPTEN)
  # nvcc is often not on PATH (/usr/local/cuda/bin); look there too.
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc CACHE FILEPATH "CUDA compiler")
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 86 90)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(ROOFLAB_HAVE_CUDA ON CACHE INTERNAL "CUDA backend built")
    message(STATUS "rooflab: CUDA kernels for sm_${CMAKE_CUDA_ARCHITECTURES} with ${CMAKE_CUDA_COMPILER}")
  else()
    message(STATUS "rooflab: no CUDA compiler found; building without the CUDA kernels")
  endif()
endif()
