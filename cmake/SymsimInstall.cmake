# `cmake --install build [--prefix DIR]`: the programs in bin/, the shim headers in
# include/symsim/{ascend,cuda}/, platform presets, example scenarios and sweeps in share/symsim/,
# documentation in share/doc/symsim/, the man page and bash completion where those go, and the
# CMake package in lib/cmake/symsim/ (find_package(symsim CONFIG): imported targets and
# symsim_add_kernel_library()). Nothing in the tree names its prefix: it can be moved.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS symsim symsim-rewrite RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET symsim-litmus)
  install(TARGETS symsim-litmus RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(PROGRAMS tools/symsim-cxx tools/symsim-nvcc DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY kernels/shim/ascend/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/symsim/ascend)
install(DIRECTORY kernels/shim/cuda/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/symsim/cuda)
install(DIRECTORY kernels/shim/nvshmem/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/symsim/nvshmem)
# The model headers the CUDA shim's headers include (programs built by symsim-nvcc see them).
foreach(dir core memory nvidia ptx ascend fabric platform tlm)
  install(DIRECTORY models/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/symsim/model/models/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()

# The model library for SystemC platforms of one's own (docs/systemc.md, examples/tlm_platform):
# symsim::models, the static library with the model headers above; symsim_warnings comes along
# only because the library names it (link-only, it adds nothing to a user's build).
set_target_properties(symsim_models PROPERTIES EXPORT_NAME models)
install(TARGETS symsim_models symsim_warnings EXPORT symsimModels ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT symsimModels NAMESPACE symsim:: DESTINATION lib/cmake/symsim)

# The executable finds share/symsim from its own location (sim/package/install_layout.cpp).
install(DIRECTORY scenarios/platforms/ DESTINATION ${CMAKE_INSTALL_DATADIR}/symsim/platforms)
install(DIRECTORY scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/symsim/scenarios PATTERN platforms EXCLUDE)
install(DIRECTORY sweeps/ DESTINATION ${CMAKE_INSTALL_DATADIR}/symsim/sweeps)  # they name ../scenarios/
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(SYMSIM_INSTALL_CMAKEDIR lib/cmake/symsim)
configure_package_config_file(cmake/symsimConfig.cmake.in ${CMAKE_BINARY_DIR}/package/symsimConfig.cmake
                              INSTALL_DESTINATION ${SYMSIM_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/symsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/symsimConfig.cmake ${CMAKE_BINARY_DIR}/package/symsimConfigVersion.cmake
              cmake/SymsimKernelLibrary.cmake
        DESTINATION ${SYMSIM_INSTALL_CMAKEDIR})
