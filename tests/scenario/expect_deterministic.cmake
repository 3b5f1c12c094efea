# Runs SCENARIO twice with the same seed; result.json (apart from wall_s) and the trace must be
# byte-identical.
foreach(i 1 2)
  execute_process(COMMAND ${SYMSIM} run ${SCENARIO} --out ${OUT}/run${i} --trace ${OUT}/run${i}/trace.json
                  RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} exited with ${rc}")
  endif()
  file(READ ${OUT}/run${i}/result.json result${i})
  string(REGEX REPLACE "\"wall_s\": [0-9.e+-]+" "" result${i} "${result${i}}")
  file(READ ${OUT}/run${i}/trace.json trace${i})
endforeach()
if(NOT result1 STREQUAL result2)
  message(FATAL_ERROR "result.json differs between two runs with the same seed")
endif()
if(NOT trace1 STREQUAL trace2)
  message(FATAL_ERROR "the trace differs between two runs with the same seed")
endif()
