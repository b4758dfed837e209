# cmake -DCC=<C compiler> -DHEADER=<ropekit.h> -P check_api_macro.cmake
# ROPEKIT_API on Windows: dllexport while the DLL is built (ROPEKIT_DLL_EXPORT=1),
# dllimport in its clients (ROPEKIT_DLL_IMPORT=1), neither for the static library; and
# default visibility elsewhere. Checked by preprocessing ropekit.h as each would see it.
cmake_minimum_required(VERSION 3.16)
if(NOT CC OR NOT HEADER)
  message(FATAL_ERROR "usage: cmake -DCC=<compiler> -DHEADER=<ropekit.h> -P check_api_macro.cmake")
endif()
set(declaration "ropekit_version_number *\\( *void *\\)")
foreach(case "-D_WIN32 -DROPEKIT_DLL_EXPORT=1|__declspec\\(dllexport\\)"
             "-D_WIN32 -DROPEKIT_DLL_IMPORT=1|__declspec\\(dllimport\\)"
             "-D_WIN32|^"
             "|__attribute__ *\\(\\(visibility *\\(\"default\"\\)\\)\\)")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 defines)
  list(GET parts 1 expected)
  separate_arguments(define_list UNIX_COMMAND "${defines}")
  execute_process(COMMAND ${CC} -E -P ${define_list} ${HEADER}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CC} -E ${defines} ${HEADER} failed (${rc}): ${err}")
  endif()
  string(REPLACE "\n" " " flat "${out}")
  string(REGEX MATCH "[^;{}]*${declaration}" decl "${flat}")
  if(NOT decl)
    message(FATAL_ERROR "[${defines}] no declaration of ropekit_version_number in the output")
  endif()
  if(NOT decl MATCHES "${expected}")
    message(FATAL_ERROR "[${defines}] expected ${expected} in: ${decl}")
  endif()
  if(expected STREQUAL "^" AND decl MATCHES "__declspec")
    message(FATAL_ERROR "[${defines}] the static library must not be dllimport/dllexport: ${decl}")
  endif()
  message(STATUS "[${defines}] ${decl}")
endforeach()
