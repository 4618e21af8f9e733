/* python.h: what the pytest rules share between python.c (collection, fixtures) and
 * python_params.c (@pytest.mark.parametrize cases and their ids). Private to src/parse. */
#ifndef UT_PARSE_PYTHON_H
#define UT_PARSE_PYTHON_H

#include "parse/internal.h"

#define UT_PY_MAX_MARKS 16   /* parametrize marks read on one test */
#define UT_PY_MAX_CASES 4096 /* cases of one test; more are left out with a warning */

/* The decorators standing right before a definition, top to bottom: up to max in out. */
size_t up_py_decorators(const ut_syn *def, const ut_syn **out, size_t max);

/* Fixture scopes, narrowest first. */
enum { UT_PY_FUNCTION, UT_PY_CLASS, UT_PY_MODULE, UT_PY_PACKAGE, UT_PY_SESSION };

#define UT_PY_MAX_IMPORTS 64 /* names read from one import statement */
#define UT_PY_MAX_MRO 32 /* classes in one method resolution order */

/* cls's method resolution order (C3, as Python computes it), cls first, in out (up to
 * max); only classes of the suite: bases from elsewhere (unittest.TestCase, object) are
 * not in it. Returns how many. */
size_t up_py_mro(const up_index *ix, const up_cls *cls, const up_cls **out, size_t max);
/* True when a class of the order has a base from outside the suite that is a
 * unittest.TestCase (TestCase, any *TestCase, SeleniumBase's BaseCase). */
bool up_py_is_testcase(const up_index *ix, const up_cls *const *mro, size_t n);
/* The method `name` that attribute lookup along mro finds, or NULL. */
up_fn *up_py_method(const up_index *ix, const up_cls *const *mro, size_t n, const char *name);

/* A parametrized fixture's parameter a test uses, as pytest keys it for reordering: key is
 * an id of (name, parameter index, and the package, module or class it is set up for). */
typedef struct {
	size_t item; /* the test: 0 .. nitems - 1 */
	int scope;   /* UT_PY_CLASS .. UT_PY_SESSION */
	size_t key;  /* 0 .. nids - 1; a test's keys of one scope come sorted by name */
} ut_py_key;

/* pytest's reorder_items: the order of tests 0 .. nitems - 1 in out (nitems entries). */
int up_py_reorder(const ut_py_key *keys, size_t nkeys, size_t nitems, size_t nids, size_t *out);

/* A name `from m import a as b` brings into a module: b, and the suite's class it names
 * (NULL when it is no class of another module of the suite), or the top-level function of
 * module m it names (NULL when none is known). */
typedef struct {
	const char *name; /* not NUL-terminated */
	size_t nlen;
	const up_cls *cls;
	up_fn *fn;
} ut_py_import;

/* The names an import statement of f brings in, in order, up to max. Returns how many. */
int up_py_imports(const up_index *ix, const up_file *f, const ut_syn *imp, ut_py_import *out,
		  size_t max);

/* One case of a parametrized test: its id as pytest forms it ("alpha", "1-x") and the
 * values its argument names are bound to (bindings[first .. first + n)). */
typedef struct {
	const char *id;
	size_t first, n;
} ut_py_case;

/* A parametrized fixture a test requests: @pytest.fixture(params=[...], ids=[...]). */
typedef struct {
	const char *name;
	const up_file *file;
	const ut_syn *call; /* the decorator's call */
	int scope;
} ut_py_fxparam;

typedef struct {
	UT_VEC(ut_py_case) cases;
	UT_VEC(up_binding) bindings;
	UT_VEC(size_t) indices; /* beside each binding: the index of its value in its list */
	/* the parametrized fixtures applied: a case's first nfx bindings are theirs */
	const ut_py_fxparam *fx[UT_PY_MAX_MARKS];
	size_t nfx;
	bool parametrized; /* false: one case without id */
} ut_py_cases;

/* The cases of the test fn collected on a class (mro: its method resolution order, nmro
 * classes, the class first; none for a module function), as pytest applies them, each
 * later one an inner loop: the parametrized fixtures fxp (the test's fixture closure in
 * pytest's order) but those the test parametrizes itself, then the parametrize marks of
 * fn (bottom decorator first), then those of the class and its bases. Strings are in
 * ix->temp; out keeps pointers into fxp. Lists that cannot be read (not literal) are
 * warned about in diags and leave one case. */
int up_py_cases_build(ut_py_cases *out, const up_index *ix, ut_diags *diags, const up_fn *fn,
		      const up_cls *const *mro, size_t nmro, const ut_py_fxparam *fxp, size_t nfxp);
void up_py_cases_dispose(ut_py_cases *c);

/* A fixture of the suite. */
typedef struct {
	up_fn *fn;
	const char *name; /* the fixture's name (name= overrides the function's) */
	bool autouse;
	const char *dir;     /* conftest fixtures: the folder they apply below; else NULL */
	const up_file *file; /* module fixtures: their file */
	const up_cls *cls;   /* class fixtures: their class */
	ut_py_fxparam param; /* call set when it has params=[...] */
} ut_py_fixture;

/* What Python discovery works with: the suite's fixtures, and the keys of pytest's
 * reordering. */
typedef struct {
	up_discover *d;
	UT_VEC(ut_py_fixture) fixtures;
	size_t first;			/* the first Python test in the suite */
	UT_VEC(ut_py_key) keys;		/* parametrized fixtures wider than a function, per test */
	ut_map key_ids;			/* their ids */
	UT_VEC(const char *) key_texts; /* and back */
	size_t nids;
} ut_py_ctx;

typedef UT_VEC(const ut_py_fixture *) ut_py_fxlist;

/* python_fixtures.c */
/* True when the definition is a fixture; *t (if given) gets its decorator's text. */
bool up_py_is_fixture(const up_index *ix, const up_file *f, const ut_syn *node, const char **t);
/* The folder of a relative path ("" at the top), in a. */
const char *up_py_dir_of(ut_arena *a, const char *rel);
/* Adds the fixtures defined among n's children (a module, a conftest.py, a class). */
int up_py_add_fixtures(ut_py_ctx *p, const up_file *f, const ut_syn *n, const up_cls *cls,
		       bool conftest);
/* Is the fixture seen from a test in file f and class cls? */
bool up_py_visible(const ut_py_fixture *fx, const up_file *f, const up_cls *cls);
/* The fixture a name stands for there: the closest definition, or NULL. */
const ut_py_fixture *up_py_resolve(const ut_py_ctx *p, const char *name, size_t nlen,
				   const up_file *f, const up_cls *cls);
/* Adds fx to out after the fixtures it requests, as pytest sets them up. */
int up_py_require(const ut_py_ctx *p, ut_py_fxlist *out, const ut_py_fixture *fx, const up_file *f,
		  const up_cls *cls, int depth);
/* Adds the fixtures of @pytest.mark.usefixtures("a", "b") on a function or class. */
int up_py_usefixtures(const ut_py_ctx *p, const up_file *f, const ut_syn *node, ut_py_fxlist *out,
		      const up_cls *cls);
/* Does the case bind `name`, from index `from` of its bindings on? */
bool up_py_case_binds(const ut_py_case *c, const ut_py_cases *cs, const char *name, size_t n,
		      size_t from);
/* Binds fn's parameters in env to what they get: the case's values (c may be NULL), else
 * what the fixture of that name returns or yields. */
int up_py_bind_fixtures(const ut_py_ctx *p, up_env *env, const up_fn *fn, const up_file *f,
			const up_cls *cls, const ut_py_case *c, const ut_py_cases *cs, int depth);
/* The name pytest imports the test module f under (its default import mode, prepend):
 * the file's name without .py, after the packages it is in (folders with __init__.py),
 * dotted. In a; NULL when out of memory. */
const char *up_py_module_name(ut_arena *a, const up_file *f);
/* Does a conftest.py above f take it out of collection (collect_ignore,
 * collect_ignore_glob: literal lists of paths relative to the conftest's folder)? */
bool up_py_ignored(const ut_py_ctx *p, const up_file *f);
/* The parametrized fixtures of fn's fixture closure (a test of file f, class cls), in
 * pytest's order, in out (up to UT_PY_MAX_MARKS). Returns how many. */
size_t up_py_fixture_params(const ut_py_ctx *p, const up_file *f, const up_cls *cls,
			    const up_fn *fn, ut_py_fxparam *out);

#endif
