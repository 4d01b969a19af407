# cJSON for core's record reader/writer.
# Native: Debian's libcjson-dev (find_package → target `cjson`, header <cjson/cJSON.h>).
# Emscripten: a static `cjson` library compiled from source fetched at configure time by
# scripts/fetch-cjson.sh (Debian's patched source, else the pinned upstream tarball with its
# SHA256). Nothing third-party is committed. The header sits at cjson/cJSON.h in both builds.
if(TARGET cjson)
  return()
endif()
if(EMSCRIPTEN)
  set(RL_CJSON_SRC "${CMAKE_BINARY_DIR}/_deps/cjson")
  if(NOT EXISTS "${RL_CJSON_SRC}/cJSON.c")
    execute_process(
      COMMAND "${PROJECT_SOURCE_DIR}/scripts/fetch-cjson.sh" "${RL_CJSON_SRC}"
      RESULT_VARIABLE RL_CJSON_RC)
    if(NOT RL_CJSON_RC EQUAL 0)
      message(FATAL_ERROR "cJSON source could not be fetched (scripts/fetch-cjson.sh)")
    endif()
  endif()
  add_library(cjson STATIC "${RL_CJSON_SRC}/cJSON.c")
  target_include_directories(cjson SYSTEM PUBLIC "${RL_CJSON_SRC}")
  # cJSON.c includes "cJSON.h" from its own directory; the header sits in cjson/ here.
  target_include_directories(cjson PRIVATE "${RL_CJSON_SRC}/cjson")
  # cJSON's own source is not held to this project's warning flags.
  target_compile_options(cjson PRIVATE -w)
else()
  find_package(cJSON CONFIG REQUIRED)
endif()
