# The installed-package test (ctest: package.install_and_build_examples), run with cmake -P:
#   1. cmake --install STAGGER_BUILD_DIR into WORK_DIR/prefix (emptied first), which must hold
#      the licence and the changelog in DOC_DIR;
#   2. examples/hello_enemy, a separate project (find_package(Stagger REQUIRED COMPONENTS
#      physics)), configured against that prefix alone, built, and run: it exits 0 when its enemy
#      stands again after two shoves;
#   3. examples/patrol_from_code (COMPONENTS ai) the same way: it exits 0 when each of its enemies
#      went round its patrol loop in order, and its output must list each enemy's route points in
#      that order, the whole loop and back to the first (check_patrol_order below);
#   4. examples/custom_game_loop (COMPONENTS sim) the same way: it exits 0 when its enemy was
#      spawned, shoved, fell, got up, was teleported and removed, and the pose it drew between
#      steps never jumped;
#   5. hello_enemy again with pkg-config seeing only Bullet and find_package barred from Vulkan,
#      OpenXR and GLFW: a consumer of physics alone needs none of them;
#   6. tests/package (find_package(Stagger REQUIRED COMPONENTS physics sim), and vr with WITH_VR)
#      the same way: it runs the corridor level for a second through stagger::sim.
# Any step that fails fails the test. Inputs (-D): STAGGER_BUILD_DIR, STAGGER_SOURCE_DIR, WORK_DIR,
# CONFIG, GENERATOR, MAKE_PROGRAM, CXX_COMPILER, CXX_FLAGS, WITH_VR, DOC_DIR (where the licence and
# the changelog install, under the prefix).
cmake_minimum_required(VERSION 3.25)

foreach(input STAGGER_BUILD_DIR STAGGER_SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER DOC_DIR)
  if(NOT DEFINED ${input} OR "${${input}}" STREQUAL "")
    message(FATAL_ERROR "package_test.cmake: -D${input}=... is required")
  endif()
endforeach()
if("${CONFIG}" STREQUAL "")
  set(CONFIG Release)
endif()

# run(STEP command...): runs a command and fails the test when it fails, printing its output
# then (the install's file list is long); a program's own output (the "run" steps) is printed.
# The output is left in run_output.
function(run step)
  message(STATUS "package test: ${step}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message("${output}")
    message(FATAL_ERROR "package test: ${step} failed (${result})")
  endif()
  if(step MATCHES ": run$")
    message("${output}")
  endif()
  set(run_output "${output}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

run("install" ${CMAKE_COMMAND} --install ${STAGGER_BUILD_DIR} --prefix ${prefix} --config ${CONFIG})
foreach(document LICENSE CHANGELOG.md)
  if(NOT EXISTS ${prefix}/${DOC_DIR}/${document})
    message(FATAL_ERROR "package test: the install has no ${DOC_DIR}/${document}")
  endif()
endforeach()

# consumer(NAME SOURCE_DIR [cmake -D options...]): configure, build and run one consumer project.
function(consumer name source_dir)
  set(build ${WORK_DIR}/${name})
  set(configure_args -S ${source_dir} -B ${build} -G ${GENERATOR}
      -DCMAKE_BUILD_TYPE=${CONFIG}
      -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
      "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
      -DCMAKE_PREFIX_PATH=${prefix}
      # Only this prefix: no package registry, no Stagger found elsewhere first.
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
      -DStagger_ROOT=${prefix}
      ${ARGN})
  if(MAKE_PROGRAM)
    list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
  endif()
  run("${name}: configure" ${CMAKE_COMMAND} ${configure_args})
  # The package found must be the one just installed.
  file(STRINGS ${build}/CMakeCache.txt stagger_dir REGEX "^Stagger_DIR:")
  string(REGEX REPLACE "^Stagger_DIR:[A-Z]+=" "" stagger_dir "${stagger_dir}")
  file(REAL_PATH "${stagger_dir}" stagger_dir)
  file(REAL_PATH "${prefix}" real_prefix)
  string(FIND "${stagger_dir}" "${real_prefix}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "package test: ${name} found Stagger in '${stagger_dir}', not under ${real_prefix}")
  endif()
  run("${name}: build" ${CMAKE_COMMAND} --build ${build} --config ${CONFIG})
  run("${name}: run" ${build}/${name})
  set(${name}_output "${run_output}" PARENT_SCOPE)
endfunction()

# check_patrol_order(OUTPUT): patrol_from_code's output says "route: N points in a loop" and then
# "NAME reached point I" at each arrival. Each enemy named must list at least N + 1 points, each
# the one after the point before it (I + 1 modulo N).
function(check_patrol_order output)
  if(NOT output MATCHES "route: ([0-9]+) points in a loop")
    message(FATAL_ERROR "package test: patrol_from_code printed no route line")
  endif()
  set(point_count ${CMAKE_MATCH_1})
  string(REGEX MATCHALL "[a-z]+ reached point [0-9]+" arrivals "${output}")
  set(names "")
  foreach(arrival IN LISTS arrivals)
    string(REGEX MATCH "^([a-z]+) reached point ([0-9]+)$" _ "${arrival}")
    set(name ${CMAKE_MATCH_1})
    set(point ${CMAKE_MATCH_2})
    if(name IN_LIST names)
      math(EXPR expected "(${last_${name}} + 1) % ${point_count}")
      if(NOT point EQUAL expected)
        message(FATAL_ERROR "package test: patrol_from_code: ${name} reached point ${point} after point ${last_${name}}")
      endif()
      math(EXPR count_${name} "${count_${name}} + 1")
    else()
      list(APPEND names ${name})
      set(count_${name} 1)
    endif()
    set(last_${name} ${point})
  endforeach()
  if(names STREQUAL "")
    message(FATAL_ERROR "package test: patrol_from_code listed no route point reached")
  endif()
  foreach(name IN LISTS names)
    if(count_${name} LESS_EQUAL point_count)
      message(FATAL_ERROR "package test: patrol_from_code: ${name} reached ${count_${name}} points, not the whole loop of ${point_count} and back")
    endif()
  endforeach()
  list(JOIN names ", " names_text)
  message(STATUS "package test: patrol_from_code: ${names_text} went round the ${point_count}-point loop in order")
endfunction()

consumer(hello_enemy ${STAGGER_SOURCE_DIR}/examples/hello_enemy)
consumer(patrol_from_code ${STAGGER_SOURCE_DIR}/examples/patrol_from_code)
check_patrol_order("${patrol_from_code_output}")
consumer(custom_game_loop ${STAGGER_SOURCE_DIR}/examples/custom_game_loop)

# A consumer of `physics` alone needs Bullet and nothing of VR: hello_enemy again, configured and
# built with pkg-config seeing Bullet's file and no other, and find_package barred from Vulkan,
# OpenXR and GLFW. Had the package looked for any of them, the configure would fail.
set(pkg_only ${WORK_DIR}/pkgconfig-bullet-only)
execute_process(COMMAND pkg-config --variable pcfiledir bullet OUTPUT_VARIABLE bullet_pc_dir
                OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE pc_result)
if(NOT pc_result EQUAL 0)
  message(FATAL_ERROR "package test: pkg-config does not know bullet")
endif()
file(COPY ${bullet_pc_dir}/bullet.pc DESTINATION ${pkg_only})
set(physics_only ${WORK_DIR}/hello_enemy_physics_only)
set(physics_only_args -S ${STAGGER_SOURCE_DIR}/examples/hello_enemy -B ${physics_only}
    -G ${GENERATOR} -DCMAKE_BUILD_TYPE=${CONFIG} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DStagger_ROOT=${prefix}
    -DCMAKE_DISABLE_FIND_PACKAGE_Vulkan=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenXR=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON)
if(MAKE_PROGRAM)
  list(APPEND physics_only_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
run("physics only: configure" ${CMAKE_COMMAND} -E env PKG_CONFIG_LIBDIR=${pkg_only}
    PKG_CONFIG_PATH= ${CMAKE_COMMAND} ${physics_only_args})
run("physics only: build" ${CMAKE_COMMAND} --build ${physics_only} --config ${CONFIG})
consumer(stagger_package_check ${STAGGER_SOURCE_DIR}/tests/package -DWITH_VR=${WITH_VR})
message(STATUS "package test: passed")
