/* js.c: mocha, jasmine and jest conventions for JavaScript and TypeScript: nested
 * describe/it blocks, their hooks, the order each framework runs them in, and ids made of
 * the file and the full title. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/banned.h"

typedef enum { HOOK_BEFORE_ALL, HOOK_BEFORE_EACH, HOOK_AFTER_EACH, HOOK_AFTER_ALL } hook_kind;

typedef struct jsuite jsuite;

typedef struct {
	const ut_syn *call;   /* the it(...) call */
	const ut_syn *body;   /* its function */
	const char *title;
	jsuite *suite;
	size_t pos;           /* declaration position among the suite's children */
} jtest;

typedef struct {
	hook_kind kind;
	const ut_syn *body;
} jhook;

struct jsuite {
	jsuite *parent;
	const char *title;    /* NULL for the file's root */
	ut_env env;           /* describe-level bindings */
	UT_VEC(jtest) tests;
	UT_VEC(jsuite *) suites;
	UT_VEC(jhook) hooks;
	UT_VEC(size_t) suite_pos;
	size_t next_pos;
};

typedef struct {
	ut_discover *d;
	const ut_file *file;
	ut_arena arena;        /* suites of this file */
	UT_VEC(jsuite *) all;
	bool skipped_note;
} jsctx;

static const char *const describe_names[] = {"describe", "context", "suite", "fdescribe", NULL};
static const char *const skip_describe[] = {"xdescribe", "xcontext", NULL};
static const char *const it_names[] = {"it", "test", "specify", "fit", NULL};
static const char *const skip_it[] = {"xit", "xtest", "xspecify", NULL};

static jsuite *suite_new(jsctx *c, jsuite *parent, const char *title)
{
	jsuite *s = ut_arena_alloc(&c->arena, sizeof(*s));

	if (!s)
		return NULL;
	s->parent = parent;
	s->title = title;
	ut_env_init(&s->env, parent ? &parent->env : NULL, c->file, NULL);
	if (ut_vec_push(&c->all, s) < 0)
		return NULL;
	return s;
}

static const ut_syn *func_arg(const ut_syn *call)
{
	const ut_syn *args = ut_call_args(call), *a, *last = NULL;

	for (a = args ? ut_syn_first(args) : NULL; a; a = ut_syn_next(a)) {
		const ut_syn *e = ut_arg_expr(a);

		if (e && ut_syn_is(e, UT_R_FUNC))
			last = e;
	}
	return last;
}

static const char *title_of(jsctx *c, jsuite *s, const ut_syn *call)
{
	const ut_syn *args = ut_call_args(call), *a;

	for (a = args ? ut_syn_first(args) : NULL; a; a = ut_syn_next(a)) {
		ut_val v;

		if (!ut_syn_is(a, UT_R_ARG))
			continue;
		v = ut_eval(c->d->ix, &s->env, c->file, ut_arg_expr(a));
		/* an unresolved title is shown as written */
		if (v.kind == UT_V_STR || v.kind == UT_V_UNRES)
			return ut_arena_strndup(c->d->ix->arena, v.s, v.n);
		return ut_compact_text(c->d->ix, c->file, a);
	}
	return "";
}

/* describe / it / hook, possibly through .only or .skip: name and modifier. */
static void call_shape(jsctx *c, const ut_syn *call, const char **name, const char **mod)
{
	const ut_syn *nm = ut_call_name(call), *recv = ut_call_recv(call);

	*name = nm ? ut_compact_text(c->d->ix, c->file, nm) : "";
	*mod = "";
	if (recv && (strcmp(*name, "only") == 0 || strcmp(*name, "skip") == 0 ||
		     strcmp(*name, "todo") == 0 || strcmp(*name, "concurrent") == 0)) {
		*mod = *name;
		*name = ut_compact_text(c->d->ix, c->file, recv);
	} else if (recv) {
		*name = ""; /* a method call such as driver.get(): not a block */
	}
}

static bool in_list(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

static int scan(jsctx *c, jsuite *s, const ut_syn *n, int depth);

static int scan_call(jsctx *c, jsuite *s, const ut_syn *call, int depth)
{
	const char *name, *mod;
	const ut_syn *body = func_arg(call);
	static const struct { const char *name; hook_kind kind; } hooks[] = {
		{"before", HOOK_BEFORE_ALL}, {"beforeAll", HOOK_BEFORE_ALL},
		{"beforeEach", HOOK_BEFORE_EACH}, {"afterEach", HOOK_AFTER_EACH},
		{"after", HOOK_AFTER_ALL}, {"afterAll", HOOK_AFTER_ALL},
		{"suiteSetup", HOOK_BEFORE_ALL}, {"setup", HOOK_BEFORE_EACH},
		{"teardown", HOOK_AFTER_EACH}, {"suiteTeardown", HOOK_AFTER_ALL}};
	size_t i;

	call_shape(c, call, &name, &mod);
	if (in_list(name, skip_describe) || in_list(name, skip_it) ||
	    (strcmp(mod, "skip") == 0 || strcmp(mod, "todo") == 0))
		return 0; /* pending: never runs */
	if (in_list(name, describe_names) && body) {
		jsuite *child = suite_new(c, s, title_of(c, s, call));

		if (!child || ut_vec_push(&s->suites, child) < 0 ||
		    ut_vec_push(&s->suite_pos, s->next_pos) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		s->next_pos++;
		return scan(c, child, ut_syn_child(body, UT_R_FUNC_BODY), depth + 1);
	}
	if (in_list(name, it_names) && s) {
		jtest t;

		t.call = call;
		t.body = body;
		t.title = title_of(c, s, call);
		t.suite = s;
		t.pos = s->next_pos++;
		if (!body)
			return 0; /* it('pending') without a function */
		return ut_vec_push(&s->tests, t) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
	}
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (strcmp(name, hooks[i].name) == 0 && body) {
			jhook h;

			h.kind = hooks[i].kind;
			h.body = body;
			return ut_vec_push(&s->hooks, h) < 0 ? ut_error_set(UT_ENOMEM, "out of memory")
							     : 0;
		}
	return 0;
}

static int scan(jsctx *c, jsuite *s, const ut_syn *n, int depth)
{
	const ut_syn *ch;
	int rc = 0;

	if (!n || depth > 64)
		return 0;
	if (ut_syn_is(n, UT_R_CALL))
		return scan_call(c, s, n, depth);
	for (ch = ut_syn_first(n); ch && rc == 0; ch = ut_syn_next(ch)) {
		if (ut_syn_is(ch, UT_R_CALL)) {
			rc = scan_call(c, s, ch, depth);
		} else if (ut_syn_is(ch, UT_R_ASSIGN)) {
			const ut_syn *t = ut_syn_child(ch, UT_R_ASSIGN_TARGET);
			const ut_syn *v = ut_syn_child(ch, UT_R_ASSIGN_VALUE);

			/* describe-level constants are seen by the tests inside */
			if (t && v && ut_syn_is(t, UT_R_IDENT))
				rc = ut_env_bind(&s->env, c->file->src.ptr + t->start, t->end - t->start,
						 ut_eval(c->d->ix, &s->env, c->file, v));
		} else if (ut_syn_is(ch, UT_R_FUNC) || ut_syn_is(ch, UT_R_CLASS)) {
			continue;
		} else {
			rc = scan(c, s, ch, depth + 1);
		}
	}
	return rc;
}

static int walk_hooks(jsctx *c, ut_walker *w, const jsuite *s, hook_kind k, bool outer_first)
{
	const jsuite *chain[64];
	size_t n = 0, i, h;
	int rc = 0;

	for (; s && n < 64; s = s->parent)
		chain[n++] = s;
	for (i = 0; i < n && rc == 0; i++) {
		const jsuite *cur = chain[outer_first ? n - 1 - i : i];

		for (h = 0; h < cur->hooks.n && rc == 0; h++) {
			const ut_syn *body;
			ut_env env;

			if (cur->hooks.v[h].kind != k)
				continue;
			body = ut_syn_child(cur->hooks.v[h].body, UT_R_FUNC_BODY);
			ut_env_init(&env, (ut_env *)&cur->env, c->file, NULL);
			rc = ut_walk_body(w, &env, c->file, body);
			ut_env_dispose(&env);
		}
	}
	return rc;
}

static int emit(jsctx *c, const jtest *t, const char *framework)
{
	ut_buf title = UT_BUF_INIT;
	ut_arena_mark mark = ut_arena_save(c->d->ix->temp);
	const jsuite *chain[64];
	const jsuite *s;
	size_t n = 0;
	ut_walker w;
	ut_env env;
	int rc = 0;
	const char *id;

	for (s = t->suite; s && n < 64; s = s->parent)
		if (s->title)
			chain[n++] = s;
	while (n-- > 0)
		ut_buf_printf(&title, "%s ", chain[n]->title);
	ut_buf_puts(&title, t->title);
	id = ut_arena_printf(c->d->ix->temp, "%s::%s", c->file->rel, title.ptr);

	ut_walker_init(&w, c->d->ix, c->file->rel);
	w.setup = true;
	rc = walk_hooks(c, &w, t->suite, HOOK_BEFORE_ALL, true);
	if (rc == 0)
		rc = walk_hooks(c, &w, t->suite, HOOK_BEFORE_EACH, true);
	w.setup = false;
	ut_env_init(&env, &t->suite->env, c->file, NULL);
	if (rc == 0)
		rc = ut_walk_body(&w, &env, c->file, ut_syn_child(t->body, UT_R_FUNC_BODY));
	ut_env_dispose(&env);
	w.setup = true;
	if (rc == 0)
		rc = walk_hooks(c, &w, t->suite, HOOK_AFTER_EACH, false);
	if (rc == 0)
		rc = walk_hooks(c, &w, t->suite, HOOK_AFTER_ALL, false);
	if (rc == 0)
		rc = ut_suite_append(c->d, c->file, id, t->title, t->call, framework, &w);
	ut_walker_dispose(&w);
	ut_buf_dispose(&title);
	ut_arena_restore(c->d->ix->temp, mark); /* the test is in the model now */
	return rc;
}

/* mocha runs a suite's tests before its nested suites; jasmine and jest keep the
 * declaration order. */
static int emit_suite(jsctx *c, const jsuite *s, const char *framework, int depth)
{
	bool mocha = strcmp(framework, "mocha") == 0;
	size_t ti = 0, si = 0;
	int rc = 0;

	if (depth > 64)
		return 0;
	while (rc == 0 && (ti < s->tests.n || si < s->suites.n)) {
		bool take_test = si >= s->suites.n ||
				 (ti < s->tests.n && (mocha || s->tests.v[ti].pos < s->suite_pos.v[si]));

		if (take_test)
			rc = emit(c, &s->tests.v[ti++], framework);
		else
			rc = emit_suite(c, s->suites.v[si++], framework, depth + 1);
	}
	return rc;
}

static const char *framework_of(const ut_discover *d, const ut_file *f)
{
	const ut_syn *c;

	if (d->framework)
		return d->framework;
	for (c = ut_syn_first(f->tree->root); c; c = ut_syn_next(c)) {
		if (!ut_syn_is(c, UT_R_IMPORT) && !ut_syn_is(c, UT_R_ASSIGN) && !ut_syn_is(c, UT_R_CALL))
			continue;
		if (memmem(f->src.ptr + c->start, c->end - c->start, "@jest/globals", 13) ||
		    memmem(f->src.ptr + c->start, c->end - c->start, "vitest", 6))
			return "jest";
	}
	if (memmem(f->src.ptr, f->src.len, "jasmine.", 8))
		return "jasmine";
	return "mocha";
}

int ut_js_discover(ut_discover *d)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const ut_file *f = d->ix->files.v[i];
		jsctx c;
		jsuite *root;

		if (!ut_lang_is_js(f->lang) || !f->test_file)
			continue;
		memset(&c, 0, sizeof(c));
		c.d = d;
		c.file = f;
		ut_arena_init(&c.arena);
		root = suite_new(&c, NULL, NULL);
		if (!root)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		if (rc == 0)
			rc = scan(&c, root, f->tree->root, 0);
		if (rc == 0)
			rc = emit_suite(&c, root, framework_of(d, f), 0);
		for (k = 0; k < c.all.n; k++) {
			ut_env_dispose(&c.all.v[k]->env);
			ut_vec_free(&c.all.v[k]->tests);
			ut_vec_free(&c.all.v[k]->suites);
			ut_vec_free(&c.all.v[k]->hooks);
			ut_vec_free(&c.all.v[k]->suite_pos);
		}
		ut_vec_free(&c.all);
		ut_arena_dispose(&c.arena);
	}
	return rc;
}
