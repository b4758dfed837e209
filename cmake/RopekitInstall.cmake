# Installation: headers, the libraries, pkg-config files and a CMake package
# (find_package(ropekit) gives ropekit::ropekit and ropekit::ropekit_static, and with the
# graph API ropekit::ge and ropekit::ge_static; pkg-config: ropekit, ropekit-ge).
include(CMakePackageConfigHelpers)

if(ROPEKIT_GE)
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
else() # the GE headers declare what libropekit_ge defines
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h"
          PATTERN graph EXCLUDE PATTERN ge EXCLUDE PATTERN op_proto EXCLUDE)
endif()
set(_rk_install_targets ropekit_shared ropekit_static)
if(ROPEKIT_GE)
  list(APPEND _rk_install_targets ropekit_ge_shared ropekit_ge_static)
endif()
install(TARGETS ${_rk_install_targets} EXPORT ropekitTargets
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

# The pkg-config files name the prefix given at install time (cmake --install --prefix),
# so they are written when installing: pkg-config then prints plain paths such as
# -I/usr/local/include.
set(ROPEKIT_PC_LIBS_PRIVATE "-lpthread -lm")
set(_rk_pc_files ropekit)
if(ROPEKIT_GE)
  list(APPEND _rk_pc_files ropekit-ge)
endif()
set(ROPEKIT_PC_PREFIX "@ROPEKIT_PC_PREFIX@") # filled in at install time
foreach(_rk_pc ${_rk_pc_files})
  configure_file(cmake/${_rk_pc}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${_rk_pc}.pc.in @ONLY)
  install(CODE "set(ROPEKIT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
    configure_file(\"${CMAKE_CURRENT_BINARY_DIR}/${_rk_pc}.pc.in\"
                   \"${CMAKE_CURRENT_BINARY_DIR}/${_rk_pc}.pc\" @ONLY)")
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${_rk_pc}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()

# The dynamic loader finds a library in a system directory (such as /usr/local/lib) only
# after ldconfig has refreshed its cache: cmake/RopekitLdconfig.cmake runs it when root
# installs there (no DESTDIR, which packaging uses). Other prefixes: the README's install
# section.
install(CODE "set(ROPEKIT_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")")
install(SCRIPT cmake/RopekitLdconfig.cmake)
