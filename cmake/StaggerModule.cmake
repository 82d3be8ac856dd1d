# stagger_module(NAME SOURCES files... [PUBLIC deps...] [PRIVATE deps...]): one of Stagger's
# modules, a library `stagger_NAME` with the alias `stagger::NAME` (the name it is exported under
# too: EXPORT_NAME NAME in the namespace stagger::), its public headers in NAME/include (installed
# to include/) and its private ones in NAME/src, warnings as errors.
function(stagger_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;PUBLIC;PRIVATE")
  add_library(stagger_${name} ${arg_SOURCES})
  add_library(stagger::${name} ALIAS stagger_${name})
  set_target_properties(stagger_${name} PROPERTIES EXPORT_NAME ${name})
  target_include_directories(stagger_${name}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE src)
  target_link_libraries(stagger_${name} PUBLIC ${arg_PUBLIC} PRIVATE ${arg_PRIVATE})
  stagger_enable_warnings(stagger_${name})
endfunction()
