# Compiler flags shared by every ropekit target.
#
# -ffp-contract=off: SPEC §1 forbids fused multiply-add, which would change results
#   between ISAs. -fexcess-precision=standard keeps every float operation in single
#   precision even on targets that evaluate in wider registers.
# -fvisibility=hidden: only ROPEKIT_API / ACL_FUNC_VISIBILITY symbols are exported.
set(ROPEKIT_WARNINGS -Wall -Wextra -Wpedantic)
set(ROPEKIT_NUMERIC_FLAGS -ffp-contract=off)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  list(APPEND ROPEKIT_NUMERIC_FLAGS -fexcess-precision=standard)
endif()

if(ROPEKIT_SANITIZE AND ROPEKIT_SANITIZE_THREAD)
  message(FATAL_ERROR "ROPEKIT_SANITIZE and ROPEKIT_SANITIZE_THREAD exclude each other")
endif()
if(ROPEKIT_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ROPEKIT_FUZZ needs clang (libFuzzer): configure with CC=clang CXX=clang++")
  endif()
  if(ROPEKIT_SANITIZE OR ROPEKIT_SANITIZE_THREAD)
    message(FATAL_ERROR "ROPEKIT_FUZZ builds with ASan+UBSan itself; leave ROPEKIT_SANITIZE* off")
  endif()
  # The library gets libFuzzer's coverage instrumentation; only the targets link its main.
  set(ROPEKIT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                              -fno-omit-frame-pointer)
  add_compile_options(${ROPEKIT_SANITIZER_FLAGS} -fsanitize=fuzzer-no-link)
  add_link_options(${ROPEKIT_SANITIZER_FLAGS})
endif()
if(ROPEKIT_SANITIZE)
  set(ROPEKIT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                              -fno-omit-frame-pointer)
  add_compile_options(${ROPEKIT_SANITIZER_FLAGS})
  add_link_options(${ROPEKIT_SANITIZER_FLAGS})
endif()
if(ROPEKIT_SANITIZE_THREAD)
  set(ROPEKIT_SANITIZER_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
  add_compile_options(${ROPEKIT_SANITIZER_FLAGS})
  add_link_options(${ROPEKIT_SANITIZER_FLAGS})
endif()

set(ROPEKIT_HAVE_OPENMP OFF)
if(ROPEKIT_OPENMP)
  find_package(OpenMP COMPONENTS C)
  if(OpenMP_C_FOUND)
    set(ROPEKIT_HAVE_OPENMP ON)
  endif()
endif()

find_package(Threads REQUIRED)
