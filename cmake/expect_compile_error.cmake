# cmake -DCXX=... -DINCLUDE=... -DSOURCE=... -DEXPECT=... -P expect_compile_error.cmake
# Passes when SOURCE does not compile against the shim and the diagnostics contain EXPECT.
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -Wno-attributes -I${INCLUDE} ${SOURCE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled; it must not")
endif()
string(FIND "${out}${err}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${SOURCE}: the diagnostics do not say \"${EXPECT}\":\n${err}")
endif()
