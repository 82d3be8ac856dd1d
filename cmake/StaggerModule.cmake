# stagger_module(NAME SOURCES files... [PUBLIC deps...] [PRIVATE deps...]): one of Stagger's
# modules, a library `stagger_NAME` with the alias `stagger::NAME`, its public headers in
# NAME/include and its private ones in NAME/src, warnings as errors.
function(stagger_module name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;PUBLIC;PRIVATE")
  add_library(stagger_${name} ${arg_SOURCES})
  add_library(stagger::${name} ALIAS stagger_${name})
  target_include_directories(stagger_${name} PUBLIC include PRIVATE src)
  target_link_libraries(stagger_${name} PUBLIC ${arg_PUBLIC} PRIVATE ${arg_PRIVATE})
  stagger_enable_warnings(stagger_${name})
endfunction()
