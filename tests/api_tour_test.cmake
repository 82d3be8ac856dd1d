# The ctest test docs.api_tour_names_every_header, run with cmake -P: docs/api.md, the guided tour
# of the C++ API, names every installed public header as `stagger/MODULE/NAME.h`, so a new header
# cannot be left out of it, and every header it names exists in the source tree, so a removed or
# renamed one cannot stay in it. Inputs (-D): SOURCE_DIR, HEADER_FOLDERS (the module folders whose
# include/ is installed, comma-separated).
cmake_minimum_required(VERSION 3.25)

foreach(input SOURCE_DIR HEADER_FOLDERS)
  if(NOT DEFINED ${input} OR "${${input}}" STREQUAL "")
    message(FATAL_ERROR "api_tour_test.cmake: -D${input}=... is required")
  endif()
endforeach()

set(tour_file ${SOURCE_DIR}/docs/api.md)
file(READ ${tour_file} tour)
string(REGEX MATCHALL "stagger/[a-z0-9_]+/[a-z0-9_/]+\\.h" named "${tour}")
list(REMOVE_DUPLICATES named)

string(REPLACE "," ";" folders "${HEADER_FOLDERS}")
set(installed "")
foreach(folder IN LISTS folders)
  file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/${folder}/include ${SOURCE_DIR}/${folder}/include/*.h)
  list(APPEND installed ${headers})
endforeach()

set(problems "")
foreach(header IN LISTS installed)
  if(NOT header IN_LIST named)
    string(APPEND problems "\n  ${header} is installed but docs/api.md does not name it")
  endif()
endforeach()
file(GLOB module_include_dirs LIST_DIRECTORIES true ${SOURCE_DIR}/*/include)
foreach(header IN LISTS named)
  set(found FALSE)
  foreach(dir IN LISTS module_include_dirs)
    if(EXISTS ${dir}/${header})
      set(found TRUE)
    endif()
  endforeach()
  if(NOT found)
    string(APPEND problems "\n  docs/api.md names ${header}, which no module has")
  endif()
endforeach()

list(LENGTH installed installed_count)
if(installed_count EQUAL 0)
  message(FATAL_ERROR "api tour test: no installed headers found under ${SOURCE_DIR} (${HEADER_FOLDERS})")
endif()
if(NOT problems STREQUAL "")
  message(FATAL_ERROR "api tour test: ${tour_file}:${problems}\nAdd each installed header to the "
                      "tour under its component, with what it is for.")
endif()
list(LENGTH named named_count)
message(STATUS "api tour test: docs/api.md names all ${installed_count} installed headers (${named_count} named)")
