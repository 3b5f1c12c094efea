# -DSYMSIM_HW=cuda|ascend: the hardware build instead of the simulator (docs/hw.md). Included
# by the top-level CMakeLists.txt, which stops after it: no SystemC is needed.
if(SYMSIM_HW STREQUAL "cuda")
  add_subdirectory(${PROJECT_SOURCE_DIR}/hw ${CMAKE_BINARY_DIR}/hw)
  include(${PROJECT_SOURCE_DIR}/kernels/cuda_programs/deepep_intranode/deepep_hw.cmake)  # -DSYMSIM_DEEPEP_DIR
elseif(SYMSIM_HW STREQUAL "ascend")
  # CANN's usual install places; ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME are set by its set_env.sh.
  find_path(SYMSIM_CANN_ROOT NAMES compiler/ccec_compiler/bin/ccec
            HINTS $ENV{ASCEND_HOME_PATH} $ENV{ASCEND_TOOLKIT_HOME}
            PATHS /usr/local/Ascend/ascend-toolkit/latest $ENV{HOME}/Ascend/ascend-toolkit/latest NO_DEFAULT_PATH)
  if(NOT SYMSIM_CANN_ROOT)
    message(FATAL_ERROR
      "SYMSIM_HW=ascend needs a CANN toolkit (its ccec compiler and runtime) and none was found: looked under "
      "$ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME and /usr/local/Ascend/ascend-toolkit/latest. Install CANN and source its "
      "set_env.sh, or pass -DSYMSIM_CANN_ROOT=<toolkit>. Build the simulator without -DSYMSIM_HW.")
  endif()
  message(FATAL_ERROR
    "Found CANN at ${SYMSIM_CANN_ROOT}, but symsim's Ascend hardware build is not written yet: no CANN toolkit or NPU "
    "has been available to build and test it (docs/hw.md). Build the simulator without -DSYMSIM_HW.")
else()
  message(FATAL_ERROR "SYMSIM_HW must be cuda or ascend (or empty for the simulator), not '${SYMSIM_HW}'")
endif()
