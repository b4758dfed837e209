# Installation: headers, both libraries, pkg-config file and a CMake package
# (find_package(ropekit) gives ropekit::ropekit and ropekit::ropekit_static).
include(CMakePackageConfigHelpers)

install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(TARGETS ropekit_shared ropekit_static EXPORT ropekitTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ropekitTargets NAMESPACE ropekit:: FILE ropekitTargets.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ropekit)

configure_package_config_file(cmake/ropekitConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/ropekitConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ropekit)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/ropekitConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ropekitConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/ropekitConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ropekit)

set(ROPEKIT_PC_LIBS_PRIVATE "-lpthread -lm")
configure_file(cmake/ropekit.pc.in ${CMAKE_CURRENT_BINARY_DIR}/ropekit.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ropekit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
