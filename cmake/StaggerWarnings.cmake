# Warnings are errors on our own targets only (STAGGER_WARNINGS_AS_ERRORS, on when Stagger is the
# top-level project: a newer compiler's new warnings must not break a project that embeds it);
# system headers (Bullet, GoogleTest) are included as SYSTEM so their warnings never fail our build.
function(stagger_enable_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Wunused -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion -Wformat=2
    -Wimplicit-fallthrough)
  if(STAGGER_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
