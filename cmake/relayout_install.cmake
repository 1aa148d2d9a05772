# Installation: headers, the shared library, a CMake package config
# (find_package(relayout) -> relayout::relayout) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS relayout EXPORT relayoutTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/relayout DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(EXPORT relayoutTargets NAMESPACE relayout::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/relayout)
configure_package_config_file(cmake/relayoutConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/relayoutConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/relayout)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/relayoutConfigVersion.cmake
    COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/relayoutConfig.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/relayoutConfigVersion.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/relayout)
configure_file(cmake/relayout.pc.in ${CMAKE_CURRENT_BINARY_DIR}/relayout.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/relayout.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(RELAYOUT_BUILD_BENCHDNN AND TARGET benchdnn_lite)
    install(TARGETS benchdnn_lite RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
