# Runs a short `ropekit bench --json` and turns it into the README table with
# scripts/bench_table.py: the JSON must parse and give a row per workload and dtype
# (InterleaveRope's I1 and ApplyRotaryPosEmb's A1 among them).
execute_process(COMMAND ${TOOL} bench --quick --threads 1 --no-scalar --workload P1,D1,I1,A1 --json
                OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "ropekit bench failed: ${rc}")
endif()
execute_process(COMMAND ${PYTHON} ${SCRIPT} ${OUT} OUTPUT_VARIABLE table RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "bench_table.py failed: ${rc}")
endif()
foreach(row "| P1 | half | f32/f32 |" "| P1 | interleave | bf16/f32 |" "| D1 | neox | bf16/bf16 |"
           "| I1 | interleave-half | f16/f16 |" "| I1 | interleave-half | bf16/bf16 |"
           "| A1 | half | f32/f32 |" "| aclnn 1 thr us |")
  string(FIND "${table}" "${row}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "row '${row}' missing from:\n${table}")
  endif()
endforeach()
