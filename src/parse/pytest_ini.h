/* pytest_ini.h: the pytest configuration a project's ini file gives (pytest.ini,
 * .pytest.ini, pyproject.toml [tool.pytest.ini_options], tox.ini [pytest], setup.cfg
 * [tool:pytest]), found as pytest finds it, and the collection rules it sets: which files,
 * classes and functions are tests, where collection starts, which folders it skips.
 * Private to src/parse. */
#ifndef UT_PARSE_PYTEST_INI_H
#define UT_PARSE_PYTEST_INI_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/diag.h"
#include "util/vec.h"

typedef UT_VEC(const char *) ut_pytest_list;

typedef struct ut_pytest_ini {
	ut_arena arena;
	const char *inifile;   /* the file read (absolute), or NULL: pytest's defaults */
	const char *rootdir;   /* its folder (absolute), or NULL */
	bool root_is_project;  /* the rootdir is the project's folder: testpaths apply */
	ut_pytest_list python_files, python_classes, python_functions, norecursedirs;
	ut_pytest_list testpaths; /* as written (globs not expanded) */
	const char *project;      /* the project's folder (absolute) */
	ut_pytest_list args;      /* where collection starts (ut_pytest_ini_args) */
	bool import_importlib;    /* addopts has --import-mode=importlib: test modules may
				     share a name */
	const char *root;         /* the root paths are given relative to */
} ut_pytest_ini;

/* Finds and reads the ini file for a pytest run started in the folder root (no
 * arguments: the list command's run), as pytest does: from root up to '/', in each folder
 * pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg, the first holding pytest's
 * section. Options it does not set keep pytest's defaults. What the static reading cannot
 * follow (addopts selecting or adding tests) is warned about in diags. UT_ENOMEM only:
 * an unreadable file is a warning and leaves the defaults. */
int ut_pytest_ini_load(ut_pytest_ini *ini, const char *root, ut_diags *diags);
void ut_pytest_ini_dispose(ut_pytest_ini *ini);

/* Where pytest's collection starts, as paths like the walk's (root joined): the given
 * paths, else the testpaths (globs expanded, each sorted) when the rootdir is the
 * project's folder and they name something, else root. */
int ut_pytest_ini_args(ut_pytest_ini *ini, const char *root, const char *const *paths,
		       size_t npaths);
/* For a Python file found by the walk: the index of the first of ini->args that collects
 * it as a test module (an arg naming the file itself; else python_files, no folder between
 * them skipped by norecursedirs), or -1. */
int ut_pytest_ini_arg_of(const ut_pytest_ini *ini, const char *path);

/* Is the file a test module for pytest (python_files; path relative to the project)? */
bool ut_pytest_ini_test_file(const ut_pytest_ini *ini, const char *rel);
/* Does pytest skip the folder while walking (norecursedirs, __pycache__, a virtualenv)? The
 * path as the walk has it (root joined). */
bool ut_pytest_ini_skip_dir(const ut_pytest_ini *ini, const char *rel);
/* Do python_functions (python_classes) take the name: a prefix, or a glob with * ? [ */
bool ut_pytest_ini_function(const ut_pytest_ini *ini, const char *name);
bool ut_pytest_ini_class(const ut_pytest_ini *ini, const char *name, size_t n);

#endif
