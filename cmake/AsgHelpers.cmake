# Small helpers shared by the module and test CMakeLists.

# Adds each listed module folder that has a CMakeLists.txt.
macro(asg_add_modules)
  foreach(module ${ARGN})
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${module}/CMakeLists.txt)
      add_subdirectory(${module})
    endif()
  endforeach()
endmacro()

# asg_add_library(NAME SOURCES a.cpp b.cpp DEPS asg::protocol ...)
# Creates the library target asg_<NAME> with the alias asg::<NAME>; the repository root is its
# public include directory, so headers are included as "terrain/landscape.h".
function(asg_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(asg_${name} STATIC ${ARG_SOURCES})
  add_library(asg::${name} ALIAS asg_${name})
  target_include_directories(asg_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(asg_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()

# asg_add_test(NAME SOURCES a_test.cpp ... DEPS asg::terrain ... [LABELS slow])
# A GoogleTest executable whose tests are registered with CTest one by one.
function(asg_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  # Test helpers are included from the repository root, e.g. "tests/temp_dir.h".
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name} PRIVATE
    ASG_SOURCE_DIR="${PROJECT_SOURCE_DIR}" ASG_BINARY_DIR="${PROJECT_BINARY_DIR}")
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 120)
  endif()
  gtest_discover_tests(${name}
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}")
endfunction()

# asg_add_benchmark(NAME SOURCES a_bench.cpp ... DEPS ...)
function(asg_add_benchmark name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} benchmark::benchmark)
  target_compile_definitions(${name} PRIVATE ASG_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endfunction()

# asg_embed_files(TARGET OUTPUT out.cpp HEADER h NAMESPACE ns TYPE T FUNCTION F FILES a b ...)
# Adds to TARGET a source generated at build time that holds FILES byte for byte
# (EmbedFiles.cmake); it is written again whenever one of them changes.
function(asg_embed_files target)
  cmake_parse_arguments(ARG "" "OUTPUT;HEADER;NAMESPACE;TYPE;FUNCTION" "FILES" ${ARGN})
  set(output ${CMAKE_CURRENT_BINARY_DIR}/${ARG_OUTPUT})
  list(TRANSFORM ARG_FILES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/ OUTPUT_VARIABLE files)
  string(REPLACE ";" "|" file_list "${files}")
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DHEADER=${ARG_HEADER}
            -DNAMESPACE=${ARG_NAMESPACE} -DTYPE=${ARG_TYPE} -DFUNCTION=${ARG_FUNCTION}
            "-DFILES=${file_list}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    COMMENT "Embedding ${ARG_OUTPUT}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()
