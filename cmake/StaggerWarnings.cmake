# Warnings are errors on our own targets only; system headers (Bullet, GoogleTest) are included
# as SYSTEM so their warnings never fail our build.
function(stagger_enable_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Wunused -Woverloaded-virtual -Wnull-dereference -Wdouble-promotion -Wformat=2
    -Wimplicit-fallthrough -Werror)
endfunction()
