# `cmake --install` and the .deb (ci/package): the binary, the runner helpers where the
# binary finds them (../share/untangle/runners beside it, src/runner/template.c), the man
# page and the documentation, compressed and named as Debian Policy asks (12.3, 12.7).
include(GNUInstallDirs)
set(UT_DEB_RELEASE 1) # the Debian revision: 1 for each new upstream version
set(UT_DEB_VERSION ${PROJECT_VERSION}-${UT_DEB_RELEASE})
set(UT_DEB_MAINTAINER "the untangle authors <maintainers@untangle.invalid>" CACHE STRING
  "the .deb's Maintainer field (ci/package sets it from DEBFULLNAME and DEBEMAIL)")
set(UT_DOC_DIR ${CMAKE_INSTALL_DATADIR}/doc/untangle)

# pkg/deb/changelog names the package's version: its newest entry must be this one
file(STRINGS ${CMAKE_SOURCE_DIR}/pkg/deb/changelog ut_deb_top LIMIT_COUNT 1)
string(FIND "${ut_deb_top}" "untangle (${UT_DEB_VERSION}) " ut_deb_at)
if(NOT ut_deb_at EQUAL 0)
  message(FATAL_ERROR "pkg/deb/changelog:1: the newest entry is '${ut_deb_top}', "
    "not version ${UT_DEB_VERSION} (project version and UT_DEB_RELEASE)")
endif()

# gzip -9n (no name, no time stamp: the same bytes on every build) into build/pkg/NAME.gz
find_program(UT_GZIP gzip REQUIRED)
set(UT_PKG_DIR ${CMAKE_BINARY_DIR}/pkg)
function(ut_gzip src name)
  add_custom_command(OUTPUT ${UT_PKG_DIR}/${name}.gz
    COMMAND ${CMAKE_COMMAND} -E copy ${src} ${UT_PKG_DIR}/${name}
    COMMAND ${UT_GZIP} -9nf ${UT_PKG_DIR}/${name}
    DEPENDS ${src} VERBATIM)
  set_property(GLOBAL APPEND PROPERTY UT_GZIPPED ${UT_PKG_DIR}/${name}.gz)
endfunction()

ut_gzip(${CMAKE_SOURCE_DIR}/doc/untangle.1 untangle.1)
install(FILES ${UT_PKG_DIR}/untangle.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

ut_gzip(${CMAKE_SOURCE_DIR}/pkg/deb/changelog changelog.Debian)
ut_gzip(${CMAKE_SOURCE_DIR}/CHANGELOG.md changelog)
install(FILES ${UT_PKG_DIR}/changelog.Debian.gz ${UT_PKG_DIR}/changelog.gz
  ${CMAKE_SOURCE_DIR}/pkg/deb/copyright DESTINATION ${UT_DOC_DIR})

# The guides: README.md, docs/*.md (doc/*.md when docs/ has no page of that name) and the
# runner contract, which the man page points to.
file(GLOB ut_guides CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md ${CMAKE_SOURCE_DIR}/doc/*.md)
set(ut_guide_names runners.md)
ut_gzip(${CMAKE_SOURCE_DIR}/ci/runners/README.md runners.md)
foreach(guide ${CMAKE_SOURCE_DIR}/README.md ${ut_guides})
  get_filename_component(name ${guide} NAME)
  if(NOT name IN_LIST ut_guide_names)
    list(APPEND ut_guide_names ${name})
    ut_gzip(${guide} ${name})
  endif()
endforeach()
list(TRANSFORM ut_guide_names PREPEND ${UT_PKG_DIR}/)
list(TRANSFORM ut_guide_names APPEND .gz)
install(FILES ${ut_guide_names} DESTINATION ${UT_DOC_DIR})

get_property(ut_gzipped GLOBAL PROPERTY UT_GZIPPED)
add_custom_target(ut_compressed ALL DEPENDS ${ut_gzipped})

install(TARGETS untangle RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# data, not programs: the presets run them through an interpreter of the project's own
# (`node mocha-ordered.js`, runner.python with pytest-list.py), never by their #! line
file(GLOB UT_RUNNER_HELPERS ${CMAKE_SOURCE_DIR}/ci/runners/*.java
     ${CMAKE_SOURCE_DIR}/ci/runners/*.js ${CMAKE_SOURCE_DIR}/ci/runners/*.py)
install(FILES ${UT_RUNNER_HELPERS} DESTINATION ${CMAKE_INSTALL_DATADIR}/untangle/runners)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME untangle)
set(CPACK_PACKAGE_VENDOR "untangle")
set(CPACK_PACKAGE_CONTACT "${UT_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "find and prove hidden dependencies between end-to-end browser tests")
# lines under 80 columns (Policy 3.4.1); CPack indents them and turns the empty line to " ."
set(CPACK_PACKAGE_DESCRIPTION
"untangle reads a Selenium WebDriver suite (Java with JUnit 4, JUnit 5 or
TestNG; Python with pytest or unittest; JavaScript or TypeScript with mocha
or jest), finds which tests can depend on which from the values they submit
and reuse and from their names, and proves each dependency by running
schedules of tests through the project's own test runner against the real
application.

The proven graph gives dependency-safe parallel shards, minimized suites and
an incremental pre-merge check, with reports for GitHub, GitLab and SARIF.")
set(CPACK_DEBIAN_PACKAGE_RELEASE ${UT_DEB_RELEASE})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# the shared libraries come from dpkg-shlibdeps; WordNet's data is read at run time
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "wordnet-base")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "chromium, chromium-driver, python3-pytest, nodejs, default-jdk-headless")
include(CPack)
