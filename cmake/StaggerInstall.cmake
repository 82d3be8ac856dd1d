# `cmake --install`: the libraries, their public headers and the CMake package Stagger
# (find_package(Stagger REQUIRED COMPONENTS physics sim), targets stagger::NAME), and the licence
# and the changelog. One export set
# per component; StaggerConfig.cmake (from StaggerConfig.cmake.in) finds each component's
# dependencies again, as cmake/StaggerDependencies.cmake and the modules' CMakeLists find them,
# and loads the components asked for with those they need.
include(CMakePackageConfigHelpers)

set(STAGGER_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/Stagger" CACHE STRING
    "Where the Stagger CMake package files are installed, under the prefix")

# stagger_install_component(COMPONENT TARGETS targets... HEADERS module folders...). Each folder's
# include/ is installed; the folders are listed in the global property STAGGER_PUBLIC_HEADER_FOLDERS
# for the API reference (docs/CMakeLists.txt) and its tests.
function(stagger_install_component component)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "TARGETS;HEADERS")
  string(SUBSTRING ${component} 0 1 first)
  string(TOUPPER ${first} first)
  string(SUBSTRING ${component} 1 -1 rest)
  set(export_name "Stagger${first}${rest}Targets")
  install(TARGETS ${arg_TARGETS} EXPORT ${export_name}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  foreach(folder IN LISTS arg_HEADERS)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
    set_property(GLOBAL APPEND PROPERTY STAGGER_PUBLIC_HEADER_FOLDERS ${folder})
  endforeach()
  install(EXPORT ${export_name} NAMESPACE stagger:: DESTINATION ${STAGGER_INSTALL_CMAKEDIR})
endfunction()

# image (the PNG canvas) is part of levels, which links it; vr links it too and needs levels.
stagger_install_component(core TARGETS stagger_core HEADERS core)
stagger_install_component(physics TARGETS stagger_physics HEADERS physics)
stagger_install_component(levels TARGETS stagger_image stagger_levels HEADERS image levels)
stagger_install_component(ai TARGETS stagger_ai HEADERS ai)
stagger_install_component(sim TARGETS stagger_sim HEADERS sim)
set(STAGGER_PACKAGE_COMPONENTS core physics levels ai sim)
if(STAGGER_BUILD_VR)
  stagger_install_component(vr TARGETS stagger_vr HEADERS vr)
  list(APPEND STAGGER_PACKAGE_COMPONENTS vr)
endif()
if(STAGGER_BUILD_APP)
  # The command line; the bench and output libraries are linked into it and not installed.
  install(TARGETS stagger RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# The licence (docs and binaries made from Stagger carry it) and the changelog, in share/doc/stagger.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/StaggerConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/StaggerConfig.cmake
                              INSTALL_DESTINATION ${STAGGER_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/StaggerConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/StaggerConfig.cmake
              ${PROJECT_BINARY_DIR}/package/StaggerConfigVersion.cmake
        DESTINATION ${STAGGER_INSTALL_CMAKEDIR})
