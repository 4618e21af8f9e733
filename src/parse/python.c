/* python.c: pytest and unittest conventions: test functions and classes, fixtures from
 * conftest.py, the module and the class (with autouse and usefixtures), xunit-style
 * setup methods, and pytest node ids. */
#include <stdlib.h>
#include <string.h>

#include "parse/python.h"
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
	ut_py_fxparam param; /* call set when it has params=[...] */
} fixture;

typedef struct {
	ut_discover *d;
	UT_VEC(fixture) fixtures;
	size_t first;			/* the first Python test in the suite */
	UT_VEC(ut_py_key) keys;		/* parametrized fixtures wider than a function, per test */
	ut_map key_ids;			/* their ids */
	UT_VEC(const char *) key_texts; /* and back */
	size_t nids;
} pyctx;

static const char *key_text(const pyctx *p, size_t id)
{
	return p->key_texts.v[id];
}

static bool deco_has(const ut_index *ix, const ut_file *f, const ut_syn *fn_node,
		     const char *prefix, const char **text_out)
{
	const ut_syn *decos[16];
	size_t n = ut_py_decorators(fn_node, decos, 16), i;

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

/* The call of a definition's @pytest.fixture(...) decorator, or NULL. */
static const ut_syn *fixture_call(const ut_index *ix, const ut_file *f, const ut_syn *def)
{
	const ut_syn *decos[16];
	size_t n = ut_py_decorators(def, decos, 16), i;

	for (i = 0; i < n; i++) {
		const ut_syn *call = ut_syn_find(decos[i], UT_R_CALL, 0);
		const ut_syn *nm = call ? ut_call_name(call) : NULL;

		if (nm && ut_text_is(f, nm, "fixture"))
			return call;
	}
	(void)ix;
	return NULL;
}

/* scope="module" in a decorator's compact text */
static int scope_of(const char *t)
{
	static const char *const names[] = {"class", "module", "package", "session"};
	const char *s = strstr(t, "scope=");
	size_t i;

	for (i = 0; s && i < 4; i++)
		if (strncmp(s + 7, names[i], strlen(names[i])) == 0 &&
		    (s[7 + strlen(names[i])] == '"' || s[7 + strlen(names[i])] == '\''))
			return (int)i + UT_PY_CLASS;
	return UT_PY_FUNCTION;
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
		memset(&fx, 0, sizeof(fx));
		fx.fn = fn;
		fx.name = fn->name;
		nm = strstr(t, "name=");
		if (nm && (nm[5] == '"' || nm[5] == '\'')) {
			size_t len = strcspn(nm + 6, "\"'");

			fx.name = ut_arena_strndup(p->d->ix->arena, nm + 6, len);
		}
		fx.autouse = strstr(t, "autouse=True") != NULL;
		if (strstr(t, "params=")) {
			fx.param.name = fx.name;
			fx.param.file = f;
			fx.param.call = fixture_call(p->d->ix, f, c);
			fx.param.scope = scope_of(t);
		}
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
	size_t n = ut_py_decorators(node, decos, 16), i;
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

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Does the case bind `name`, from index `from` of its bindings on? */
static bool case_binds(const ut_py_case *c, const ut_py_cases *cs, const char *name, size_t n,
		       size_t from)
{
	size_t i;

	for (i = from; c && i < c->n; i++) {
		const ut_binding *b = &cs->bindings.v[c->first + i];

		if (b->nlen == n && memcmp(b->name, name, n) == 0)
			return true;
	}
	return false;
}

static int bind_fixtures(const pyctx *p, ut_env *env, const ut_fn *fn, const ut_file *f,
			 const ut_cls *cls, const ut_py_case *c, const ut_py_cases *cs, int depth);

/* What a fixture gives its requesters: the value of its first return or yield, with its
 * own fixtures' values bound. NONE when it gives nothing that reads as a value. */
static ut_val fixture_value(const pyctx *p, const fixture *fx, const ut_file *f, const ut_cls *cls,
			    const ut_py_case *c, const ut_py_cases *cs, int depth)
{
	const ut_syn *ret = fx->fn->body ? ut_syn_find(fx->fn->body, UT_R_RETURN,
						       UT_ROLE(UT_R_FUNC) | UT_ROLE(UT_R_CLASS))
					 : NULL;
	const ut_syn *e = ret ? ut_syn_first(ret) : NULL;
	ut_val v = {0};
	ut_env env;

	/* the whole returned expression, not the first name of `return a[0]` */
	if (!e || e->end != ret->end || depth > 8)
		return v;
	ut_env_init(&env, NULL, fx->fn->file, fx->fn->cls);
	if (bind_fixtures(p, &env, fx->fn, f, cls, c, cs, depth + 1) == 0)
		v = ut_eval(p->d->ix, &env, fx->fn->file, e);
	ut_env_dispose(&env);
	return v;
}

/* Binds fn's parameters to the values they get: the case's own, else the value of the
 * fixture of that name (a fixture that overrides one of the same name asks for the
 * overridden one, which is not ours). */
static int bind_fixtures(const pyctx *p, ut_env *env, const ut_fn *fn, const ut_file *f,
			 const ut_cls *cls, const ut_py_case *c, const ut_py_cases *cs, int depth)
{
	size_t i;
	int rc = 0;

	for (i = 0; c && i < c->n && rc == 0; i++)
		rc = ut_env_bind(env, cs->bindings.v[c->first + i].name,
				 cs->bindings.v[c->first + i].nlen,
				 cs->bindings.v[c->first + i].val);
	for (i = 0; i < fn->nparams && rc == 0; i++) {
		const ut_syn *pn = fn->params[i];
		const char *name = fn->file->src.ptr + pn->start;
		size_t n = pn->end - pn->start;
		const fixture *fx;
		ut_val v;

		if (case_binds(c, cs, name, n, 0))
			continue;
		fx = resolve(p, name, n, f, cls);
		if (!fx || fx->fn == fn)
			continue;
		v = fixture_value(p, fx, f, cls, c, cs, depth);
		if (v.kind != UT_V_NONE)
			rc = ut_env_bind(env, name, n, v);
	}
	return rc;
}

/* The class `self` is in a method run for a test of class cls: cls itself when its chain
 * of bases (as values look them up) passes through the method's class, so that what cls
 * overrides is found (self.USER of the concrete class); else the method's own class. */
static const ut_cls *self_class(const pyctx *p, const ut_fn *fn, const ut_cls *cls)
{
	const ut_cls *k = cls;
	int guard = 0;

	for (; k && fn->cls && guard < 16; guard++) {
		if (k == fn->cls)
			return cls;
		k = k->super ? ut_index_class(p->d->ix, k->super, strlen(k->super)) : NULL;
	}
	return fn->cls;
}

/* Walks a test, fixture or setup function with its fixtures' values bound. */
static int walk_bound(pyctx *p, ut_walker *w, ut_fn *fn, const ut_file *f, const ut_cls *cls,
		      const ut_py_case *c, const ut_py_cases *cs)
{
	ut_env env;
	int rc;

	if (!fn)
		return 0;
	fn->is_test = true;
	ut_env_init(&env, NULL, fn->file, self_class(p, fn, cls));
	rc = bind_fixtures(p, &env, fn, f, cls, c, cs, 0);
	if (rc == 0)
		rc = ut_walk_body(w, &env, fn->file, fn->body);
	ut_env_dispose(&env);
	return rc;
}

typedef struct {
	const ut_file *f;	  /* the module that collects the test */
	const ut_cls *const *mro; /* the collecting class's order, cls first; none for functions */
	size_t nmro;
	const char *prefix; /* node id up to the test's name */
	bool unittest;
} where;

static ut_fn *mro_method(const pyctx *p, const where *at, const char *name)
{
	return ut_py_method(p->d->ix, at->mro, at->nmro, name);
}

/* What a wider fixture's parameter is set up for, besides its name and index. */
static const char *key_place(const pyctx *p, const where *at, int scope)
{
	if (scope == UT_PY_SESSION)
		return "";
	if (scope == UT_PY_PACKAGE)
		return dir_of(p->d->ix->temp, at->f->rel);
	if (scope == UT_PY_MODULE || !at->nmro)
		return at->f->rel;
	return at->prefix; /* the class */
}

/* The keys pytest reorders by, for the case's parameters of fixtures wider than a
 * function (get_parametrized_fixture_keys), a scope's sorted by name. */
static int add_keys(pyctx *p, const where *at, const ut_py_case *c, const ut_py_cases *cs,
		    size_t item)
{
	size_t i, j, start = p->keys.n;

	for (i = 0; i < cs->nfx && i < c->n; i++) {
		const ut_binding *b = &cs->bindings.v[c->first + i];
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

static int emit_case(pyctx *p, const where *at, ut_fn *fn, const ut_py_case *c,
		     const ut_py_cases *cs)
{
	const ut_file *f = at->f;
	const ut_cls *cls = at->nmro ? at->mro[0] : NULL;
	bool unittest = at->unittest;
	fxlist fx = {0};
	ut_arena_mark mark = ut_arena_save(p->d->ix->temp);
	ut_walker w;
	size_t i;
	int rc = 0;
	const char *id, *framework;
	size_t ntests;

	ut_walker_init(&w, p->d->ix, fn->file->rel);
	/* autouse fixtures first, then those asked for by marks and parameters */
	for (i = 0; i < p->fixtures.n && rc == 0; i++)
		if (p->fixtures.v[i].autouse && visible(&p->fixtures.v[i], f, cls))
			rc = require(p, &fx, resolve(p, p->fixtures.v[i].name,
						     strlen(p->fixtures.v[i].name), f, cls), f, cls, 0);
	if (rc == 0 && cls)
		rc = usefixtures(p, f, cls->node, &fx, cls);
	if (rc == 0)
		rc = usefixtures(p, fn->file, fn->node, &fx, cls);
	for (i = 0; i < fn->nparams && rc == 0; i++) {
		const ut_syn *pn = fn->params[i];
		const char *name = fn->file->src.ptr + pn->start;

		/* a parameter of the case overrides the fixture of that name */
		if (!case_binds(c, cs, name, pn->end - pn->start, cs ? cs->nfx : 0))
			rc = require(p, &fx, resolve(p, name, pn->end - pn->start, f, cls), f, cls,
				     0);
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
		rc = ut_suite_append(p->d, fn->file, id, fn->name, fn->node,
				     p->d->framework ? p->d->framework : framework, &w);
	if (rc == 0 && p->d->suite->tests.n > ntests && cs && cs->nfx)
		rc = add_keys(p, at, c, cs, ntests - p->first);
	ut_walker_dispose(&w);
	ut_vec_free(&fx);
	ut_arena_restore(p->d->ix->temp, mark); /* the test is in the model now */
	return rc;
}

#define MAX_CLOSURE 64

typedef struct {
	const char *name;
	size_t n;
} fxname;

static void add_name(fxname *names, size_t *n, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (names[i].n == len && memcmp(names[i].name, s, len) == 0)
			return;
	if (*n < MAX_CLOSURE) {
		names[*n].name = s;
		names[(*n)++].n = len;
	}
}

/* The parametrized fixtures of the test's fixture closure, in pytest's order: autouse
 * fixtures, then its arguments, then what those request in turn, stably sorted by scope,
 * widest first (FixtureManager.getfixtureclosure). */
static size_t fixture_params(const pyctx *p, const where *at, const ut_fn *fn, ut_py_fxparam *out)
{
	const ut_cls *cls = at->nmro ? at->mro[0] : NULL;
	const fixture *defs[MAX_CLOSURE];
	fxname names[MAX_CLOSURE];
	size_t n = 0, i, j, k, nout = 0;
	int scope;

	for (i = 0; i < p->fixtures.n; i++)
		if (p->fixtures.v[i].autouse && visible(&p->fixtures.v[i], at->f, cls))
			add_name(names, &n, p->fixtures.v[i].name, strlen(p->fixtures.v[i].name));
	for (i = 0; i < fn->nparams; i++)
		add_name(names, &n, fn->file->src.ptr + fn->params[i]->start,
			 fn->params[i]->end - fn->params[i]->start);
	for (i = 0; i < n; i++) {
		defs[i] = resolve(p, names[i].name, names[i].n, at->f, cls);
		for (j = 0; defs[i] && j < defs[i]->fn->nparams; j++) {
			const ut_syn *pn = defs[i]->fn->params[j];

			add_name(names, &n, defs[i]->fn->file->src.ptr + pn->start,
				 pn->end - pn->start);
		}
	}
	for (scope = UT_PY_SESSION; scope >= UT_PY_FUNCTION; scope--)
		for (k = 0; k < n; k++) {
			const fixture *d = defs[k];
			int s = d && d->param.call ? d->param.scope : UT_PY_FUNCTION;

			if (d && d->param.call && s == scope && nout < UT_PY_MAX_MARKS)
				out[nout++] = d->param;
		}
	return nout;
}

/* One test function or method: a test for each of its parametrized cases. */
static int emit_test(pyctx *p, const where *at, ut_fn *fn)
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
		nfxp = fixture_params(p, at, fn, fxp);
		rc =
		    ut_py_cases_build(&cs, p->d->ix, p->d->diags, fn, at->mro, at->nmro, fxp, nfxp);
		for (i = 0; i < cs.cases.n && rc == 0; i++)
			rc = emit_case(p, at, fn, &cs.cases.v[i], &cs);
		ut_py_cases_dispose(&cs);
	}
	ut_arena_restore(p->d->ix->temp, mark);
	return rc;
}

static int cmp_fn_name(const void *a, const void *b)
{
	const ut_fn *x = *(ut_fn *const *)a, *y = *(ut_fn *const *)b;

	return strcmp(x->name, y->name);
}

/* What a class body defines, in order: methods, nested classes, and other names. */
typedef struct {
	const char *name;
	ut_fn *fn;	   /* a method */
	const ut_cls *cls; /* a nested class */
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
static int class_members(const pyctx *p, const ut_cls *const *mro, size_t n, members *out)
{
	size_t i;
	const ut_syn *c;

	for (i = 0; i < n; i++) {
		const ut_cls *k = mro[i];

		for (c = ut_syn_first(k->node); c; c = ut_syn_next(c)) {
			member m;
			const ut_syn *t;

			memset(&m, 0, sizeof(m));
			m.level = i;
			if (ut_syn_is(c, UT_R_FUNC) &&
			    (m.fn = ut_index_fn_of(p->d->ix, k->file, c)) && m.fn->name) {
				m.name = m.fn->name;
			} else if (ut_syn_is(c, UT_R_CLASS) &&
				   (m.cls = ut_index_class_of(p->d->ix, k->file, c))) {
				m.name = m.cls->name;
			} else if (ut_syn_is(c, UT_R_ASSIGN) &&
				   (t = ut_syn_child(c, UT_R_ASSIGN_TARGET)) &&
				   ut_syn_is(t, UT_R_IDENT)) {
				m.name = ut_compact_text(p->d->ix, k->file, t);
			}
			if (m.name && !seen(out, m.name) && ut_vec_push(out, m) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* `__test__ = False`, as attribute lookup along the order finds it */
static bool not_a_test(const ut_cls *const *mro, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		ut_const_def *def = ut_map_get(&mro[i]->constants, "__test__", 8);

		if (def && def != &ut_ambiguous && def->value)
			return ut_text_is(def->file, def->value, "False");
	}
	return false;
}

static int collect_class(pyctx *p, const ut_file *f, const ut_cls *k, const char *name, size_t nlen,
			 const char *prefix, int depth);

/* pytest's Class.collect: each class's own names in definition order, base classes
 * first (reverse method resolution order); unittest's loader: every test* name, sorted. */
static int collect_members(pyctx *p, const where *at, int depth)
{
	members m = {0};
	UT_VEC(ut_fn *) sorted = {0};
	size_t i, level;
	int rc = class_members(p, at->mro, at->nmro, &m);

	if (rc == 0 && at->unittest) {
		for (i = 0; i < m.n && rc == 0; i++)
			if (m.v[i].fn && has_prefix(m.v[i].name, "test"))
				rc = ut_vec_push(&sorted, m.v[i].fn) < 0
					 ? ut_error_set(UT_ENOMEM, "out of memory")
					 : 0;
		if (sorted.n)
			qsort(sorted.v, sorted.n, sizeof(ut_fn *), cmp_fn_name);
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
			if (e->fn && has_prefix(e->name, "test") &&
			    !is_fixture(p->d->ix, e->fn->file, e->fn->node, NULL))
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
static int collect_class(pyctx *p, const ut_file *f, const ut_cls *k, const char *name, size_t nlen,
			 const char *prefix, int depth)
{
	const ut_cls *mro[UT_PY_MAX_MRO];
	where at;
	int rc;

	if (depth > 16)
		return 0;
	memset(&at, 0, sizeof(at));
	at.f = f;
	at.mro = mro;
	at.nmro = ut_py_mro(p->d->ix, k, mro, UT_PY_MAX_MRO);
	at.unittest = ut_py_is_testcase(p->d->ix, mro, at.nmro);
	if (!at.unittest && (nlen < 4 || memcmp(name, "Test", 4) != 0))
		return 0;
	if (!at.unittest && ut_py_method(p->d->ix, mro, at.nmro, "__init__")) {
		ut_diags_add(p->d->diags, UT_DIAG_WARNING, k->file->rel,
			     ut_syn_line(k->file->tree, k->node),
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
static int discover_file(pyctx *p, const ut_file *f)
{
	const ut_syn *c;
	int rc = 0;
	where at;

	memset(&at, 0, sizeof(at));
	at.f = f;
	at.prefix = f->rel;
	for (c = ut_syn_first(f->tree->root); c && rc == 0; c = ut_syn_next(c)) {
		if (ut_syn_is(c, UT_R_FUNC)) {
			ut_fn *fn = ut_index_fn_of(p->d->ix, f, c);

			if (fn && fn->name && has_prefix(fn->name, "test") &&
			    !is_fixture(p->d->ix, f, c, NULL))
				rc = emit_test(p, &at, fn);
		} else if (ut_syn_is(c, UT_R_CLASS)) {
			ut_cls *k = ut_index_class_of(p->d->ix, f, c);

			if (k)
				rc = collect_class(p, f, k, k->name, strlen(k->name), f->rel, 0);
		} else if (ut_syn_is(c, UT_R_IMPORT)) {
			ut_py_import imps[UT_PY_MAX_IMPORTS];
			int n = ut_py_imports(p->d->ix, f, c, imps, UT_PY_MAX_IMPORTS), i;

			for (i = 0; i < n && rc == 0; i++)
				if (imps[i].cls)
					rc = collect_class(p, f, imps[i].cls, imps[i].name,
							   imps[i].nlen, f->rel, 0);
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
		    has_prefix(fn->name, "test"))
			fn->is_test = true;
		if (!ut_syn_is(c, UT_R_CLASS))
			continue;
		for (m = ut_syn_first(c); m; m = ut_syn_next(m))
			if (ut_syn_is(m, UT_R_FUNC) && (fn = ut_index_fn_of(p->d->ix, f, m)) &&
			    fn->name && has_prefix(fn->name, "test"))
				fn->is_test = true;
	}
}

/* Tests that share a wider fixture's parameter brought together, as pytest does. */
static int reorder(pyctx *p)
{
	ut_suite *s = p->d->suite;
	size_t n = s->tests.n - p->first, i, *order = malloc(n * sizeof(size_t));
	ut_test *copy = malloc(n * sizeof(ut_test));
	int rc = 0;

	if (!order || !copy) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	rc = ut_py_reorder(p->keys.v, p->keys.n, n, p->nids, order);
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

int ut_python_discover(ut_discover *d)
{
	pyctx p;
	size_t i;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.d = d;
	p.first = d->suite->tests.n;
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
	if (rc == 0 && p.keys.n)
		rc = reorder(&p);
	ut_vec_free(&p.fixtures);
	ut_vec_free(&p.keys);
	ut_vec_free(&p.key_texts);
	ut_map_dispose(&p.key_ids);
	return rc;
}
