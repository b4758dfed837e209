# cmake -DTOOL=<ropekit> "-DARGS=<arg;...>" "-DEXPECT=<regex>@<regex>..." -P expect_output.cmake
# The command must exit with status 0 and its stdout match every regex of EXPECT
# ('@'-separated).
cmake_minimum_required(VERSION 3.16)
execute_process(COMMAND ${TOOL} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ropekit ${ARGS}: exit status ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
string(REPLACE "@" ";" patterns "${EXPECT}")
foreach(p ${patterns})
  if(NOT out MATCHES "${p}")
    message(FATAL_ERROR "ropekit ${ARGS}: stdout does not match '${p}':\n${out}")
  endif()
endforeach()
message(STATUS "ropekit ${ARGS}: every pattern matched")
