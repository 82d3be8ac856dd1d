# Every dependency comes from Debian 12's packages (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
pkg_check_modules(BULLET REQUIRED IMPORTED_TARGET bullet)
# physics/src replaces parts of Bullet's solver, joint rows, collision and ray code with versions
# that give its results bit for bit; they were written against this version's internals
# (Debian 12's libbullet-dev), so another version is refused here rather than miscomputed later.
set(STAGGER_BULLET_VERSION 3.24)
if(NOT BULLET_VERSION VERSION_EQUAL STAGGER_BULLET_VERSION)
  message(FATAL_ERROR "Stagger needs Bullet ${STAGGER_BULLET_VERSION} (Debian 12's libbullet-dev); found "
                      "${BULLET_VERSION}. The physics module's replacements of Bullet internals are written "
                      "against ${STAGGER_BULLET_VERSION} and must be checked before another version is used.")
endif()
find_package(nlohmann_json 3.11 REQUIRED)
# The libraries' dependencies are found here and again, for an installed Stagger, by
# StaggerConfig.cmake (cmake/StaggerConfig.cmake.in); the vr library's are in vr/CMakeLists.txt.
if(STAGGER_BUILD_APP)
  find_package(CLI11 QUIET CONFIG)
  if(NOT CLI11_FOUND)
    find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
    add_library(CLI11::CLI11 INTERFACE IMPORTED)
    target_include_directories(CLI11::CLI11 SYSTEM INTERFACE ${CLI11_INCLUDE_DIR})
  endif()
endif()
