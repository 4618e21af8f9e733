/* python_fixtures.c: pytest fixtures: where they are defined and seen (conftest.py, the
 * module, the class), which a test sets up and in which order (autouse, usefixtures,
 * parameters, fixtures of fixtures), the values they give, and the parametrized ones in
 * the order of a test's fixture closure; the files a conftest.py takes out of collection
 * (collect_ignore, collect_ignore_glob). */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "parse/python.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

static bool deco_has(const up_index *ix, const up_file *f, const ut_syn *fn_node,
		     const char *prefix, const char **text_out)
{
	const ut_syn *decos[16];
	size_t n = up_py_decorators(fn_node, decos, 16), i;

	for (i = 0; i < n; i++) {
		const char *t = up_compact_text(ix, f, decos[i]);

		if (strncmp(t, prefix, strlen(prefix)) == 0) {
			if (text_out)
				*text_out = t;
			return true;
		}
	}
	return false;
}

bool up_py_is_fixture(const up_index *ix, const up_file *f, const ut_syn *node, const char **t)
{
	return deco_has(ix, f, node, "@pytest.fixture", t) ||
	       deco_has(ix, f, node, "@fixture", t) ||
	       deco_has(ix, f, node, "@pytest_asyncio.fixture", t);
}

/* The call of a definition's @pytest.fixture(...) decorator, or NULL. */
static const ut_syn *fixture_call(const up_file *f, const ut_syn *def)
{
	const ut_syn *decos[16];
	size_t n = up_py_decorators(def, decos, 16), i;

	for (i = 0; i < n; i++) {
		const ut_syn *call = up_syn_find(decos[i], UT_R_CALL, 0);
		const ut_syn *nm = call ? up_call_name(call) : NULL;

		if (nm && up_text_is(f, nm, "fixture"))
			return call;
	}
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

const char *up_py_dir_of(ut_arena *a, const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? ut_arena_strndup(a, rel, (size_t)(slash - rel)) : "";
}

int up_py_add_fixtures(ut_py_ctx *p, const up_file *f, const ut_syn *n, const up_cls *cls,
		       bool conftest)
{
	const ut_syn *c;

	for (c = up_syn_first(n); c; c = up_syn_next(c)) {
		up_fn *fn;
		const char *t = NULL, *nm;
		ut_py_fixture fx;

		if (!up_syn_is(c, UT_R_FUNC) || !(fn = up_index_fn_of(p->d->ix, f, c)) || !fn->name)
			continue;
		if (!up_py_is_fixture(p->d->ix, f, c, &t))
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
		if (strstr(t, "params=")) {
			fx.param.name = fx.name;
			fx.param.file = f;
			fx.param.call = fixture_call(f, c);
			fx.param.scope = scope_of(t);
		}
		if (conftest)
			fx.dir = up_py_dir_of(p->d->ix->arena, f->rel);
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
bool up_py_visible(const ut_py_fixture *fx, const up_file *f, const up_cls *cls)
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
const ut_py_fixture *up_py_resolve(const ut_py_ctx *p, const char *name, size_t nlen,
				   const up_file *f, const up_cls *cls)
{
	const ut_py_fixture *best = NULL;
	int best_rank = -1;
	size_t i;

	for (i = 0; i < p->fixtures.n; i++) {
		const ut_py_fixture *fx = &p->fixtures.v[i];
		int rank;

		if (strlen(fx->name) != nlen || memcmp(fx->name, name, nlen) != 0 ||
		    !up_py_visible(fx, f, cls))
			continue;
		rank = fx->cls ? 10000 : fx->file ? 9000 : (int)strlen(fx->dir);
		if (rank >= best_rank) {
			best = fx;
			best_rank = rank;
		}
	}
	return best;
}

static bool listed(const ut_py_fxlist *l, const ut_py_fixture *fx)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == fx)
			return true;
	return false;
}

/* Adds fx after the fixtures it requests (its parameters), as pytest sets them up. */
int up_py_require(const ut_py_ctx *p, ut_py_fxlist *out, const ut_py_fixture *fx, const up_file *f,
		  const up_cls *cls, int depth)
{
	size_t i;

	if (!fx || listed(out, fx) || depth > 32)
		return 0;
	for (i = 0; i < fx->fn->nparams; i++) {
		const ut_syn *pn = fx->fn->params[i];
		const ut_py_fixture *dep = up_py_resolve(p, fx->fn->file->src.ptr + pn->start,
							 pn->end - pn->start, f, cls);

		if (dep != fx && up_py_require(p, out, dep, f, cls, depth + 1) < 0)
			return UT_ENOMEM;
	}
	return listed(out, fx) || ut_vec_push(out, fx) == 0
		   ? 0
		   : ut_error_set(UT_ENOMEM, "out of memory");
}

/* String arguments of @pytest.mark.usefixtures("a", "b") on a function or class. */
int up_py_usefixtures(const ut_py_ctx *p, const up_file *f, const ut_syn *node, ut_py_fxlist *out,
		      const up_cls *cls)
{
	const ut_syn *decos[16];
	size_t n = up_py_decorators(node, decos, 16), i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		const ut_syn *s;

		if (!strstr(up_compact_text(p->d->ix, f, decos[i]), "usefixtures("))
			continue;
		for (s = up_syn_find(decos[i], UT_R_STR, 0); s && rc == 0; s = up_syn_next(s)) {
			up_env env;
			up_val v;

			if (!up_syn_is(s, UT_R_STR) && !up_syn_is(s, UT_R_ARG))
				continue;
			up_env_init(&env, NULL, f, NULL);
			v = up_eval(p->d->ix, &env, f, up_arg_expr(s));
			up_env_dispose(&env);
			if (v.kind == UP_V_STR)
				rc = up_py_require(p, out, up_py_resolve(p, v.s, v.n, f, cls), f,
						   cls, 0);
		}
	}
	return rc;
}

/* Does the case bind `name`, from index `from` of its bindings on? */
bool up_py_case_binds(const ut_py_case *c, const ut_py_cases *cs, const char *name, size_t n,
		      size_t from)
{
	size_t i;

	for (i = from; c && i < c->n; i++) {
		const up_binding *b = &cs->bindings.v[c->first + i];

		if (b->nlen == n && memcmp(b->name, name, n) == 0)
			return true;
	}
	return false;
}

/* What a fixture gives its requesters: the value of its first return or yield, with its
 * own fixtures' values bound. NONE when it gives nothing that reads as a value. */
static up_val fixture_value(const ut_py_ctx *p, const ut_py_fixture *fx, const up_file *f,
			    const up_cls *cls, const ut_py_case *c, const ut_py_cases *cs,
			    int depth)
{
	/* the returned (or yielded) expression itself: resolve.c's UT_R_RET */
	const ut_syn *e = fx->fn->body ? up_syn_find(fx->fn->body, UT_R_RET,
						     UT_ROLE(UT_R_FUNC) | UT_ROLE(UT_R_CLASS))
				       : NULL;
	up_val v = {0};
	up_env env;

	if (!e || depth > 8)
		return v;
	up_env_init(&env, NULL, fx->fn->file, fx->fn->cls);
	if (up_py_bind_fixtures(p, &env, fx->fn, f, cls, c, cs, depth + 1) == 0)
		v = up_eval(p->d->ix, &env, fx->fn->file, e);
	up_env_dispose(&env);
	return v;
}

/* Binds fn's parameters to the values they get: the case's own, else the value of the
 * fixture of that name (a fixture that overrides one of the same name asks for the
 * overridden one, which is not ours). */
int up_py_bind_fixtures(const ut_py_ctx *p, up_env *env, const up_fn *fn, const up_file *f,
			const up_cls *cls, const ut_py_case *c, const ut_py_cases *cs, int depth)
{
	size_t i;
	int rc = 0;

	for (i = 0; c && i < c->n && rc == 0; i++)
		rc = up_env_bind(env, cs->bindings.v[c->first + i].name,
				 cs->bindings.v[c->first + i].nlen,
				 cs->bindings.v[c->first + i].val);
	for (i = 0; i < fn->nparams && rc == 0; i++) {
		const ut_syn *pn = fn->params[i];
		const char *name = fn->file->src.ptr + pn->start;
		size_t n = pn->end - pn->start;
		const ut_py_fixture *fx;
		up_val v;

		if (up_py_case_binds(c, cs, name, n, 0))
			continue;
		fx = up_py_resolve(p, name, n, f, cls);
		if (!fx || fx->fn == fn)
			continue;
		v = fixture_value(p, fx, f, cls, c, cs, depth);
		/* bound with the type resolve.c gives the fixture's name, so that what the
		 * fixture yields (a driver, a page object) still dispatches calls */
		if (v.kind != UP_V_NONE)
			rc = up_env_bind_typed(env, name, n, v,
					       up_type_of(p->d->ix, env, fn->file, pn));
	}
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
size_t up_py_fixture_params(const ut_py_ctx *p, const up_file *f, const up_cls *cls,
			    const up_fn *fn, ut_py_fxparam *out)
{
	const ut_py_fixture *defs[MAX_CLOSURE];
	fxname names[MAX_CLOSURE];
	size_t n = 0, i, j, k, nout = 0;
	int scope;

	for (i = 0; i < p->fixtures.n; i++)
		if (p->fixtures.v[i].autouse && up_py_visible(&p->fixtures.v[i], f, cls))
			add_name(names, &n, p->fixtures.v[i].name, strlen(p->fixtures.v[i].name));
	for (i = 0; i < fn->nparams; i++)
		add_name(names, &n, fn->file->src.ptr + fn->params[i]->start,
			 fn->params[i]->end - fn->params[i]->start);
	for (i = 0; i < n; i++) {
		defs[i] = up_py_resolve(p, names[i].name, names[i].n, f, cls);
		for (j = 0; defs[i] && j < defs[i]->fn->nparams; j++) {
			const ut_syn *pn = defs[i]->fn->params[j];

			add_name(names, &n, defs[i]->fn->file->src.ptr + pn->start,
				 pn->end - pn->start);
		}
	}
	for (scope = UT_PY_SESSION; scope >= UT_PY_FUNCTION; scope--)
		for (k = 0; k < n; k++) {
			const ut_py_fixture *d = defs[k];
			int s = d && d->param.call ? d->param.scope : UT_PY_FUNCTION;

			if (d && d->param.call && s == scope && nout < UT_PY_MAX_MARKS)
				out[nout++] = d->param;
		}
	return nout;
}

/* Does the entry (relative to the conftest's folder dir) name rel or a folder above it? */
static bool names_path(const char *dir, const char *entry, size_t n, const char *rel, bool glob)
{
	char full[1024];
	int len;

	while (n >= 2 && entry[0] == '.' && entry[1] == '/') {
		entry += 2;
		n -= 2;
	}
	while (n && entry[n - 1] == '/')
		n--;
	len = snprintf(full, sizeof(full), "%s%s%.*s", dir, *dir ? "/" : "", (int)n, entry);
	if (len < 0 || (size_t)len >= sizeof(full))
		return false;
	if (glob) /* fnmatch.fnmatch(path, conftest_dir / pattern) */
		return fnmatch(full, rel, FNM_NOESCAPE) == 0;
	return strncmp(rel, full, (size_t)len) == 0 && (rel[len] == '\0' || rel[len] == '/');
}

bool up_py_ignored(const ut_py_ctx *p, const up_file *f)
{
	size_t i;

	for (i = 0; i < p->d->ix->files.n; i++) {
		const up_file *c = p->d->ix->files.v[i];
		const char *dir;
		const ut_syn *a;
		size_t dn;

		if (c->lang != UT_LANG_PYTHON || strcmp(ut_path_basename(c->rel), "conftest.py"))
			continue;
		dn = (size_t)(ut_path_basename(c->rel) - c->rel);
		if (dn && strncmp(f->rel, c->rel, dn) != 0)
			continue; /* a conftest.py of another folder */
		dir = up_py_dir_of(p->d->ix->temp, c->rel);
		for (a = up_syn_first(c->tree->root); a && dir; a = up_syn_next(a)) {
			const ut_syn *t, *v, *e;
			bool glob;
			up_env env;

			if (!up_syn_is(a, UT_R_ASSIGN) ||
			    !(t = up_syn_child(a, UT_R_ASSIGN_TARGET)) ||
			    !(v = up_syn_child(a, UT_R_ASSIGN_VALUE)) || !up_syn_is(v, UT_R_SEQ))
				continue;
			glob = up_text_is(c, t, "collect_ignore_glob");
			if (!glob && !up_text_is(c, t, "collect_ignore"))
				continue;
			up_env_init(&env, NULL, c, NULL);
			for (e = up_syn_first(v); e; e = up_syn_next(e)) {
				up_val s = up_eval(p->d->ix, &env, c, e);

				if (s.kind == UP_V_STR && names_path(dir, s.s, s.n, f->rel, glob)) {
					up_env_dispose(&env);
					return true;
				}
			}
			up_env_dispose(&env);
		}
	}
	return false;
}
