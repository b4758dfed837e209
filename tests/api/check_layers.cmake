# cmake -DSRC=<the source tree's src/> -P check_layers.cmake
# The layering the code promises (docs/design.md), checked on the sources:
#  - operators (src/ops) know no face: no aclnn/ACL/CANN names, codes or stream faults, and
#    no include of a face or of the ACL runtime;
#  - operators and kernels include nothing above them;
#  - no union of plans (or of anything else) in the operators and the faces: a face holds an
#    operator's descriptor and its plan as opaque bytes.
cmake_minimum_required(VERSION 3.16)
if(NOT SRC)
  message(FATAL_ERROR "usage: cmake -DSRC=<src dir> -P check_layers.cmake")
endif()
set(word_start "(^|[^A-Za-z0-9_])")
set(word_end "([^A-Za-z0-9_]|$)")
set(problems "")

# check(<glob root> <regex> <why>): every line of every .c/.h/.cpp file below the root
# that matches the regex is a problem.
function(check root regex why)
  file(GLOB_RECURSE files ${SRC}/${root}/*.c ${SRC}/${root}/*.h ${SRC}/${root}/*.cpp)
  foreach(f ${files})
    file(STRINGS ${f} lines REGEX "${regex}")
    foreach(line ${lines})
      file(RELATIVE_PATH rel ${SRC} ${f})
      set(problems "${problems}\n  src/${rel}: ${why}: ${line}")
    endforeach()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
endfunction()

check(ops "${word_start}([Aa][Cc][Ll][Nn][Nn]|[Cc][Aa][Nn][Nn])${word_end}"
      "an operator names a face (aclnn/CANN)")
check(ops "ACL_|${word_start}acl[A-Z]" "an operator uses an ACL name")
check(ops "${word_start}[Ff]aults?${word_end}" "an operator speaks of stream faults")
check(ops "#include \"(faces|runtime)/" "an operator includes a face or the ACL runtime")
check(kernels "#include \"(faces|runtime|ops)/" "a kernel includes a layer above it")
check(ops "${word_start}union${word_end}" "a union in an operator")
check(faces "${word_start}union${word_end}" "a union in a face")

if(problems)
  message(FATAL_ERROR "layering broken:${problems}")
endif()
message(STATUS "layering holds")
