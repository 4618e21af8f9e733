/* js_scan.c: what a JavaScript or TypeScript spec registers when mocha loads it:
 * describe/it (BDD), suite/test (TDD), mocha-steps' step, selenium-webdriver/testing's
 * test.describe/test.it, through factories called with literal arguments, loops over
 * literal lists and conditions that are statically false. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "parse/js.h"
#include "util/error.h"
#include "util/banned.h"

static const char *const describe_names[] = {"describe", "context", "suite", "fdescribe", NULL};
static const char *const skip_describe[] = {"xdescribe", "xcontext", NULL};
static const char *const it_names[] = {"it", "test", "specify", "fit", "step", NULL};
static const char *const skip_it[] = {"xit", "xtest", "xspecify", "xstep", NULL};

#define MAX_FACTORY_DEPTH 8 /* factories calling factories */
#define MAX_LOOP_ITEMS 1000 /* elements of a literal list registered over */
#define MAX_SCOPES 20000 /* factory calls and loop iterations of a file, nested ones multiplied */

/* A suite whose describe-level scope is inside `scope` (NULL: the file). */
jsuite *up_js_suite_new(jsctx *c, jsuite *parent, up_env *scope, const char *title)
{
	jsuite *s = ut_arena_alloc(&c->arena, sizeof(*s));

	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->parent = parent;
	s->title = title;
	up_env_init(&s->env, scope, c->cur, NULL);
	if (ut_vec_push(&c->all, s) < 0)
		return NULL;
	return s;
}

/* Whether another scope may be opened; warns once at `n` when not. */
static bool scope_room(jsctx *c, const ut_syn *n)
{
	if (c->scopes.n < MAX_SCOPES)
		return true;
	if (!c->capped)
		ut_diags_add(c->d->diags, UT_DIAG_WARNING, c->cur->rel,
			     up_syn_line(c->cur->tree, n),
			     "more than %d factory calls and loop iterations: the rest is not read",
			     MAX_SCOPES);
	c->capped = true;
	return false;
}

static up_env *scope_new(jsctx *c, up_env *parent)
{
	up_env *e = ut_arena_alloc(&c->arena, sizeof(*e));

	if (!e)
		return NULL;
	memset(e, 0, sizeof(*e));
	up_env_init(e, parent, c->cur, NULL);
	if (ut_vec_push(&c->scopes, e) < 0)
		return NULL;
	return e;
}

static const ut_syn *func_arg(const ut_syn *call)
{
	const ut_syn *args = up_call_args(call), *a, *last = NULL;

	for (a = args ? up_syn_first(args) : NULL; a; a = up_syn_next(a)) {
		const ut_syn *e = up_arg_expr(a);

		if (e && up_syn_is(e, UT_R_FUNC))
			last = e;
	}
	return last;
}

static const char *title_of(jsctx *c, up_env *env, const ut_syn *call)
{
	const ut_syn *args = up_call_args(call), *a;

	for (a = args ? up_syn_first(args) : NULL; a; a = up_syn_next(a)) {
		up_val v;

		if (!up_syn_is(a, UT_R_ARG))
			continue;
		v = up_eval(c->d->ix, env, c->cur, up_arg_expr(a));
		if (v.kind == UP_V_STR)
			return ut_arena_strndup(c->d->ix->arena, v.s, v.n);
		/* a part only the run knows is ${its text}: `Suite on ${ENV}` */
		if (v.kind == UP_V_UNRES)
			return up_js_title(c, env, up_arg_expr(a));
		return up_compact_text(c->d->ix, c->cur, a);
	}
	return "";
}

static bool in_list(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

/* `test` in test.describe(...) when test = require('selenium-webdriver/testing'). */
static bool is_alias(const jsctx *c, const ut_syn *n)
{
	size_t i;

	if (!n || !up_syn_is(n, UT_R_IDENT))
		return false;
	for (i = 0; i < c->aliases.n; i++)
		if (up_text_is(c->cur, n, c->aliases.v[i]))
			return true;
	return false;
}

/* test.ignore(predicate) in test.ignore(...).it(...): the predicate runs at registration
 * and is not known here, so the test counts as registered. */
static bool is_ignore(const jsctx *c, const ut_syn *n)
{
	const ut_syn *nm = up_syn_is(n, UT_R_CALL) ? up_call_name(n) : NULL;
	const ut_syn *recv = nm ? up_call_recv(n) : NULL;

	return nm && up_text_is(c->cur, nm, "ignore") && (!recv || is_alias(c, recv));
}

/* describe / it / hook, possibly through .only or .skip, or through the module object of
 * selenium-webdriver/testing: name and modifier. */
static void call_shape(jsctx *c, const ut_syn *call, const char **name, const char **mod)
{
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call);

	*name = nm ? up_compact_text(c->d->ix, c->cur, nm) : "";
	*mod = "";
	if (recv && (strcmp(*name, "only") == 0 || strcmp(*name, "skip") == 0 ||
		     strcmp(*name, "todo") == 0 || strcmp(*name, "concurrent") == 0)) {
		const ut_syn *obj = up_syn_child(recv, UT_R_MEMBER_OBJ);
		const ut_syn *prop = up_syn_child(recv, UT_R_MEMBER_PROP);

		*mod = *name;
		if (up_syn_is(recv, UT_R_MEMBER) && prop && is_alias(c, obj))
			recv = prop;
		*name = up_compact_text(c->d->ix, c->cur, recv);
	} else if (recv && !is_alias(c, recv) && !is_ignore(c, recv)) {
		*name = ""; /* a method call such as driver.get(): not a block */
	}
}

static int scan(jsctx *c, jsuite *s, up_env *env, const ut_syn *n, int depth);

/* Whether code makes a call: a function body or an arrow's expression (x => it(x, ...)). */
static bool has_call(const ut_syn *n)
{
	return n && (up_syn_is(n, UT_R_CALL) || up_syn_find(n, UT_R_CALL, 0));
}
static int find_aliases(jsctx *c, const up_file *f);

static int nomem(void)
{
	return ut_error_set(UT_ENOMEM, "out of memory");
}

/* The function a factory call registers with: one defined at the top of the file being
 * read, else the only such function of the suite's other JavaScript files (an imported
 * `function editorSuite(name) { describe(...) }`). */
static const up_fn *factory_named(jsctx *c, const ut_syn *nm)
{
	const up_fn *fn, *other = NULL;
	size_t others = 0;

	for (fn = up_index_fn(c->d->ix, c->cur->src.ptr + nm->start, nm->end - nm->start); fn;
	     fn = fn->next_same_name) {
		if (!fn->body || fn->cls || fn->is_test || !ut_lang_is_js(fn->file->lang))
			continue;
		if (fn->file == c->cur)
			return fn;
		other = fn;
		others++;
	}
	return others == 1 ? other : NULL;
}

static const up_fn *factory_of(jsctx *c, const ut_syn *call)
{
	const ut_syn *nm = up_call_name(call);

	if (!nm || up_call_recv(call) || up_syn_is(call, UT_R_NEW))
		return NULL;
	return factory_named(c, nm);
}

/* Binds the call's arguments to the function's parameters in a new scope. */
static up_env *bind_args(jsctx *c, up_env *env, const ut_syn *call, const up_file *pf,
			 const ut_syn *const *params, size_t nparams)
{
	const ut_syn *args = up_call_args(call), *a;
	up_env *scope = scope_new(c, env);
	size_t p = 0;

	if (!scope)
		return NULL;
	for (a = args ? up_syn_first(args) : NULL; a; a = up_syn_next(a)) {
		if (!up_syn_is(a, UT_R_ARG))
			continue;
		if (p < nparams && up_env_bind(scope, pf->src.ptr + params[p]->start,
					       params[p]->end - params[p]->start,
					       up_eval(c->d->ix, env, c->cur, up_arg_expr(a))) < 0)
			return NULL;
		p++;
	}
	return scope;
}

/* A function called at registration time with its arguments: describe('Suite ' + name)
 * inside it registers one suite per call, titled from the arguments. */
/* Reads `body` of file `f` (a factory's, or the file being read) in `scope`. */
static int scan_in(jsctx *c, jsuite *s, up_env *scope, const up_file *f, const ut_syn *body,
		   int depth)
{
	const up_file *saved = c->cur;
	int rc = 0;

	c->cur = f;
	if (f != saved)
		rc = find_aliases(c, f);
	if (rc == 0)
		rc = scan(c, s, scope, body, depth + 1);
	c->cur = saved;
	return rc;
}

static int scan_factory(jsctx *c, jsuite *s, up_env *env, const ut_syn *call, const up_fn *fn,
			int depth)
{
	up_env *scope;
	int rc;

	if (c->expanding >= MAX_FACTORY_DEPTH || !scope_room(c, call))
		return 0;
	scope = bind_args(c, env, call, fn->file, fn->params, fn->nparams);
	if (!scope)
		return nomem();
	scope->file = fn->file;
	c->expanding++;
	rc = scan_in(c, s, scope, fn->file, fn->body, depth);
	c->expanding--;
	return rc;
}

/* The elements of a literal list, directly or through a name bound to one. */
static const ut_syn *literal_list(jsctx *c, up_env *env, const ut_syn *n, const up_file **lf)
{
	up_val v;

	*lf = c->cur;
	while (n && up_syn_is(n, UT_R_PAREN) && up_syn_first(n) && !up_syn_next(up_syn_first(n)))
		n = up_syn_first(n);
	if (!n)
		return NULL;
	if (up_syn_is(n, UT_R_SEQ))
		return n;
	v = up_eval(c->d->ix, env, c->cur, n);
	if (v.kind == UP_V_NODE && v.node && up_syn_is(v.node, UT_R_SEQ)) {
		*lf = v.file;
		return v.node;
	}
	return NULL;
}

/* A list element's value; an object literal stays a node, for its fields (s.name). */
static up_val element(jsctx *c, up_env *env, const up_file *lf, const ut_syn *e)
{
	up_val v = up_eval(c->d->ix, env, lf, e);

	if (v.kind == UP_V_UNRES && up_syn_child(e, UT_R_ASSIGN)) {
		memset(&v, 0, sizeof(v));
		v.kind = UP_V_NODE;
		v.file = lf;
		v.node = e;
	}
	return v;
}

/* What a loop registers with: the body, the names it binds, and their file. */
typedef struct {
	const up_file *file;
	const ut_syn *var;   /* bound to the element, or NULL */
	const ut_syn *index; /* bound to its position, or NULL */
	const ut_syn *body;
} jloop;

/* Registers the loop's body once per element of `list`. */
static int scan_each(jsctx *c, jsuite *s, up_env *env, const ut_syn *list, const up_file *lf,
		     const jloop *l, int depth)
{
	const ut_syn *e;
	size_t i = 0;
	int rc = 0;

	for (e = up_syn_first(list); e && rc == 0 && i < MAX_LOOP_ITEMS; e = up_syn_next(e)) {
		up_env *scope;

		if (!up_syn_is(e, UT_R_ELEM))
			continue;
		if (!scope_room(c, e))
			break;
		scope = scope_new(c, env);
		if (!scope)
			return nomem();
		scope->file = l->file;
		if (l->var && up_env_bind(scope, l->file->src.ptr + l->var->start,
					  l->var->end - l->var->start, element(c, env, lf, e)) < 0)
			return nomem();
		if (l->index) {
			up_val iv = {0};

			iv.kind = UP_V_STR;
			iv.s = ut_arena_printf(c->d->ix->temp, "%zu", i);
			iv.n = iv.s ? strlen(iv.s) : 0;
			if (!iv.s || up_env_bind(scope, l->file->src.ptr + l->index->start,
						 l->index->end - l->index->start, iv) < 0)
				return nomem();
		}
		rc = scan_in(c, s, scope, l->file, l->body, depth);
		i++;
	}
	if (rc == 0 && e && i >= MAX_LOOP_ITEMS)
		ut_diags_add(c->d->diags, UT_DIAG_WARNING, c->cur->rel, up_syn_line(c->cur->tree, e),
			     "a registration loop over more than %d elements: the rest is not read",
			     MAX_LOOP_ITEMS);
	return rc;
}

/* A loop over a list that cannot be read: its body once, and a warning when that
 * registers anything (mocha may register it any number of times). */
static int scan_unread(jsctx *c, jsuite *s, up_env *env, const ut_syn *at, const jloop *l,
		       int depth)
{
	size_t before = c->registered;
	up_env *scope = scope_new(c, env);
	int rc;

	if (!scope)
		return nomem();
	scope->file = l->file;
	rc = scan_in(c, s, scope, l->file, l->body, depth);
	if (rc == 0 && c->registered != before)
		ut_diags_add(
		    c->d->diags, UT_DIAG_WARNING, c->cur->rel, up_syn_line(c->cur->tree, at),
		    "tests registered in a loop over a list that is not a literal: read once");
	return rc;
}

/* list.forEach(x => describe(...)), list.map(...), and list.forEach(suiteFor) with a
 * factory's name. */
static int scan_foreach(jsctx *c, jsuite *s, up_env *env, const ut_syn *call, int depth)
{
	const ut_syn *fn = func_arg(call), *list, *params, *p, *first;
	const up_fn *named = NULL;
	const up_file *lf;
	jloop l;

	memset(&l, 0, sizeof(l));
	l.file = c->cur;
	if (fn) {
		params = up_syn_child(fn, UT_R_FUNC_PARAMS);
		for (p = up_syn_first(params ? params : fn); p; p = up_syn_next(p)) {
			if (!up_syn_is(p, UT_R_PARAM))
				continue;
			if (!l.var)
				l.var = p;
			else if (!l.index)
				l.index = p;
		}
		l.body = up_syn_child(fn, UT_R_FUNC_BODY);
	} else {
		first = up_call_args(call) ? up_syn_first(up_call_args(call)) : NULL;
		first = first ? up_arg_expr(first) : NULL;
		if (first && up_syn_is(first, UT_R_IDENT))
			named = factory_named(c, first);
		if (!named && first && up_syn_is(first, UT_R_IDENT))
			named = up_js_required_fn(c, first, NULL);
		if (!named || c->expanding >= MAX_FACTORY_DEPTH)
			return 0;
		l.file = named->file;
		l.var = named->nparams > 0 ? named->params[0] : NULL;
		l.index = named->nparams > 1 ? named->params[1] : NULL;
		l.body = named->body;
	}
	if (!has_call(l.body))
		return 0;
	list = literal_list(c, env, up_call_recv(call), &lf);
	if (!list)
		return scan_unread(c, s, env, call, &l, depth);
	return scan_each(c, s, env, list, lf, &l, depth);
}

static int scan_call(jsctx *c, jsuite *s, up_env *env, const ut_syn *call, int depth)
{
	const char *name, *mod;
	const ut_syn *body = func_arg(call);
	const up_fn *factory;
	static const struct {
		const char *name;
		hook_kind kind;
	} hooks[] = {{"before", HOOK_BEFORE_ALL},      {"beforeAll", HOOK_BEFORE_ALL},
		     {"beforeEach", HOOK_BEFORE_EACH}, {"afterEach", HOOK_AFTER_EACH},
		     {"after", HOOK_AFTER_ALL},	       {"afterAll", HOOK_AFTER_ALL},
		     {"suiteSetup", HOOK_BEFORE_ALL},  {"setup", HOOK_BEFORE_EACH},
		     {"teardown", HOOK_AFTER_EACH},    {"suiteTeardown", HOOK_AFTER_ALL}};
	size_t i;

	call_shape(c, call, &name, &mod);
	if (in_list(name, skip_describe) || in_list(name, skip_it) ||
	    (strcmp(mod, "skip") == 0 || strcmp(mod, "todo") == 0))
		return 0; /* pending: never runs */
	if (in_list(name, describe_names) && body) {
		jsuite *child = up_js_suite_new(c, s, env, title_of(c, env, call));

		if (!child || ut_vec_push(&s->suites, child) < 0 ||
		    ut_vec_push(&s->suite_pos, s->next_pos) < 0)
			return nomem();
		child->only = strcmp(mod, "only") == 0;
		s->next_pos++;
		c->registered++;
		return scan(c, child, &child->env, up_syn_child(body, UT_R_FUNC_BODY), depth + 1);
	}
	if (in_list(name, it_names) && s) {
		jtest t;

		memset(&t, 0, sizeof(t));
		t.call = call;
		t.body = body;
		t.title = title_of(c, env, call);
		t.suite = s;
		t.env = env;
		t.src = c->cur;
		t.pos = s->next_pos++;
		t.only = strcmp(mod, "only") == 0;
		if (!body)
			return 0; /* it('pending') without a function */
		c->registered++;
		return ut_vec_push(&s->tests, t) < 0 ? nomem() : 0;
	}
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (strcmp(name, hooks[i].name) == 0 && body) {
			jhook h;

			h.kind = hooks[i].kind;
			h.body = body;
			h.env = env;
			h.src = c->cur;
			return ut_vec_push(&s->hooks, h) < 0 ? nomem() : 0;
		}
	if (up_call_recv(call) && (up_text_is(c->cur, up_call_name(call), "forEach") ||
				   up_text_is(c->cur, up_call_name(call), "map")))
		return scan_foreach(c, s, env, call, depth);
	factory = factory_of(c, call);
	if (!factory) /* a suite that a module of the suite exports */
		factory = up_js_required_factory(c, call);
	if (factory && has_call(factory->body))
		return scan_factory(c, s, env, call, factory, depth);
	return 0;
}

/* for (const x of ['a', 'b']) describe(...) */
static int scan_loop(jsctx *c, jsuite *s, up_env *env, const ut_syn *n, int depth)
{
	const ut_syn *iter = up_syn_child(n, UT_R_LOOP_ITER), *list;
	const up_file *lf;
	jloop l;

	memset(&l, 0, sizeof(l));
	l.file = c->cur;
	l.var = up_syn_child(n, UT_R_LOOP_VAR);
	l.body = up_syn_child(n, UT_R_LOOP_BODY);
	list = literal_list(c, env, iter, &lf);
	if (!list)
		return scan_unread(c, s, env, n, &l, depth);
	return scan_each(c, s, env, list, lf, &l, depth);
}

/* (async () => { ... })(): the function runs as mocha loads the file, its registrations
 * with it; what an await holds back is read too (a loop over it once, with a warning). */
static int scan_iife(jsctx *c, jsuite *s, up_env *env, const ut_syn *paren, int depth)
{
	up_env *scope;

	if (!scope_room(c, paren))
		return 0;
	scope = scope_new(c, env);
	if (!scope)
		return nomem();
	if (s == c->root && up_js_awaits(c->cur, paren)) {
		jlater l;

		l.suite = s;
		l.env = scope;
		l.file = c->cur;
		l.body = up_js_iife_body(c->cur, paren);
		return ut_vec_push(&c->later, l) < 0 ? nomem() : 0;
	}
	return scan(c, s, scope, up_js_iife_body(c->cur, paren), depth + 1);
}

/* Code under a condition that is false whatever happens registers nothing. */
static int scan_if(jsctx *c, jsuite *s, up_env *env, const ut_syn *n, int depth)
{
	int truth = up_cond(c->d->ix, env, c->cur, up_syn_child(n, UT_R_IF_COND)), rc = 0;
	const ut_syn *ch;

	for (ch = up_syn_first(n); ch && rc == 0; ch = up_syn_next(ch)) {
		if ((truth == 0 && up_syn_is(ch, UT_R_IF_THEN)) ||
		    (truth == 1 && up_syn_is(ch, UT_R_IF_ELSE)) || up_syn_is(ch, UT_R_IF_COND))
			continue;
		rc = scan(c, s, env, ch, depth + 1);
	}
	return rc;
}

static int scan(jsctx *c, jsuite *s, up_env *env, const ut_syn *n, int depth)
{
	const ut_syn *ch;
	int rc = 0;

	if (!n || depth > 64)
		return 0;
	if (up_syn_is(n, UT_R_CALL))
		return scan_call(c, s, env, n, depth);
	if (up_syn_is(n, UT_R_IF))
		return scan_if(c, s, env, n, depth);
	if (up_syn_is(n, UT_R_LOOP))
		return scan_loop(c, s, env, n, depth);
	if (up_syn_is(n, UT_R_PAREN) && up_js_iife_body(c->cur, n))
		return scan_iife(c, s, env, n, depth);
	for (ch = up_syn_first(n); ch && rc == 0; ch = up_syn_next(ch)) {
		if (up_syn_is(ch, UT_R_ASSIGN)) {
			const ut_syn *t = up_syn_child(ch, UT_R_ASSIGN_TARGET);
			const ut_syn *v = up_syn_child(ch, UT_R_ASSIGN_VALUE);

			/* describe-level constants are seen by the tests inside */
			if (t && v && up_syn_is(t, UT_R_IDENT))
				rc = up_env_bind(env, c->cur->src.ptr + t->start, t->end - t->start,
						 up_eval(c->d->ix, env, c->cur, v));
		} else if (up_syn_is(ch, UT_R_FUNC) || up_syn_is(ch, UT_R_CLASS)) {
			continue;
		} else {
			rc = scan(c, s, env, ch, depth + 1);
		}
	}
	return rc;
}

/* Names the file binds to selenium-webdriver/testing's module object. */
static int find_aliases(jsctx *c, const up_file *f)
{
	static const char mod[] = "selenium-webdriver/testing";
	const ut_syn *n, *id;

	for (n = up_syn_first(f->tree->root); n; n = up_syn_next(n)) {
		if (!memmem(f->src.ptr + n->start, n->end - n->start, mod, sizeof(mod) - 1))
			continue;
		if (up_syn_is(n, UT_R_IMPORT))
			id = up_syn_find(n, UT_R_IDENT, 0); /* import * as test / import test */
		else
			id = up_syn_find(n, UT_R_ASSIGN_TARGET, 0);
		if (id && up_syn_is(id, UT_R_IDENT) &&
		    ut_vec_push(&c->aliases, up_compact_text(c->d->ix, f, id)) < 0)
			return nomem();
	}
	return 0;
}

int up_js_scan_file(jsctx *c)
{
	size_t i;
	int rc;

	c->cur = c->file;
	c->root = up_js_suite_new(c, NULL, NULL, NULL);
	if (!c->root)
		return nomem();
	rc = find_aliases(c, c->file);
	if (rc == 0)
		rc = scan(c, c->root, &c->root->env, c->file->tree->root, 0);
	/* what async functions register after an await: after the rest of the file */
	for (i = 0; i < c->later.n && rc == 0; i++) {
		jlater l = c->later.v[i];

		rc = scan_in(c, l.suite, l.env, l.file, l.body, 1);
	}
	return rc;
}
