# Small helpers shared by the module and test CMakeLists.

# asg_module(NAME [USES ...]): one row of cmake/Modules.cmake. Adds the module's folder (a
# module inside another module's folder, such as client/farm, is added by that folder's
# CMakeLists.txt) and records the module for tests/CMakeLists.txt, which adds tests/<module>.
# USES is read by tests/architecture/layering_test.py, not by CMake.
macro(asg_module name)
  string(FIND "${name}" "/" nested)
  if(nested EQUAL -1)
    add_subdirectory(${name})
  endif()
  set_property(GLOBAL APPEND PROPERTY ASG_MODULES ${name})
endmacro()

# asg_tests_may_also_use(MODULE USES ...): a row of cmake/Modules.cmake's second table, read by
# tests/architecture/layering_test.py; nothing for CMake to do.
macro(asg_tests_may_also_use)
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

# asg_add_test(NAME SOURCES a_test.cpp ... DEPS asg::terrain ... [LABELS e2e slow] [TIMEOUT s])
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
  # unit: in-process tests of a module; e2e: real executables and processes; slow: a minute or
  # so of work, left out by `ctest -LE slow`.
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  gtest_discover_tests(${name}
    DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${ARG_TIMEOUT})
  # Labels are set by a script of their own, run by CTest after the discovered tests are added
  # (their names are in ${name}_TESTS): gtest_discover_tests' PROPERTIES keep one value only.
  set(label_script ${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake)
  # An executable left unbuilt (a build of the unit_tests target alone) has no test list.
  file(WRITE ${label_script}
       "if(${name}_TESTS)\n"
       "  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${label_script})
  if("unit" IN_LIST ARG_LABELS)
    set_property(GLOBAL APPEND PROPERTY ASG_UNIT_TEST_TARGETS ${name})
  endif()
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
