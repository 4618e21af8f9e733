/* actions.c: walks test and setup code in evaluation order and records what it does to
 * the application: values submitted, locators, assertions, navigation, clicks. Calls to
 * helpers and page objects defined in the analysed sources are followed with their
 * arguments bound, so a literal passed to login("ann", "pw") counts at the call site. */
#include <ctype.h>
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/banned.h"

typedef UT_VEC(const char *) strvec;

static const char *const submit_names[] = {
	"sendKeys", "send_keys", "setValue", "addValue", "selectByVisibleText", "selectByValue",
	"select_by_visible_text", "select_by_value", "selectByAttribute", "selectOption",
	"fill", "type", "typeText", "setText", "keys", NULL};
static const char *const click_names[] = {
	"click", "doubleClick", "double_click", "contextClick", "context_click", "submit",
	"tap", "dblclick", NULL};
static const char *const nav_names[] = {
	"goto", "navigateTo", "navigate_to", "refresh", "back", "forward", NULL};
static const char *const locate_names[] = {"$", "$$", NULL};
static const char *const locate_recv[] = {"By", "by", "webdriver.By", "selenium.By", NULL};
static const char *const bare_ambiguous[] = {"fill", "type", "keys", "typeText", "setText", NULL};
static const char *const key_objects[] = {"Keys", "Key", "webdriver.Key", NULL};

void ut_walker_init(ut_walker *w, const ut_index *ix, const char *test_file)
{
	memset(w, 0, sizeof(*w));
	w->ix = ix;
	w->test_file = test_file;
}

void ut_walker_dispose(ut_walker *w)
{
	if (w)
		ut_vec_free(&w->actions);
}

static bool in_set(const char *s, const char *const *set)
{
	/* the first letter settles most comparisons of every call's name: no call then */
	for (; *set; set++)
		if (s[0] == (*set)[0] && strcmp(s, *set) == 0)
			return true;
	return false;
}

static bool last_segment_like(const char *recv, const char *const *words)
{
	const char *last = strrchr(recv, '.');
	char low[64];
	size_t i;

	last = last ? last + 1 : recv;
	for (i = 0; last[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)last[i]);
	low[i] = '\0';
	for (; *words; words++)
		if (strstr(low, *words))
			return true;
	return false;
}

static bool recv_has_call(const ut_file *f, const ut_syn *recv, const char *const *names)
{
	const ut_syn *c;

	if (!recv)
		return false;
	if (ut_syn_is(recv, UT_R_CALL)) {
		const ut_syn *nm = ut_call_name(recv);

		if (nm && ut_text_in(f, nm, names))
			return true;
	}
	for (c = ut_syn_first(recv); c; c = ut_syn_next(c))
		if (!ut_syn_is(c, UT_R_CALL_ARGS) && recv_has_call(f, c, names))
			return true;
	return false;
}

static bool is_by_member(const ut_file *f, const ut_syn *n)
{
	const ut_syn *obj;

	n = ut_arg_expr(n);
	if (!n || !ut_syn_is(n, UT_R_MEMBER))
		return false;
	obj = ut_syn_child(n, UT_R_MEMBER_OBJ);
	return obj && (ut_text_is(f, obj, "By") || ut_text_is(f, obj, "AppiumBy"));
}

static bool is_key_member(const ut_index *ix, const ut_file *f, const ut_syn *n)
{
	const ut_syn *obj;
	char buf[64];

	n = ut_arg_expr(n);
	if (!n || !ut_syn_is(n, UT_R_MEMBER))
		return false;
	obj = ut_syn_child(n, UT_R_MEMBER_OBJ);
	return obj && in_set(ut_compact_text_buf(ix, f, obj, buf, sizeof(buf)), key_objects);
}

static const ut_syn *first_arg(const ut_syn *args)
{
	const ut_syn *c;

	for (c = args ? ut_syn_first(args) : NULL; c; c = ut_syn_next(c))
		if (ut_syn_is(c, UT_R_ARG))
			return c;
	return NULL;
}

/* What a call does, from its name, its receiver and its first argument. */
static ut_action_kind classify(const ut_index *ix, const ut_file *f, const ut_syn *call)
{
	static const char *const expect_names[] = {"expect", "assertThat", "assert_that", NULL};
	static const char *const nav_recv[] = {"driver", "browser", "wd", "page", NULL};
	const ut_syn *nm = ut_call_name(call), *recv = ut_call_recv(call);
	const char *name, *r;
	char nbuf[64], rbuf[256];

	if (!nm)
		return UT_ACT_OTHER;
	name = ut_compact_text_buf(ix, f, nm, nbuf, sizeof(nbuf));
	r = recv ? ut_compact_text_buf(ix, f, recv, rbuf, sizeof(rbuf)) : NULL;
	if (r && in_set(r, locate_recv))
		return UT_ACT_LOCATE;
	if (in_set(name, locate_names) ||
	    ((strcmp(name, "find_element") == 0 || strcmp(name, "find_elements") == 0) &&
	     is_by_member(f, first_arg(ut_call_args(call)))) ||
	    strncmp(name, "find_element_by_", 16) == 0 || strncmp(name, "find_elements_by_", 17) == 0)
		return UT_ACT_LOCATE;
	/* bare fill()/type()/keys() are too common as other functions' names */
	if (in_set(name, submit_names) && (r || !in_set(name, bare_ambiguous)))
		return UT_ACT_SUBMIT;
	if (in_set(name, click_names) && r)
		return UT_ACT_CLICK;
	if (strncmp(name, "assert", 6) == 0 || strcmp(name, "expect") == 0 ||
	    strcmp(name, "fail") == 0 || (r && strncmp(r, "assert", 6) == 0) ||
	    (r && strstr(r, ".should")) || recv_has_call(f, recv, expect_names))
		return UT_ACT_ASSERT;
	if (r && (in_set(name, nav_names) ||
		  ((strcmp(name, "get") == 0 || strcmp(name, "url") == 0 ||
		    strcmp(name, "open") == 0) && last_segment_like(r, nav_recv)) ||
		  (strcmp(name, "to") == 0 && strstr(r, "navigate"))))
		return UT_ACT_NAVIGATE;
	return UT_ACT_OTHER;
}

static int emit(ut_walker *w, const ut_file *f, const ut_syn *n, ut_action_kind kind,
		strvec *values, strvec *unres)
{
	ut_action a;
	ut_arena *arena = w->ix->arena;
	const ut_file *where = w->depth ? w->site_file : f;
	size_t i;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.line = w->depth ? w->site_line : ut_syn_line(f->tree, n);
	a.file = strcmp(where->rel, w->test_file) == 0 ? NULL : where->rel;
	a.setup = w->setup;
	a.via = w->depth ? w->via : NULL;
	if (values->n) {
		a.values = ut_arena_alloc(arena, values->n * sizeof(char *));
		if (!a.values)
			return ut_error_set(UT_ENOMEM, "out of memory");
		for (i = 0; i < values->n; i++)
			a.values[i] = values->v[i];
		a.nvalues = values->n;
	}
	if (unres->n) {
		a.unresolved = ut_arena_alloc(arena, unres->n * sizeof(char *));
		if (!a.unresolved)
			return ut_error_set(UT_ENOMEM, "out of memory");
		for (i = 0; i < unres->n; i++)
			a.unresolved[i] = unres->v[i];
		a.nunresolved = unres->n;
	}
	return ut_vec_push(&w->actions, a) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

static int add_str(ut_walker *w, strvec *vec, const char *s, size_t n)
{
	size_t i;
	const char *copy;

	for (i = 0; i < vec->n; i++)
		if (strlen(vec->v[i]) == n && memcmp(vec->v[i], s, n) == 0)
			return 0;
	copy = ut_arena_strndup(w->ix->arena, s, n);
	if (!copy || ut_vec_push(vec, copy) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

static int walk_node(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *n);
static int walk_children(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *n);
static int locate_from_node(ut_walker *w, const ut_val *v);

/* Values an assertion compares against: strings in its operands, looking into helper
 * calls such as containsString("x") but not into calls that are actions of their own. */
static int collect_assert(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *n,
			  strvec *values, int depth)
{
	const ut_syn *c;
	int rc = 0;

	if (depth > UT_MAX_EVAL_DEPTH)
		return 0;
	for (c = ut_syn_first(n); c && rc == 0; c = ut_syn_next(c)) {
		if (ut_syn_is(c, UT_R_CALL)) {
			ut_action_kind k = classify(w->ix, f, c);

			if (k == UT_ACT_OTHER || k == UT_ACT_ASSERT)
				rc = collect_assert(w, env, f, c, values, depth + 1);
		} else if (ut_syn_is(c, UT_R_FUNC) || ut_syn_is(c, UT_R_CALL_NAME)) {
			continue;
		} else if (ut_syn_is(c, UT_R_STR) || ut_syn_is(c, UT_R_CONCAT) ||
			   ut_syn_is(c, UT_R_IDENT) || ut_syn_is(c, UT_R_MEMBER)) {
			ut_val v = ut_eval(w->ix, env, f, c);

			if (v.kind == UT_V_STR && !ut_syn_is(c, UT_R_NUM))
				rc = add_str(w, values, v.s, v.n);
		} else {
			rc = collect_assert(w, env, f, c, values, depth + 1);
		}
	}
	return rc;
}

/* The values of a call's arguments, as the kind of action wants them. */
static int collect_args(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *args,
			ut_action_kind kind, strvec *values, strvec *unres)
{
	const ut_syn *c;
	bool first = true;
	int rc = 0;

	for (c = args ? ut_syn_first(args) : NULL; c && rc == 0; c = ut_syn_next(c)) {
		const ut_syn *e;
		ut_val v;

		if (!ut_syn_is(c, UT_R_ARG) && !ut_syn_is(c, UT_R_ELEM))
			continue;
		e = ut_syn_is(c, UT_R_ARG_KW) ? ut_syn_child(c, UT_R_ARG_KW_VALUE) : c;
		e = ut_arg_expr(e);
		if (!e || ut_syn_is(e, UT_R_FUNC) || is_key_member(w->ix, f, e) ||
		    is_by_member(f, e)) {
			first = false;
			continue;
		}
		/* find_element("id", "x"): the first string names the strategy */
		if (kind == UT_ACT_LOCATE && first && ut_syn_is(e, UT_R_STR) && ut_syn_next(c) &&
		    ut_syn_is(args, UT_R_CALL_ARGS) && f->lang == UT_LANG_PYTHON) {
			first = false;
			continue;
		}
		first = false;
		if (kind == UT_ACT_OTHER && !ut_syn_is(e, UT_R_STR) && !ut_syn_is(e, UT_R_CONCAT) &&
		    !ut_syn_is(e, UT_R_IDENT) && !ut_syn_is(e, UT_R_MEMBER))
			continue;
		v = ut_eval(w->ix, env, f, e);
		if (v.kind == UT_V_STR && kind == UT_ACT_OTHER && all_digits(v.s, v.n))
			continue; /* timeouts and counts, not application data */
		if (v.kind == UT_V_STR)
			rc = add_str(w, values, v.s, v.n);
		else if (v.kind == UT_V_UNRES && v.n && kind != UT_ACT_OTHER && kind != UT_ACT_CLICK)
			rc = add_str(w, unres, v.s, v.n);
		else if (v.kind == UT_V_NODE && ut_syn_is(e, UT_R_CALL) &&
			 (kind == UT_ACT_SUBMIT || kind == UT_ACT_NAVIGATE))
			rc = add_str(w, unres, f->src.ptr + e->start,
				     e->end - e->start > 200 ? 200 : e->end - e->start);
		else if (v.kind == UT_V_NODE && !ut_syn_is(e, UT_R_CALL) && !ut_syn_is(e, UT_R_SEQ))
			rc = locate_from_node(w, &v); /* a locator kept in a field or constant */
	}
	return rc;
}

/* A By.* call or (By.ID, "x") tuple bound to a name becomes a locate action where used. */
static int locate_from_node(ut_walker *w, const ut_val *v)
{
	strvec values = {0}, unres = {0};
	ut_env scope;
	int rc = 0;
	const ut_syn *n = v->node;
	const ut_syn *recv = ut_syn_is(n, UT_R_CALL) ? ut_call_recv(n) : NULL;
	char buf[64];

	ut_env_init(&scope, NULL, v->file, v->cls);
	/* only a locator object (By.id("x")); an element found earlier was counted there */
	if (recv && in_set(ut_compact_text_buf(w->ix, v->file, recv, buf, sizeof(buf)),
			   locate_recv)) {
		rc = collect_args(w, &scope, v->file, ut_call_args(n), UT_ACT_LOCATE, &values, &unres);
	} else if (ut_syn_is(n, UT_R_SEQ) && ut_syn_first(n) && is_by_member(v->file, ut_syn_first(n))) {
		rc = collect_args(w, &scope, v->file, n, UT_ACT_LOCATE, &values, &unres);
	} else {
		goto done;
	}
	if (rc == 0 && (values.n || unres.n)) {
		/* reported where it is used */
		const ut_file *site = w->site_file;
		unsigned line = w->site_line;

		if (!w->depth) {
			w->depth++;
			w->site_file = w->cur_file;
			w->site_line = w->cur_line;
			rc = emit(w, v->file, n, UT_ACT_LOCATE, &values, &unres);
			w->depth--;
			w->site_file = site;
			w->site_line = line;
		} else {
			rc = emit(w, v->file, n, UT_ACT_LOCATE, &values, &unres);
		}
	}
done:
	ut_env_dispose(&scope);
	ut_vec_free(&values);
	ut_vec_free(&unres);
	return rc;
}

/* A call on `this` (or on nothing) from a method of the test's class chain runs the most
 * derived method of that name, starting at the test's own class (an override). */
static const ut_fn *find_override(const ut_walker *w, const ut_env *env, const ut_file *f,
				  const ut_syn *call, const ut_syn *nm, size_t nargs)
{
	const ut_syn *recv = ut_call_recv(call);

	if (!w->self || !env || !env->cls || (recv && !ut_is_self(f, recv)))
		return NULL;
	return ut_index_dispatch(w->ix, w->self, env->cls, f->src.ptr + nm->start,
				 nm->end - nm->start, nargs);
}

static const ut_fn *find_helper(const ut_walker *w, const ut_env *env, const ut_file *f,
				const ut_syn *call, size_t nargs)
{
	const ut_syn *nm = ut_call_name(call);
	const ut_fn *fn, *best = NULL;

	if (!nm)
		return NULL;
	fn = find_override(w, env, f, call, nm, nargs);
	if (fn)
		return fn;
	for (fn = ut_index_fn(w->ix, f->src.ptr + nm->start, nm->end - nm->start); fn;
	     fn = fn->next_same_name) {
		size_t np = fn->nparams - ut_fn_self_params(fn);

		if (fn->is_test || !fn->body)
			continue;
		if (np == nargs)
			return fn;
		if (!best && np >= nargs)
			best = fn;
	}
	return best;
}

static int inline_helper(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *call,
			 const ut_fn *fn)
{
	const ut_syn *args = ut_call_args(call), *c;
	ut_env callee;
	size_t i, p = ut_fn_self_params(fn), saved_depth = w->depth;
	const char *saved_via = w->via;
	int rc = 0;

	ut_env_init(&callee, NULL, fn->file, fn->cls);
	callee.self = w->self;
	for (c = args ? ut_syn_first(args) : NULL; c && rc == 0; c = ut_syn_next(c)) {
		ut_val v;

		if (!ut_syn_is(c, UT_R_ARG))
			continue;
		if (ut_syn_is(c, UT_R_ARG_KW)) {
			const ut_syn *kn = ut_syn_child(c, UT_R_ARG_KW_NAME);

			v = ut_eval(w->ix, env, f, ut_syn_child(c, UT_R_ARG_KW_VALUE));
			for (i = 0; kn && i < fn->nparams; i++)
				if (fn->params[i]->end - fn->params[i]->start == kn->end - kn->start &&
				    memcmp(fn->file->src.ptr + fn->params[i]->start,
					   f->src.ptr + kn->start, kn->end - kn->start) == 0)
					rc = ut_env_bind(&callee, fn->file->src.ptr + fn->params[i]->start,
							 kn->end - kn->start, v);
			continue;
		}
		v = ut_eval(w->ix, env, f, ut_arg_expr(c));
		if (p < fn->nparams)
			rc = ut_env_bind(&callee, fn->file->src.ptr + fn->params[p]->start,
					 fn->params[p]->end - fn->params[p]->start, v);
		p++;
	}
	if (rc == 0) {
		if (!w->depth) {
			const ut_syn *nm = ut_call_name(call);

			w->site_file = f;
			w->site_line = ut_syn_line(f->tree, call);
			w->via = fn->cls && fn->cls->name[0]
					 ? ut_arena_printf(w->ix->arena, "%s.%s", fn->cls->name, fn->name)
					 : ut_arena_strndup(w->ix->arena, f->src.ptr + nm->start,
							    nm->end - nm->start);
		}
		w->stack[w->depth++] = fn;
		rc = walk_children(w, &callee, fn->file, fn->body);
		w->depth = saved_depth;
		w->via = saved_via;
	}
	ut_env_dispose(&callee);
	return rc;
}

static bool on_stack(const ut_walker *w, const ut_fn *fn)
{
	size_t i;

	for (i = 0; i < w->depth; i++)
		if (w->stack[i] == fn)
			return true;
	return false;
}

static size_t count_positional(const ut_syn *args)
{
	const ut_syn *c;
	size_t n = 0;

	for (c = args ? ut_syn_first(args) : NULL; c; c = ut_syn_next(c))
		if (ut_syn_is(c, UT_R_ARG) && !ut_syn_is(c, UT_R_ARG_KW))
			n++;
	return n;
}

static int walk_call(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *call)
{
	ut_action_kind kind = classify(w->ix, f, call);
	const ut_syn *recv = ut_call_recv(call), *args = ut_call_args(call);
	bool saved = w->in_assert;
	strvec values = {0}, unres = {0};
	const ut_fn *fn;
	int rc = 0;

	if (kind == UT_ACT_ASSERT)
		w->in_assert = true;
	if (recv)
		rc = walk_node(w, env, f, recv);
	if (rc == 0 && args)
		rc = walk_children(w, env, f, args);
	w->in_assert = saved;
	if (rc < 0)
		goto done;
	w->cur_file = f;
	w->cur_line = ut_syn_line(f->tree, call);
	if (kind == UT_ACT_OTHER && !ut_syn_is(call, UT_R_NEW)) {
		fn = find_helper(w, env, f, call, count_positional(args));
		if (fn && !on_stack(w, fn) && w->depth < UT_MAX_INLINE_DEPTH) {
			rc = inline_helper(w, env, f, call, fn);
			goto done;
		}
	}
	if ((kind == UT_ACT_OTHER || kind == UT_ACT_ASSERT) && w->in_assert)
		goto done; /* the enclosing assertion takes the values */
	if (kind == UT_ACT_ASSERT) {
		rc = collect_assert(w, env, f, call, &values, 0);
	} else {
		rc = collect_args(w, env, f, args, kind, &values, &unres);
	}
	if (rc == 0 && (kind != UT_ACT_OTHER || values.n))
		rc = emit(w, f, call, kind, &values, &unres);
done:
	ut_vec_free(&values);
	ut_vec_free(&unres);
	return rc;
}

static int walk_assign(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *n)
{
	const ut_syn *target = ut_syn_child(n, UT_R_ASSIGN_TARGET);
	const ut_syn *value = ut_syn_child(n, UT_R_ASSIGN_VALUE);
	int rc = 0;

	if (!value)
		return walk_children(w, env, f, n);
	rc = walk_node(w, env, f, value);
	if (rc == 0 && target && ut_syn_is(target, UT_R_IDENT))
		rc = ut_env_bind(env, f->src.ptr + target->start, target->end - target->start,
				 ut_eval(w->ix, env, f, value));
	return rc;
}

static int walk_node(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *n)
{
	int rc = 0;

	if (++w->walk_depth > UT_MAX_WALK_DEPTH) {
		w->truncated = true;
		goto done;
	}
	if (ut_syn_is(n, UT_R_FUNC)) {
		/* a nested definition does not run; a lambda or callback passed along does */
		if (!ut_syn_child(n, UT_R_FUNC_NAME))
			rc = walk_children(w, env, f, n);
	} else if (ut_syn_is(n, UT_R_CLASS)) {
		/* not executed here */
	} else if (ut_syn_is(n, UT_R_CALL)) {
		rc = walk_call(w, env, f, n);
	} else if (ut_syn_is(n, UT_R_ASSIGN)) {
		rc = walk_assign(w, env, f, n);
	} else if (ut_syn_is(n, UT_R_ASSERT)) {
		strvec values = {0}, none = {0};
		bool saved = w->in_assert;

		w->in_assert = true;
		rc = walk_children(w, env, f, n);
		w->in_assert = saved;
		if (rc == 0)
			rc = collect_assert(w, env, f, n, &values, 0);
		if (rc == 0 && !w->in_assert)
			rc = emit(w, f, n, UT_ACT_ASSERT, &values, &none);
		ut_vec_free(&values);
	} else if (ut_syn_is(n, UT_R_SEQ) && ut_syn_first(n) && is_by_member(f, ut_syn_first(n))) {
		strvec values = {0}, unres = {0};

		rc = collect_args(w, env, f, n, UT_ACT_LOCATE, &values, &unres);
		if (rc == 0 && (values.n || unres.n))
			rc = emit(w, f, n, UT_ACT_LOCATE, &values, &unres);
		ut_vec_free(&values);
		ut_vec_free(&unres);
	} else {
		rc = walk_children(w, env, f, n);
	}
done:
	w->walk_depth--;
	return rc;
}

static int walk_children(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *n)
{
	const ut_syn *c;
	int rc = 0;

	for (c = n ? ut_syn_first(n) : NULL; c && rc == 0; c = ut_syn_next(c))
		rc = walk_node(w, env, f, c);
	return rc;
}

int ut_walk_body(ut_walker *w, ut_env *env, const ut_file *f, const ut_syn *body)
{
	if (!body)
		return 0;
	/* an expression body (arrow function) is itself the code */
	if (body->roles & (UT_ROLE(UT_R_CALL) | UT_ROLE(UT_R_ASSIGN)))
		return walk_node(w, env, f, body);
	return walk_children(w, env, f, body);
}

int ut_walk_fn(ut_walker *w, const ut_fn *fn, ut_env *parent)
{
	ut_env env;
	int rc;

	ut_env_init(&env, parent, fn->file, fn->cls);
	if (!env.self)
		env.self = w->self;
	rc = ut_walk_body(w, &env, fn->file, fn->body);
	ut_env_dispose(&env);
	return rc;
}

int ut_walker_finish(ut_walker *w, ut_test *t, ut_arena *arena)
{
	size_t i;

	t->nactions = w->actions.n;
	t->actions = NULL;
	if (!w->actions.n)
		return 0;
	t->actions = ut_arena_alloc(arena, w->actions.n * sizeof(ut_action));
	if (!t->actions)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < w->actions.n; i++)
		t->actions[i] = w->actions.v[i];
	w->actions.n = 0;
	return 0;
}
