/* python.c: pytest's and unittest's collection: test functions and classes (inherited,
 * imported), parametrized cases, xunit-style setup methods, the setup each test runs,
 * node ids, and pytest's order. Fixtures are in python_fixtures.c. */
#include <stdlib.h>
#include <string.h>

#include "parse/python.h"
#include "parse/pytest_ini.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

static const char *key_text(const ut_py_ctx *p, size_t id)
{
	return p->key_texts.v[id];
}

static up_fn *module_fn(const ut_py_ctx *p, const up_file *f, const char *name)
{
	const ut_syn *c;

	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		up_fn *fn;

		if (up_syn_is(c, UT_R_FUNC) && (fn = up_index_fn_of(p->d->ix, f, c)) && fn->name &&
		    strcmp(fn->name, name) == 0)
			return fn;
	}
	return NULL;
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* python_functions and python_classes of the project's ini file (default: test, Test) */
static bool test_function(const ut_py_ctx *p, const char *name)
{
	return p->d->pytest ? ut_pytest_ini_function(p->d->pytest, name) : has_prefix(name, "test");
}

static bool test_class(const ut_py_ctx *p, const char *name, size_t n)
{
	return p->d->pytest ? ut_pytest_ini_class(p->d->pytest, name, n)
			    : n >= 4 && memcmp(name, "Test", 4) == 0;
}

/* The class `self` is in a method run for a test of class cls: cls itself when its chain
 * of bases (as values look them up) passes through the method's class, so that what cls
 * overrides is found (self.USER of the concrete class); else the method's own class. */
static const up_cls *self_class(const ut_py_ctx *p, const up_fn *fn, const up_cls *cls)
{
	const up_cls *k = cls;
	int guard = 0;

	for (; k && fn->cls && guard < 16; guard++) {
		if (k == fn->cls)
			return cls;
		k = up_index_super(p->d->ix, k);
	}
	return fn->cls;
}

/* Walks a test, fixture or setup function with its fixtures' values bound. */
static int walk_bound(ut_py_ctx *p, up_walker *w, up_fn *fn, const up_file *f, const up_cls *cls,
		      const ut_py_case *c, const ut_py_cases *cs)
{
	up_env env;
	int rc;

	if (!fn)
		return 0;
	fn->is_test = true;
	up_env_init(&env, NULL, fn->file, self_class(p, fn, cls));
	rc = up_py_bind_fixtures(p, &env, fn, f, cls, c, cs, 0);
	if (rc == 0)
		rc = up_walk_body(w, &env, fn->file, fn->body);
	up_env_dispose(&env);
	return rc;
}

typedef struct {
	const up_file *f;	  /* the module that collects the test */
	const up_cls *const *mro; /* the collecting class's order, cls first; none for functions */
	size_t nmro;
	const char *prefix; /* node id up to the test's name */
	bool unittest;
} where;

static up_fn *mro_method(const ut_py_ctx *p, const where *at, const char *name)
{
	return up_py_method(p->d->ix, at->mro, at->nmro, name);
}

/* What a wider fixture's parameter is set up for, besides its name and index. */
static const char *key_place(const ut_py_ctx *p, const where *at, int scope)
{
	if (scope == UT_PY_SESSION)
		return "";
	if (scope == UT_PY_PACKAGE)
		return up_py_dir_of(p->d->ix->temp, at->f->rel);
	if (scope == UT_PY_MODULE || !at->nmro)
		return at->f->rel;
	return at->prefix; /* the class */
}

/* The keys pytest reorders by, for the case's parameters of fixtures wider than a
 * function (get_parametrized_fixture_keys), a scope's sorted by name. */
static int add_keys(ut_py_ctx *p, const where *at, const ut_py_case *c, const ut_py_cases *cs,
		    size_t item)
{
	size_t i, j, start = p->keys.n;

	for (i = 0; i < cs->nfx && i < c->n; i++) {
		const up_binding *b = &cs->bindings.v[c->first + i];
		int scope = cs->fx[i]->scope;
		const char *loc = key_place(p, at, scope);
		const char *key;
		void *id;
		ut_py_key k;

		if (scope == UT_PY_FUNCTION)
			continue;
		key = ut_arena_printf(&p->d->ix->scratch, "%d%.*s\x01%zu\x01%s", scope,
				      (int)b->nlen, b->name, cs->indices.v[c->first + i], loc);
		if (!key)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (!ut_map_find(&p->key_ids, key, strlen(key), &id)) {
			id = (void *)(uintptr_t)p->nids++;
			if (ut_map_put(&p->key_ids, key, strlen(key), id) < 0 ||
			    ut_vec_push(&p->key_texts, key) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
		k.item = item;
		k.scope = scope;
		k.key = (size_t)(uintptr_t)id;
		/* by scope, then by name: the key's text starts with both */
		for (j = p->keys.n; j > start; j--) {
			const ut_py_key *prev = &p->keys.v[j - 1];

			if (prev->scope < scope ||
			    (prev->scope == scope && strcmp(key_text(p, prev->key), key) < 0))
				break;
		}
		if (ut_vec_push(&p->keys, k) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		memmove(&p->keys.v[j + 1], &p->keys.v[j], (p->keys.n - 1 - j) * sizeof(k));
		p->keys.v[j] = k;
	}
	return 0;
}

static int emit_case(ut_py_ctx *p, const where *at, up_fn *fn, const ut_py_case *c,
		     const ut_py_cases *cs)
{
	const up_file *f = at->f;
	const up_cls *cls = at->nmro ? at->mro[0] : NULL;
	bool unittest = at->unittest;
	ut_py_fxlist fx = {0};
	ut_arena_mark mark = ut_arena_save(p->d->ix->temp);
	up_walker w;
	size_t i;
	int rc = 0;
	const char *id, *framework;
	size_t ntests;

	up_walker_init(&w, p->d, fn->file->rel);
	/* autouse fixtures first, then those asked for by marks and parameters */
	for (i = 0; i < p->fixtures.n && rc == 0; i++)
		if (p->fixtures.v[i].autouse && up_py_visible(&p->fixtures.v[i], f, cls))
			rc = up_py_require(p, &fx,
					   up_py_resolve(p, p->fixtures.v[i].name,
							 strlen(p->fixtures.v[i].name), f, cls),
					   f, cls, 0);
	if (rc == 0 && cls)
		rc = up_py_usefixtures(p, f, cls->node, &fx, cls);
	if (rc == 0)
		rc = up_py_usefixtures(p, fn->file, fn->node, &fx, cls);
	for (i = 0; i < fn->nparams && rc == 0; i++) {
		const ut_syn *pn = fn->params[i];
		const char *name = fn->file->src.ptr + pn->start;

		/* a parameter of the case overrides the fixture of that name */
		if (!up_py_case_binds(c, cs, name, pn->end - pn->start, cs ? cs->nfx : 0))
			rc = up_py_require(
			    p, &fx, up_py_resolve(p, name, pn->end - pn->start, f, cls), f, cls, 0);
	}
	w.setup = true;
	if (rc == 0)
		rc = walk_bound(p, &w, module_fn(p, f, "setup_module"), f, cls, c, cs);
	if (rc == 0 && cls) {
		rc = walk_bound(p, &w, mro_method(p, at, unittest ? "setUpClass" : "setup_class"),
				f, cls, c, cs);
		if (rc == 0)
			rc = walk_bound(p, &w,
					mro_method(p, at, unittest ? "setUp" : "setup_method"), f,
					cls, c, cs);
	} else if (rc == 0) {
		rc = walk_bound(p, &w, module_fn(p, f, "setup_function"), f, cls, c, cs);
	}
	for (i = 0; i < fx.n && rc == 0; i++)
		rc = walk_bound(p, &w, fx.v[i]->fn, f, cls, c, cs);
	w.setup = false;
	if (rc == 0)
		rc = walk_bound(p, &w, fn, f, cls, c, cs);
	w.setup = true;
	if (rc == 0 && cls) {
		rc = walk_bound(p, &w, mro_method(p, at, unittest ? "tearDown" : "teardown_method"),
				f, cls, c, cs);
		if (rc == 0)
			rc = walk_bound(
			    p, &w, mro_method(p, at, unittest ? "tearDownClass" : "teardown_class"),
			    f, cls, c, cs);
	} else if (rc == 0) {
		rc = walk_bound(p, &w, module_fn(p, f, "teardown_function"), f, cls, c, cs);
	}
	if (rc == 0)
		rc = walk_bound(p, &w, module_fn(p, f, "teardown_module"), f, cls, c, cs);
	id = c && c->id ? ut_arena_printf(p->d->ix->temp, "%s::%s[%s]", at->prefix, fn->name, c->id)
			: ut_arena_printf(p->d->ix->temp, "%s::%s", at->prefix, fn->name);
	framework = unittest ? "unittest" : "pytest";
	ntests = p->d->suite->tests.n;
	if (rc == 0)
		rc = up_suite_append(p->d, fn->file, id, fn->name, fn->node,
				     p->d->framework ? p->d->framework : framework, &w);
	if (rc == 0 && p->d->suite->tests.n > ntests && cs && cs->nfx)
		rc = add_keys(p, at, c, cs, ntests - p->first);
	up_walker_dispose(&w);
	ut_vec_free(&fx);
	ut_arena_restore(p->d->ix->temp, mark); /* the test is in the model now */
	return rc;
}

/* One test function or method: a test for each of its parametrized cases. */
static int emit_test(ut_py_ctx *p, const where *at, up_fn *fn)
{
	ut_arena_mark mark = ut_arena_save(p->d->ix->temp);
	ut_py_fxparam fxp[UT_PY_MAX_MARKS];
	ut_py_cases cs;
	size_t i, nfxp;
	int rc;

	fn->is_test = true;
	if (at->unittest) {
		rc = emit_case(p, at, fn, NULL, NULL);
	} else {
		nfxp = up_py_fixture_params(p, at->f, at->nmro ? at->mro[0] : NULL, fn, fxp);
		rc =
		    up_py_cases_build(&cs, p->d->ix, p->d->diags, fn, at->mro, at->nmro, fxp, nfxp);
		for (i = 0; i < cs.cases.n && rc == 0; i++)
			rc = emit_case(p, at, fn, &cs.cases.v[i], &cs);
		up_py_cases_dispose(&cs);
	}
	ut_arena_restore(p->d->ix->temp, mark);
	return rc;
}

static int cmp_fn_name(const void *a, const void *b)
{
	const up_fn *x = *(up_fn *const *)a, *y = *(up_fn *const *)b;

	return strcmp(x->name, y->name);
}

/* What a class body defines, in order: methods, nested classes, and other names. */
typedef struct {
	const char *name;
	up_fn *fn;	   /* a method */
	const up_cls *cls; /* a nested class */
	size_t level;	   /* index in the order of the class defining it */
} member;

typedef UT_VEC(member) members;

static bool seen(const members *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strcmp(m->v[i].name, name) == 0)
			return true;
	return false;
}

/* The names along the order, the first definition of each (as attribute lookup finds it). */
static int class_members(const ut_py_ctx *p, const up_cls *const *mro, size_t n, members *out)
{
	size_t i;
	const ut_syn *c;

	for (i = 0; i < n; i++) {
		const up_cls *k = mro[i];

		for (c = up_syn_first(k->node); c; c = up_syn_next(c)) {
			member m;
			const ut_syn *t;

			memset(&m, 0, sizeof(m));
			m.level = i;
			if (up_syn_is(c, UT_R_FUNC) &&
			    (m.fn = up_index_fn_of(p->d->ix, k->file, c)) && m.fn->name) {
				m.name = m.fn->name;
			} else if (up_syn_is(c, UT_R_CLASS) &&
				   (m.cls = up_index_class_of(p->d->ix, k->file, c))) {
				m.name = m.cls->name;
			} else if (up_syn_is(c, UT_R_ASSIGN) &&
				   (t = up_syn_child(c, UT_R_ASSIGN_TARGET)) &&
				   up_syn_is(t, UT_R_IDENT)) {
				m.name = up_compact_text(p->d->ix, k->file, t);
			}
			if (m.name && !seen(out, m.name) && ut_vec_push(out, m) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* `__test__ = False`, as attribute lookup along the order finds it */
static bool not_a_test(const up_cls *const *mro, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		up_const_def *def = ut_map_get(&mro[i]->constants, "__test__", 8);

		if (def && def != &up_ambiguous && def->value)
			return up_text_is(def->file, def->value, "False");
	}
	return false;
}

static int collect_class(ut_py_ctx *p, const up_file *f, const up_cls *k, const char *name,
			 size_t nlen, const char *prefix, int depth);

/* pytest's Class.collect: each class's own names in definition order, base classes
 * first (reverse method resolution order); unittest's loader: every test* name, sorted. */
static int collect_members(ut_py_ctx *p, const where *at, int depth)
{
	members m = {0};
	UT_VEC(up_fn *) sorted = {0};
	size_t i, level;
	int rc = class_members(p, at->mro, at->nmro, &m);

	if (rc == 0 && at->unittest) {
		for (i = 0; i < m.n && rc == 0; i++)
			if (m.v[i].fn && has_prefix(m.v[i].name, "test"))
				rc = ut_vec_push(&sorted, m.v[i].fn) < 0
					 ? ut_error_set(UT_ENOMEM, "out of memory")
					 : 0;
		if (sorted.n)
			qsort(sorted.v, sorted.n, sizeof(up_fn *), cmp_fn_name);
		else if (rc == 0 && mro_method(p, at, "runTest"))
			rc = ut_vec_push(&sorted, mro_method(p, at, "runTest")) < 0
				 ? ut_error_set(UT_ENOMEM, "out of memory")
				 : 0;
		for (i = 0; i < sorted.n && rc == 0; i++)
			rc = emit_test(p, at, sorted.v[i]);
	}
	for (level = at->nmro; level-- > 0 && rc == 0 && !at->unittest;) {
		for (i = 0; i < m.n && rc == 0; i++) {
			const member *e = &m.v[i];

			if (e->level != level)
				continue;
			if (e->fn && test_function(p, e->name) &&
			    !up_py_is_fixture(p->d->ix, e->fn->file, e->fn->node, NULL))
				rc = emit_test(p, at, e->fn);
			else if (e->cls)
				rc = collect_class(p, at->f, e->cls, e->cls->name,
						   strlen(e->cls->name), at->prefix, depth + 1);
		}
	}
	ut_vec_free(&m);
	ut_vec_free(&sorted);
	return rc;
}

/* A class found under `name` in module f (its own, a nested one, or one imported). */
static int collect_class(ut_py_ctx *p, const up_file *f, const up_cls *k, const char *name,
			 size_t nlen, const char *prefix, int depth)
{
	const up_cls *mro[UT_PY_MAX_MRO];
	where at;
	int rc;

	if (depth > 16)
		return 0;
	memset(&at, 0, sizeof(at));
	at.f = f;
	at.mro = mro;
	at.nmro = up_py_mro(p->d->ix, k, mro, UT_PY_MAX_MRO);
	at.unittest = up_py_is_testcase(p->d->ix, mro, at.nmro);
	if (!at.unittest && !test_class(p, name, nlen))
		return 0;
	if (!at.unittest && up_py_method(p->d->ix, mro, at.nmro, "__init__")) {
		ut_diags_add(p->d->diags, UT_DIAG_WARNING, k->file->rel,
			     up_syn_line(k->file->tree, k->node),
			     "class '%.*s' has an __init__ constructor: pytest does not collect it",
			     (int)nlen, name);
		return 0;
	}
	if (not_a_test(mro, at.nmro))
		return 0;
	at.prefix = ut_arena_printf(p->d->ix->temp, "%s::%.*s", prefix, (int)nlen, name);
	if (!at.prefix)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = collect_members(p, &at, depth);
	return rc;
}

/* pytest's Module.collect: the module's names in the order they are bound, imported
 * test classes included (pytest collects them again where they are imported). */
static int discover_file(ut_py_ctx *p, const up_file *f)
{
	const ut_syn *c;
	int rc = 0;
	where at;

	memset(&at, 0, sizeof(at));
	at.f = f;
	at.prefix = f->rel;
	for (c = up_syn_first(f->tree->root); c && rc == 0; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_FUNC)) {
			up_fn *fn = up_index_fn_of(p->d->ix, f, c);

			if (fn && fn->name && test_function(p, fn->name) &&
			    !up_py_is_fixture(p->d->ix, f, c, NULL))
				rc = emit_test(p, &at, fn);
		} else if (up_syn_is(c, UT_R_CLASS)) {
			up_cls *k = up_index_class_of(p->d->ix, f, c);

			if (k)
				rc = collect_class(p, f, k, k->name, strlen(k->name), f->rel, 0);
		} else if (up_syn_is(c, UT_R_IMPORT)) {
			ut_py_import imps[UT_PY_MAX_IMPORTS];
			int n = up_py_imports(p->d->ix, f, c, imps, UT_PY_MAX_IMPORTS), i;

			for (i = 0; i < n && rc == 0; i++) {
				up_fn *fn = imps[i].fn;

				if (imps[i].cls)
					rc = collect_class(p, f, imps[i].cls, imps[i].name,
							   imps[i].nlen, f->rel, 0);
				/* a test function imported (not renamed) is collected here too */
				else if (fn && fn->name && strlen(fn->name) == imps[i].nlen &&
					 memcmp(fn->name, imps[i].name, imps[i].nlen) == 0 &&
					 test_function(p, fn->name) &&
					 !up_py_is_fixture(p->d->ix, fn->file, fn->node, NULL))
					rc = emit_test(p, &at, fn);
			}
		}
	}
	return rc;
}

static void mark_tests(ut_py_ctx *p, const up_file *f)
{
	const ut_syn *c, *m;

	/* test functions must never be inlined as helpers, whatever the order */
	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		up_fn *fn;

		if (up_syn_is(c, UT_R_FUNC) && (fn = up_index_fn_of(p->d->ix, f, c)) && fn->name &&
		    (has_prefix(fn->name, "test") || test_function(p, fn->name)))
			fn->is_test = true;
		if (!up_syn_is(c, UT_R_CLASS))
			continue;
		for (m = up_syn_first(c); m; m = up_syn_next(m))
			if (up_syn_is(m, UT_R_FUNC) && (fn = up_index_fn_of(p->d->ix, f, m)) &&
			    fn->name &&
			    (has_prefix(fn->name, "test") || test_function(p, fn->name)))
				fn->is_test = true;
	}
}

/* Tests that share a wider fixture's parameter brought together, as pytest does. */
static int reorder(ut_py_ctx *p)
{
	ut_suite *s = p->d->suite;
	size_t n = s->tests.n - p->first, i, *order = malloc(n * sizeof(size_t));
	ut_test *copy = malloc(n * sizeof(ut_test));
	int rc = 0;

	if (!order || !copy) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	rc = up_py_reorder(p->keys.v, p->keys.n, n, p->nids, order);
	if (rc < 0)
		goto done;
	memcpy(copy, s->tests.v + p->first, n * sizeof(ut_test));
	for (i = 0; i < n; i++) {
		s->tests.v[p->first + i] = copy[order[i]];
		s->tests.v[p->first + i].index = p->first + i;
	}
done:
	free(order);
	free(copy);
	return rc;
}

/* pytest imports a test module by its name (import mode prepend): a second module of the
 * same name fails ("import file mismatch") and has no tests. 1 for that one, else 0. */
static int same_module(ut_py_ctx *p, ut_map *modules, const up_file *f)
{
	const char *name;
	void *first;

	if (!p->d->pytest || p->d->pytest->import_importlib)
		return 0;
	name = up_py_module_name(p->d->ix->arena, f);
	if (!name)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (ut_map_find(modules, name, strlen(name), &first)) {
		ut_diags_add(p->d->diags, UT_DIAG_WARNING, f->rel, 0,
			     "pytest cannot import it: its module name '%s' is the one of '%s' "
			     "(import file mismatch); its tests are left out. Rename one, or add "
			     "__init__.py files to make them packages",
			     name, ((const up_file *)first)->rel);
		return 1;
	}
	return ut_map_put(modules, name, strlen(name), (void *)f) < 0
		   ? ut_error_set(UT_ENOMEM, "out of memory")
		   : 0;
}

int up_python_discover(up_discover *d)
{
	ut_map modules = {0}; /* the test modules' import names */
	ut_py_ctx p;
	size_t i;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.d = d;
	p.first = d->suite->tests.n;
	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const up_file *f = d->ix->files.v[i];
		const ut_syn *c;

		if (f->lang != UT_LANG_PYTHON)
			continue;
		rc = up_py_add_fixtures(&p, f, f->tree->root, NULL,
					strcmp(ut_path_basename(f->rel), "conftest.py") == 0);
		for (c = up_syn_first(f->tree->root); c && rc == 0; c = up_syn_next(c)) {
			up_cls *k = up_syn_is(c, UT_R_CLASS) ? up_index_class_of(d->ix, f, c) : NULL;

			if (k)
				rc = up_py_add_fixtures(&p, f, c, k, false);
		}
		if (f->test_file)
			mark_tests(&p, f);
	}
	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const up_file *f = d->ix->files.v[i];

		if (f->lang == UT_LANG_PYTHON && f->test_file && !up_py_ignored(&p, f) &&
		    !(rc = same_module(&p, &modules, f)))
			rc = discover_file(&p, f);
		rc = rc > 0 ? 0 : rc;
	}
	if (rc == 0)
		rc = up_walks_run(d); /* before the tests move */
	if (rc == 0 && p.keys.n)
		rc = reorder(&p);
	ut_map_dispose(&modules);
	ut_vec_free(&p.fixtures);
	ut_vec_free(&p.keys);
	ut_vec_free(&p.key_texts);
	ut_map_dispose(&p.key_ids);
	return rc;
}
