# Runs the generator of python/ropekit/_abi.py (GEN) into OUT, then:
#   MODE=check: fails, with a unified diff and the command that regenerates it, when the
#               checked-in FILE differs (the CTest test python_abi);
#   MODE=write: copies OUT over FILE (the target ropekit_python_abi).
execute_process(COMMAND ${GEN} OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${GEN} failed (${rc}): a list in tools/gen_python_abi.c is incomplete")
endif()
if(MODE STREQUAL "write")
  configure_file(${OUT} ${FILE} COPYONLY)
  message(STATUS "wrote ${FILE}")
  return()
endif()
file(READ ${OUT} generated)
file(READ ${FILE} checked_in)
if(NOT generated STREQUAL checked_in)
  execute_process(COMMAND ${PYTHON} -c
    "import difflib, sys; a, b = (open(p).readlines() for p in sys.argv[1:3]); sys.stdout.writelines(difflib.unified_diff(a, b, sys.argv[1], 'generated from the headers'))"
    ${FILE} ${OUT})
  message(FATAL_ERROR "${FILE} is not what the headers give (diff above). Regenerate it:\n"
                      "  cmake --build ${BUILD_DIR} --target ropekit_python_abi\n"
                      "(or: ${GEN} > ${FILE}) and commit the result.")
endif()
