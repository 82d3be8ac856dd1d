# ASan+UBSan for every target of ours when STAGGER_SANITIZE is on (the `asan` preset).
if(STAGGER_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
