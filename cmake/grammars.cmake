# Builds the pinned tree-sitter grammars from the npm tarballs listed in
# grammars/package-lock.json. Nothing generated is committed: `npm ci` unpacks them.
set(UT_GRAMMAR_DIR ${CMAKE_SOURCE_DIR}/grammars)
set(UT_GRAMMAR_MODULES ${UT_GRAMMAR_DIR}/node_modules)
set(UT_GRAMMAR_STAMP ${UT_GRAMMAR_MODULES}/.package-lock.json)

if(NOT EXISTS ${UT_GRAMMAR_MODULES}/tree-sitter-java/src/parser.c
   OR ${UT_GRAMMAR_DIR}/package-lock.json IS_NEWER_THAN ${UT_GRAMMAR_STAMP})
  find_program(NPM npm)
  if(NOT NPM)
    message(FATAL_ERROR "npm is needed to fetch the pinned grammars (run ci/setup)")
  endif()
  message(STATUS "fetching pinned tree-sitter grammars with npm ci")
  execute_process(COMMAND ${NPM} ci --ignore-scripts --no-audit --no-fund
                  WORKING_DIRECTORY ${UT_GRAMMAR_DIR} RESULT_VARIABLE ut_npm_rc)
  if(NOT ut_npm_rc EQUAL 0)
    message(FATAL_ERROR "npm ci in grammars/ failed (${ut_npm_rc})")
  endif()
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${UT_GRAMMAR_DIR}/package-lock.json)

function(ut_grammar name dir)
  set(srcs ${dir}/src/parser.c)
  if(EXISTS ${dir}/src/scanner.c)
    list(APPEND srcs ${dir}/src/scanner.c)
  endif()
  add_library(ut_grammar_${name} STATIC ${srcs})
  target_include_directories(ut_grammar_${name} PRIVATE ${dir}/src)
  # Generated code: no warnings, always optimised, never instrumented (it is not ours).
  set_source_files_properties(${srcs} PROPERTIES COMPILE_OPTIONS "-w;-O2;-g0")
  set_target_properties(ut_grammar_${name} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
endfunction()

ut_grammar(java ${UT_GRAMMAR_MODULES}/tree-sitter-java)
ut_grammar(python ${UT_GRAMMAR_MODULES}/tree-sitter-python)
ut_grammar(javascript ${UT_GRAMMAR_MODULES}/tree-sitter-javascript)
ut_grammar(typescript ${UT_GRAMMAR_MODULES}/tree-sitter-typescript/typescript)
ut_grammar(tsx ${UT_GRAMMAR_MODULES}/tree-sitter-typescript/tsx)

add_library(ut_grammars INTERFACE)
target_link_libraries(ut_grammars INTERFACE ut_grammar_java ut_grammar_python
  ut_grammar_javascript ut_grammar_typescript ut_grammar_tsx)
