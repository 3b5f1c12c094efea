# The hardware build's DeepEP intranode kernel (included by cmake/SymsimHardware.cmake): with
# -DSYMSIM_DEEPEP_DIR=<a DeepEP checkout at tools/deepep-upstream.sh's pinned commit>, symsim-hw
# gets DeepEP's csrc/kernels/intranode.cu (unmodified, nvcc, -DDISABLE_NVSHMEM as DeepEP builds
# it without NVSHMEM) and this directory's host driver as kernel `deepep_intranode`, so
#   symsim-hw run kernels/cuda_programs/deepep_intranode/deepep_intranode.json
# runs on 8 real GPUs what `symsim run` runs on 8 simulated ones. None of DeepEP's code is in
# this repository; without SYMSIM_DEEPEP_DIR nothing is added.
set(SYMSIM_DEEPEP_DIR "" CACHE PATH "a DeepEP checkout (csrc/kernels/intranode.cu) for symsim-hw's deepep_intranode")
if(SYMSIM_DEEPEP_DIR)
  set(deepep_kernels ${SYMSIM_DEEPEP_DIR}/csrc/kernels)
  if(NOT EXISTS ${deepep_kernels}/intranode.cu)
    message(FATAL_ERROR "SYMSIM_DEEPEP_DIR=${SYMSIM_DEEPEP_DIR} has no csrc/kernels/intranode.cu (want DeepEP 567632d, "
                        "as tools/deepep-upstream.sh fetches)")
  endif()
  set(driver_dir ${CMAKE_CURRENT_LIST_DIR})
  set(deepep_sources ${deepep_kernels}/intranode.cu ${driver_dir}/deepep_intranode.cu ${driver_dir}/deepep_intranode_hw.cpp)
  target_sources(symsim-hw PRIVATE ${deepep_sources})
  set_source_files_properties(${deepep_sources} TARGET_DIRECTORY symsim-hw PROPERTIES LANGUAGE CUDA COMPILE_DEFINITIONS DISABLE_NVSHMEM
                              INCLUDE_DIRECTORIES "${deepep_kernels};${driver_dir}")
  # DeepEP's own nvcc options (its setup.py); its code is not held to the project's warning flags.
  set_source_files_properties(${deepep_kernels}/intranode.cu TARGET_DIRECTORY symsim-hw PROPERTIES
                              COMPILE_OPTIONS "--expt-relaxed-constexpr;-w")
  set_source_files_properties(${driver_dir}/deepep_intranode.cu TARGET_DIRECTORY symsim-hw PROPERTIES
                              COMPILE_DEFINITIONS "DISABLE_NVSHMEM;main=deepep_intranode_main")
endif()
