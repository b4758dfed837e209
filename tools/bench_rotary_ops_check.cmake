# cmake -DTOOL=<ropekit> -P bench_rotary_ops_check.cmake
# A short `ropekit bench --json` of small workloads of the whole-row operators (specs as
# `--add` takes them): each must be measured through the native face and the aclnn round
# trip, at the byte count its shapes give (worked out here from docs/spec.md's operands:
# what the operator must read and write), and the operator's styles only.
cmake_minimum_required(VERSION 3.19)
# name | spec | dtype | style | bytes per element of x and of cos/sin: f32 4
set(cases
    "rpe|rpe:2,8,3,64|f32|interleave"
    "rpeg|rpeg:2,8,3,64|f32|half"
    "rpegcs|rpegcs:2,8,3,64|f32|half"
    "ir|ir:2,3,8|bf16|interleave-half"
    "apply|apply:2,8,3,1,128|f32|half")
# x [2,8,3,64] (rpe and its gradient), cos/sin [1,8,1,64]; ir: x [2,3,8,64], cos [2,1,8,64];
# apply: q [2,8,3,128], k [2,8,1,128], cos [2,8,1,128] (CANN: cos's B is query's).
math(EXPR x_rpe "2 * 8 * 3 * 64")
math(EXPR cs_rpe "8 * 64")
math(EXPR bytes_rpe "2 * ${x_rpe} * 4 + 2 * ${cs_rpe} * 4")       # x read, out written; cos, sin
set(bytes_rpeg ${bytes_rpe})                                         # dy read, dx written
math(EXPR bytes_rpegcs "3 * ${x_rpe} * 4 + 4 * ${cs_rpe} * 4")      # dy, x, dx; cos, sin, dcos, dsin
math(EXPR bytes_ir "2 * (2 * 3 * 8 * 64) * 2 + 2 * (2 * 8 * 64) * 2")
math(EXPR bytes_apply "2 * (2 * 8 * 3 * 128 + 2 * 8 * 1 * 128) * 4 + 2 * (2 * 8 * 128) * 4")
foreach(c ${cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 spec)
  list(GET parts 2 dtype)
  list(GET parts 3 style)
  execute_process(COMMAND ${TOOL} bench --quick --threads 1 --no-scalar --add ${spec} --dtype
                          ${dtype} --style ${style} --json
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "ropekit bench --add ${spec}: exit ${rc}\n${err}")
  endif()
  string(JSON n LENGTH "${out}" results)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "${spec} ${style}: ${n} results, expected 1:\n${out}")
  endif()
  string(JSON got_style GET "${out}" results 0 style)
  string(JSON bytes GET "${out}" results 0 bytes)
  string(JSON faces GET "${out}" results 0 faces)
  string(JSON aclnn_bytes ERROR_VARIABLE no_aclnn GET "${faces}" aclnn bytes)
  string(JSON native_us GET "${faces}" native median_us)
  if(NOT got_style STREQUAL style)
    message(FATAL_ERROR "${spec}: style ${got_style}, expected ${style}")
  endif()
  if(NOT bytes EQUAL bytes_${name})
    message(FATAL_ERROR "${spec}: ${bytes} bytes, expected ${bytes_${name}}")
  endif()
  if(no_aclnn OR NOT aclnn_bytes EQUAL bytes_${name})
    message(FATAL_ERROR "${spec}: no aclnn round trip of ${bytes_${name}} bytes: ${faces}")
  endif()
  if(NOT native_us GREATER 0)
    message(FATAL_ERROR "${spec}: native median ${native_us} us")
  endif()
  message(STATUS "${spec} ${dtype} ${style}: ${bytes} bytes, native ${native_us} us")
endforeach()
