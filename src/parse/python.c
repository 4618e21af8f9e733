/* python.c: pytest and unittest conventions: test functions and classes, fixtures from
 * conftest.py, the module and the class (with autouse and usefixtures), xunit-style
 * setup methods, and pytest node ids. */
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

typedef struct {
	ut_fn *fn;
	const char *name;  /* the fixture's name (name= overrides the function's) */
	bool autouse;
	const char *dir;   /* conftest fixtures: the folder they apply below; else NULL */
	const ut_file *file; /* module fixtures: their file */
	const ut_cls *cls;   /* class fixtures: their class */
} fixture;

typedef struct {
	ut_discover *d;
	UT_VEC(fixture) fixtures;
} pyctx;

/* Decorators stand before the definition as siblings in the role tree. */
static size_t decorators_of(const ut_syn *fn_node, const ut_syn **out, size_t max)
{
	const ut_syn *c, *parent = ut_syn_parent(fn_node);
	size_t n = 0;

	if (!parent)
		return 0;
	for (c = ut_syn_first(parent); c && c != fn_node; c = ut_syn_next(c)) {
		if (ut_syn_is(c, UT_R_DECO)) {
			if (n < max)
				out[n++] = c;
		} else {
			n = 0;
		}
	}
	return c ? n : 0;
}

static bool deco_has(const ut_index *ix, const ut_file *f, const ut_syn *fn_node,
		     const char *prefix, const char **text_out)
{
	const ut_syn *decos[16];
	size_t n = decorators_of(fn_node, decos, 16), i;

	for (i = 0; i < n; i++) {
		const char *t = ut_compact_text(ix, f, decos[i]);

		if (strncmp(t, prefix, strlen(prefix)) == 0) {
			if (text_out)
				*text_out = t;
			return true;
		}
	}
	return false;
}

static bool is_fixture(const ut_index *ix, const ut_file *f, const ut_syn *node, const char **t)
{
	return deco_has(ix, f, node, "@pytest.fixture", t) || deco_has(ix, f, node, "@fixture", t) ||
	       deco_has(ix, f, node, "@pytest_asyncio.fixture", t);
}

static const char *dir_of(ut_arena *a, const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? ut_arena_strndup(a, rel, (size_t)(slash - rel)) : "";
}

static int add_fixtures(pyctx *p, const ut_file *f, const ut_syn *n, const ut_cls *cls,
			bool conftest)
{
	const ut_syn *c;

	for (c = ut_syn_first(n); c; c = ut_syn_next(c)) {
		ut_fn *fn;
		const char *t = NULL, *nm;
		fixture fx;

		if (!ut_syn_is(c, UT_R_FUNC) || !(fn = ut_index_fn_of(p->d->ix, f, c)) || !fn->name)
			continue;
		if (!is_fixture(p->d->ix, f, c, &t))
			continue;
		fn->is_test = true;
		fn->is_fixture = true;
		memset(&fx, 0, sizeof(fx));
		fx.fn = fn;
		fx.name = fn->name;
		nm = strstr(t, "name=");
		if (nm && (nm[5] == '"' || nm[5] == '\'')) {
			size_t len = strcspn(nm + 6, "\"'");

			fx.name = ut_arena_strndup(p->d->ix->arena, nm + 6, len);
		}
		fx.autouse = strstr(t, "autouse=True") != NULL;
		if (conftest)
			fx.dir = dir_of(p->d->ix->arena, f->rel);
		else if (cls)
			fx.cls = cls;
		else
			fx.file = f;
		if (ut_vec_push(&p->fixtures, fx) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

static bool dir_contains(const char *dir, const char *rel)
{
	size_t n = strlen(dir);

	return n == 0 || (strncmp(rel, dir, n) == 0 && rel[n] == '/');
}

/* Is the fixture visible from a test in file f and class chain cls? */
static bool visible(const fixture *fx, const ut_file *f, const ut_cls *cls)
{
	if (fx->dir)
		return dir_contains(fx->dir, f->rel);
	if (fx->cls) {
		for (; cls; cls = cls->outer)
			if (cls == fx->cls)
				return true;
		return false;
	}
	return fx->file == f;
}

/* The closest definition wins: class, then module, then the deepest conftest. */
static const fixture *resolve(const pyctx *p, const char *name, size_t nlen, const ut_file *f,
			      const ut_cls *cls)
{
	const fixture *best = NULL;
	int best_rank = -1;
	size_t i;

	for (i = 0; i < p->fixtures.n; i++) {
		const fixture *fx = &p->fixtures.v[i];
		int rank;

		if (strlen(fx->name) != nlen || memcmp(fx->name, name, nlen) != 0 ||
		    !visible(fx, f, cls))
			continue;
		rank = fx->cls ? 10000 : fx->file ? 9000 : (int)strlen(fx->dir);
		if (rank >= best_rank) {
			best = fx;
			best_rank = rank;
		}
	}
	return best;
}

typedef UT_VEC(const fixture *) fxlist;

static bool listed(const fxlist *l, const fixture *fx)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == fx)
			return true;
	return false;
}

/* Adds fx after the fixtures it requests (its parameters), as pytest sets them up. */
static int require(const pyctx *p, fxlist *out, const fixture *fx, const ut_file *f,
		   const ut_cls *cls, int depth)
{
	size_t i;

	if (!fx || listed(out, fx) || depth > 32)
		return 0;
	for (i = 0; i < fx->fn->nparams; i++) {
		const ut_syn *pn = fx->fn->params[i];
		const fixture *dep = resolve(p, fx->fn->file->src.ptr + pn->start,
					     pn->end - pn->start, f, cls);

		if (dep != fx && require(p, out, dep, f, cls, depth + 1) < 0)
			return UT_ENOMEM;
	}
	return listed(out, fx) || ut_vec_push(out, fx) == 0 ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

/* String arguments of @pytest.mark.usefixtures("a", "b") on a function or class. */
static int usefixtures(const pyctx *p, const ut_file *f, const ut_syn *node, fxlist *out,
		       const ut_cls *cls)
{
	const ut_syn *decos[16];
	size_t n = decorators_of(node, decos, 16), i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		const ut_syn *s;

		if (!strstr(ut_compact_text(p->d->ix, f, decos[i]), "usefixtures("))
			continue;
		for (s = ut_syn_find(decos[i], UT_R_STR, 0); s && rc == 0; s = ut_syn_next(s)) {
			ut_env env;
			ut_val v;

			if (!ut_syn_is(s, UT_R_STR) && !ut_syn_is(s, UT_R_ARG))
				continue;
			ut_env_init(&env, NULL, f, NULL);
			v = ut_eval(p->d->ix, &env, f, ut_arg_expr(s));
			ut_env_dispose(&env);
			if (v.kind == UT_V_STR)
				rc = require(p, out, resolve(p, v.s, v.n, f, cls), f, cls, 0);
		}
	}
	return rc;
}

static bool is_testcase(const ut_index *ix, const ut_cls *k)
{
	int guard = 0;

	for (; k && guard < 16; guard++) {
		if (k->super && (strcmp(k->super, "TestCase") == 0 ||
				 strcmp(k->super, "IsolatedAsyncioTestCase") == 0))
			return true;
		k = k->super ? ut_index_class(ix, k->super, strlen(k->super)) : NULL;
	}
	return false;
}

static ut_fn *method(const pyctx *p, const ut_cls *k, const char *name)
{
	int guard = 0;

	for (; k && guard < 16; guard++) {
		const ut_syn *c;

		for (c = ut_syn_first(k->node); c; c = ut_syn_next(c)) {
			ut_fn *fn;

			if (ut_syn_is(c, UT_R_FUNC) && (fn = ut_index_fn_of(p->d->ix, k->file, c)) &&
			    fn->name && strcmp(fn->name, name) == 0)
				return fn;
		}
		k = k->super ? ut_index_class(p->d->ix, k->super, strlen(k->super)) : NULL;
	}
	return NULL;
}

static ut_fn *module_fn(const pyctx *p, const ut_file *f, const char *name)
{
	const ut_syn *c;

	for (c = ut_syn_first(f->tree->root); c; c = ut_syn_next(c)) {
		ut_fn *fn;

		if (ut_syn_is(c, UT_R_FUNC) && (fn = ut_index_fn_of(p->d->ix, f, c)) && fn->name &&
		    strcmp(fn->name, name) == 0)
			return fn;
	}
	return NULL;
}

static int walk_opt(ut_walker *w, ut_fn *fn)
{
	if (!fn)
		return 0;
	fn->is_test = true;
	return ut_walk_fn(w, fn, NULL);
}

static int emit_test(pyctx *p, const ut_file *f, const ut_cls *cls, ut_fn *fn,
		     const char *id_prefix, bool unittest)
{
	fxlist fx = {0};
	ut_arena_mark mark = ut_arena_save(p->d->ix->temp);
	ut_walker w;
	size_t i;
	int rc = 0;
	const char *id;

	ut_walker_init(&w, p->d->ix, f->rel);
	/* autouse fixtures first, then those asked for by marks and parameters */
	for (i = 0; i < p->fixtures.n && rc == 0; i++)
		if (p->fixtures.v[i].autouse && visible(&p->fixtures.v[i], f, cls))
			rc = require(p, &fx, resolve(p, p->fixtures.v[i].name,
						     strlen(p->fixtures.v[i].name), f, cls), f, cls, 0);
	if (rc == 0 && cls)
		rc = usefixtures(p, f, cls->node, &fx, cls);
	if (rc == 0)
		rc = usefixtures(p, f, fn->node, &fx, cls);
	for (i = 0; i < fn->nparams && rc == 0; i++) {
		const ut_syn *pn = fn->params[i];

		rc = require(p, &fx, resolve(p, f->src.ptr + pn->start, pn->end - pn->start, f, cls),
			     f, cls, 0);
	}
	w.setup = true;
	if (rc == 0)
		rc = walk_opt(&w, module_fn(p, f, "setup_module"));
	if (rc == 0 && cls) {
		rc = walk_opt(&w, method(p, cls, unittest ? "setUpClass" : "setup_class"));
		if (rc == 0)
			rc = walk_opt(&w, method(p, cls, unittest ? "setUp" : "setup_method"));
	} else if (rc == 0) {
		rc = walk_opt(&w, module_fn(p, f, "setup_function"));
	}
	for (i = 0; i < fx.n && rc == 0; i++)
		rc = ut_walk_fn(&w, fx.v[i]->fn, NULL);
	w.setup = false;
	if (rc == 0)
		rc = ut_walk_fn(&w, fn, NULL);
	w.setup = true;
	if (rc == 0 && cls) {
		rc = walk_opt(&w, method(p, cls, unittest ? "tearDown" : "teardown_method"));
		if (rc == 0)
			rc = walk_opt(&w, method(p, cls, unittest ? "tearDownClass" : "teardown_class"));
	} else if (rc == 0) {
		rc = walk_opt(&w, module_fn(p, f, "teardown_function"));
	}
	if (rc == 0)
		rc = walk_opt(&w, module_fn(p, f, "teardown_module"));
	id = ut_arena_printf(p->d->ix->temp, "%s::%s", id_prefix, fn->name);
	if (rc == 0)
		rc = ut_suite_append(p->d, f, id, fn->name, fn->node,
				     p->d->framework ? p->d->framework : unittest ? "unittest" : "pytest",
				     &w);
	ut_walker_dispose(&w);
	ut_vec_free(&fx);
	ut_arena_restore(p->d->ix->temp, mark); /* the test is in the model now */
	return rc;
}

static int cmp_fn_name(const void *a, const void *b)
{
	const ut_fn *x = *(ut_fn *const *)a, *y = *(ut_fn *const *)b;

	return strcmp(x->name, y->name);
}

static int discover_class(pyctx *p, const ut_file *f, const ut_cls *k, const char *prefix,
			  int depth)
{
	bool unittest = is_testcase(p->d->ix, k);
	const char *id_prefix = ut_arena_printf(p->d->ix->temp, "%s::%s", prefix, k->name);
	UT_VEC(ut_fn *) tests = {0};
	const ut_syn *c;
	size_t i;
	int rc = 0;

	if (depth > 16)
		return 0;
	if (!unittest && (strncmp(k->name, "Test", 4) != 0 || method(p, k, "__init__")))
		return 0;
	for (c = ut_syn_first(k->node); c && rc == 0; c = ut_syn_next(c)) {
		ut_fn *fn;

		if (ut_syn_is(c, UT_R_FUNC) && (fn = ut_index_fn_of(p->d->ix, f, c)) && fn->name &&
		    strncmp(fn->name, "test", 4) == 0 && !is_fixture(p->d->ix, f, c, NULL)) {
			fn->is_test = true;
			rc = ut_vec_push(&tests, fn);
		}
	}
	/* unittest's loader sorts test methods by name */
	if (unittest && tests.n)
		qsort(tests.v, tests.n, sizeof(ut_fn *), cmp_fn_name);
	for (i = 0; i < tests.n && rc == 0; i++)
		rc = emit_test(p, f, k, tests.v[i], id_prefix, unittest);
	for (c = ut_syn_first(k->node); c && rc == 0 && !unittest; c = ut_syn_next(c)) {
		ut_cls *inner;

		if (ut_syn_is(c, UT_R_CLASS) && (inner = ut_index_class_of(p->d->ix, f, c)))
			rc = discover_class(p, f, inner, id_prefix, depth + 1);
	}
	ut_vec_free(&tests);
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : rc;
}

static int discover_file(pyctx *p, const ut_file *f)
{
	const ut_syn *c;
	int rc = 0;

	for (c = ut_syn_first(f->tree->root); c && rc == 0; c = ut_syn_next(c)) {
		if (ut_syn_is(c, UT_R_FUNC)) {
			ut_fn *fn = ut_index_fn_of(p->d->ix, f, c);

			if (fn && fn->name && strncmp(fn->name, "test", 4) == 0 &&
			    !is_fixture(p->d->ix, f, c, NULL)) {
				fn->is_test = true;
				rc = emit_test(p, f, NULL, fn, f->rel, false);
			}
		} else if (ut_syn_is(c, UT_R_CLASS)) {
			ut_cls *k = ut_index_class_of(p->d->ix, f, c);

			if (k)
				rc = discover_class(p, f, k, f->rel, 0);
		}
	}
	return rc;
}

static void mark_tests(pyctx *p, const ut_file *f)
{
	const ut_syn *c, *m;

	/* test functions must never be inlined as helpers, whatever the order */
	for (c = ut_syn_first(f->tree->root); c; c = ut_syn_next(c)) {
		ut_fn *fn;

		if (ut_syn_is(c, UT_R_FUNC) && (fn = ut_index_fn_of(p->d->ix, f, c)) && fn->name &&
		    strncmp(fn->name, "test", 4) == 0)
			fn->is_test = true;
		if (!ut_syn_is(c, UT_R_CLASS))
			continue;
		for (m = ut_syn_first(c); m; m = ut_syn_next(m))
			if (ut_syn_is(m, UT_R_FUNC) && (fn = ut_index_fn_of(p->d->ix, f, m)) &&
			    fn->name && strncmp(fn->name, "test", 4) == 0)
				fn->is_test = true;
	}
}

int ut_python_discover(ut_discover *d)
{
	pyctx p;
	size_t i;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.d = d;
	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const ut_file *f = d->ix->files.v[i];
		const ut_syn *c;

		if (f->lang != UT_LANG_PYTHON)
			continue;
		rc = add_fixtures(&p, f, f->tree->root, NULL,
				  strcmp(ut_path_basename(f->rel), "conftest.py") == 0);
		for (c = ut_syn_first(f->tree->root); c && rc == 0; c = ut_syn_next(c)) {
			ut_cls *k = ut_syn_is(c, UT_R_CLASS) ? ut_index_class_of(d->ix, f, c) : NULL;

			if (k)
				rc = add_fixtures(&p, f, c, k, false);
		}
		if (f->test_file)
			mark_tests(&p, f);
	}
	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const ut_file *f = d->ix->files.v[i];

		if (f->lang == UT_LANG_PYTHON && f->test_file)
			rc = discover_file(&p, f);
	}
	ut_vec_free(&p.fixtures);
	return rc;
}
