# cmake -DTOOL=<ropekit> "-DARGS=<arg;...>" -DEXPECT=<regex> -P expect_usage_error.cmake
# The command must exit with status 2 (a usage error), print nothing on stdout, and say on
# stderr what EXPECT matches (the bad value and the valid ones).
cmake_minimum_required(VERSION 3.16)
execute_process(COMMAND ${TOOL} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "ropekit ${ARGS}: exit status ${rc}, expected 2\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "ropekit ${ARGS}: printed on stdout: ${out}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "ropekit ${ARGS}: stderr does not match '${EXPECT}': ${err}")
endif()
message(STATUS "ropekit ${ARGS}: ${err}")
