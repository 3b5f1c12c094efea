# Unsupported or wrong uses of the shim must not compile, and the compiler must say why:
# one ctest per file under cmake/compile_fail/ with the text its diagnostics must contain.
function(symsim_compile_fail_test name expect)
  add_test(NAME compile_fail.${name}
           COMMAND ${CMAKE_COMMAND} -DCXX=${CMAKE_CXX_COMPILER} -DINCLUDE=${SYMSIM_SHIM_INCLUDE_DIR}
                   -DSOURCE=${CMAKE_CURRENT_FUNCTION_LIST_DIR}/compile_fail/${name}.cpp "-DEXPECT=${expect}"
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/expect_compile_error.cmake)
endfunction()

function(symsim_compile_fail_tests)
  symsim_compile_fail_test(relay_call_in_direct_build "require ACLSHMEM_RELAY_SUPPORT=ON")
  symsim_compile_fail_test(qp_quiet_in_relay_build "aclshmemx_udma_qp_quiet")
  symsim_compile_fail_test(defer_with_cqe "defer operations require CONFIG.cqe == 0")
  symsim_compile_fail_test(batch_on_pipe_s "require WQE_PIPE == PIPE_MTE3")
  symsim_compile_fail_test(se_flag "se is not supported yet")
  symsim_compile_fail_test(fetch_add_float "aclshmemx_udma_atomic_fetch_add supports int32_t")
  symsim_compile_fail_test(unsupported_ascendc "AscendC::GatherMask is not in symsim's AscendC subset")
  symsim_compile_fail_test(roce_atomic_and_float "aclshmemx_roce_atomic_and only supports int32, uint32, int64, uint64 types")
  symsim_compile_fail_test(set_atomic_add_uint64 "SetAtomicAdd<T>: T is int8_t, int16_t, half, bfloat16_t, int32_t or float")
endfunction()
