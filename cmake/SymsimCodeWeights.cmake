# Compile options of the kernel translation units whose own code the NVIDIA model charges
# (models/nvidia/code_cost.h): -fsanitize-coverage=trace-pc puts a call at the start of every
# basic block, and tools/code-weights/as (gcc finds it through -B) gives each call its block's
# instruction count. gcc runs a copy of the script from a folder named by its hash: ccache hashes
# the -B folder, not the assembler, so a changed script gives new objects. CMake re-runs when
# the script changes.
set(_symsim_code_weights_as ${PROJECT_SOURCE_DIR}/tools/code-weights/as)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_symsim_code_weights_as})
file(MD5 ${_symsim_code_weights_as} _symsim_code_weights_md5)
set(_symsim_code_weights_dir ${PROJECT_BINARY_DIR}/code-weights/${_symsim_code_weights_md5})
file(COPY ${_symsim_code_weights_as} DESTINATION ${_symsim_code_weights_dir})
set(SYMSIM_CODE_COST_OPTIONS "-fsanitize-coverage=trace-pc;-B${_symsim_code_weights_dir}/")
