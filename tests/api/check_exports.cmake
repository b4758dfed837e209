# cmake -DNM=<nm> -DLIB=<shared library> -P check_exports.cmake
# Fails unless every dynamic symbol the library defines starts with ropekit_ or acl
# (acl* covers aclnn*), and the expected entry points are among them.
cmake_minimum_required(VERSION 3.16)
if(NOT NM OR NOT LIB)
  message(FATAL_ERROR "usage: cmake -DNM=<nm> -DLIB=<library> -P check_exports.cmake")
endif()
execute_process(COMMAND ${NM} -D --defined-only ${LIB}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIB} failed (${rc}): ${err}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(names "")
set(bad "")
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  # "<address> <type> <name>[@<version>]"
  if(NOT line MATCHES "^[0-9A-Fa-f]* *([A-Za-z]) ([^ @]+)")
    message(FATAL_ERROR "cannot parse nm output line: '${line}'")
  endif()
  set(name ${CMAKE_MATCH_2})
  list(APPEND names ${name})
  if(NOT name MATCHES "^(ropekit_|acl)")
    list(APPEND bad "${line}")
  endif()
endforeach()
list(LENGTH names count)
foreach(required aclInit aclFinalize aclGetRecentErrMsg aclDataTypeSize aclFloat16ToFloat
                 aclFloatToFloat16 aclrtMalloc aclCreateTensor
                 aclnnInplacePartialRotaryMulGetWorkspaceSize aclnnInplacePartialRotaryMul
                 aclnnInplacePartialRotaryMulGradGetWorkspaceSize
                 aclnnInplacePartialRotaryMulGrad ropekit_version_number ropekit_last_error)
  if(NOT required IN_LIST names)
    list(APPEND bad "missing export: ${required}")
  endif()
endforeach()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "${LIB}: unexpected exported symbols (only ropekit_* and acl* allowed):\n  ${text}")
endif()
message(STATUS "${LIB}: ${count} exported symbols, all ropekit_* or acl*")
