# Test dependencies: cmocka (C tests, Debian: libcmocka-dev) and a Python 3 with numpy and
# pytest (conformance against the float64 reference), plus torch for the torch tests:
# the project's environment that scripts/python_env.sh makes (ROPEKIT_PYTHON).
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

set(ROPEKIT_PYTHON "" CACHE FILEPATH "Python 3 with numpy and pytest (and torch) for the tests")
if(NOT ROPEKIT_PYTHON)
  find_program(_rk_py_path NAMES python3 NO_CACHE)
  foreach(candidate ${_rk_py_path})
    if(EXISTS ${candidate})
      execute_process(COMMAND ${candidate} -c "import numpy, pytest"
                      RESULT_VARIABLE _rk_py_rc OUTPUT_QUIET ERROR_QUIET)
      if(_rk_py_rc EQUAL 0)
        set(ROPEKIT_PYTHON ${candidate} CACHE FILEPATH "" FORCE)
        break()
      endif()
    endif()
  endforeach()
endif()
if(NOT ROPEKIT_PYTHON)
  message(FATAL_ERROR "No Python 3 with numpy and pytest found: run scripts/python_env.sh "
                      "and pass -DROPEKIT_PYTHON=<its python>")
endif()
message(STATUS "ropekit tests use Python: ${ROPEKIT_PYTHON}")

# ropekit_add_c_test(<name> LABEL <label> SOURCES <files...> [LIBS <libs...>] [INTERNAL])
# Builds one cmocka test program and registers it with CTest. INTERNAL links the static
# library, whose hidden internal symbols (rk_*) the test may then call. Every test links
# the test kit (testkit/, "testkit/<name>.h").
function(ropekit_add_c_test name)
  cmake_parse_arguments(T "INTERNAL" "LABEL" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  if(T_INTERNAL)
    target_link_libraries(${name} PRIVATE ropekit_static)
  else()
    target_link_libraries(${name} PRIVATE ropekit_shared)
  endif()
  target_link_libraries(${name} PRIVATE ropekit_testkit PkgConfig::CMOCKA ${T_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tests)
  target_compile_options(${name} PRIVATE ${ROPEKIT_WARNINGS} ${ROPEKIT_NUMERIC_FLAGS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABEL}")
endfunction()
