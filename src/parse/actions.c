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

void up_walker_init(up_walker *w, up_discover *d, const char *test_file)
{
	memset(w, 0, sizeof(*w));
	w->ix = d->ix;
	w->d = d;
	w->test_file = test_file;
}

void up_walker_dispose(up_walker *w)
{
	size_t i;

	if (!w)
		return;
	ut_vec_free(&w->actions);
	for (i = 0; i < w->steps.n; i++)
		up_env_dispose(&w->steps.v[i].env);
	ut_vec_free(&w->steps);
}

/* The step of a recording walker: env with its own bindings copied, since the caller
 * gives its scope back once this returns. */
static int record(up_walker *w, const up_env *env, const up_file *f, const ut_syn *body)
{
	ut_arena *keep = &w->d->walk_arena;
	up_walk_step step;
	size_t i;

	memset(&step, 0, sizeof(step));
	step.env = *env;
	memset(&step.env.locals, 0, sizeof(step.env.locals));
	step.file = f;
	step.body = body;
	step.setup = w->setup;
	for (i = 0; i < env->locals.n; i++) {
		up_binding b = env->locals.v[i];
		bool text = (b.val.kind == UP_V_STR || b.val.kind == UP_V_UNRES) && b.val.s;

		b.name = ut_arena_strndup(keep, b.name, b.nlen);
		if (text)
			b.val.s = ut_arena_strndup(keep, b.val.s, b.val.n);
		if (!b.name || (text && !b.val.s) || ut_vec_push(&step.env.locals, b) < 0)
			goto nomem;
	}
	if (ut_vec_push(&w->steps, step) < 0)
		goto nomem;
	return 0;
nomem:
	up_env_dispose(&step.env);
	return ut_error_set(UT_ENOMEM, "out of memory");
}

static bool in_set(const char *s, const char *const *set)
{
	/* the first letter settles most comparisons of every call's name: no call then */
	for (; *set; set++)
		if (s[0] == (*set)[0] && strcmp(s, *set) == 0)
			return true;
	return false;
}

static bool recv_has_call(const up_file *f, const ut_syn *recv, const char *const *names)
{
	const ut_syn *c;

	if (!recv)
		return false;
	if (up_syn_is(recv, UT_R_CALL)) {
		const ut_syn *nm = up_call_name(recv);

		if (nm && up_text_in(f, nm, names))
			return true;
	}
	for (c = up_syn_first(recv); c; c = up_syn_next(c))
		if (!up_syn_is(c, UT_R_CALL_ARGS) && recv_has_call(f, c, names))
			return true;
	return false;
}

static bool is_by_member(const up_file *f, const ut_syn *n)
{
	const ut_syn *obj;

	n = up_arg_expr(n);
	if (!n || !up_syn_is(n, UT_R_MEMBER))
		return false;
	obj = up_syn_child(n, UT_R_MEMBER_OBJ);
	return obj && (up_text_is(f, obj, "By") || up_text_is(f, obj, "AppiumBy"));
}

static bool is_key_member(const up_index *ix, const up_file *f, const ut_syn *n)
{
	const ut_syn *obj;
	char buf[64];

	n = up_arg_expr(n);
	if (!n || !up_syn_is(n, UT_R_MEMBER))
		return false;
	obj = up_syn_child(n, UT_R_MEMBER_OBJ);
	return obj && in_set(up_compact_text_buf(ix, f, obj, buf, sizeof(buf)), key_objects);
}

static const ut_syn *first_arg(const ut_syn *args)
{
	const ut_syn *c;

	for (c = args ? up_syn_first(args) : NULL; c; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_ARG))
			return c;
	return NULL;
}

/* What a call does, from its name, its receiver (get(url) navigates only on a driver) and
 * its first argument. */
static ut_action_kind classify(const up_index *ix, const up_env *env, const up_file *f,
			       const ut_syn *call)
{
	static const char *const expect_names[] = {"expect", "assertThat", "assert_that", NULL};
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call);
	const char *name, *r;
	char nbuf[64], rbuf[256];

	if (!nm)
		return UT_ACT_OTHER;
	name = up_compact_text_buf(ix, f, nm, nbuf, sizeof(nbuf));
	r = recv ? up_compact_text_buf(ix, f, recv, rbuf, sizeof(rbuf)) : NULL;
	if (r && in_set(r, locate_recv))
		return UT_ACT_LOCATE;
	if (in_set(name, locate_names) ||
	    ((strcmp(name, "find_element") == 0 || strcmp(name, "find_elements") == 0) &&
	     is_by_member(f, first_arg(up_call_args(call)))) ||
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
	if (r &&
	    (in_set(name, nav_names) ||
	     ((strcmp(name, "get") == 0 || strcmp(name, "url") == 0 || strcmp(name, "open") == 0) &&
	      up_type_of(ix, env, f, recv).kind == UP_TY_DRIVER) ||
	     (strcmp(name, "to") == 0 && strstr(r, "navigate"))))
		return UT_ACT_NAVIGATE;
	return UT_ACT_OTHER;
}

static int emit(up_walker *w, const up_file *f, const ut_syn *n, ut_action_kind kind,
		strvec *values, strvec *unres)
{
	ut_action a;
	ut_arena *arena = w->ix->arena;
	const up_file *where = w->depth ? w->site_file : f;
	size_t i;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.line = w->depth ? w->site_line : up_syn_line(f->tree, n);
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

static int add_str(up_walker *w, strvec *vec, const char *s, size_t n)
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

static int walk_node(up_walker *w, up_env *env, const up_file *f, const ut_syn *n);
static int walk_children(up_walker *w, up_env *env, const up_file *f, const ut_syn *n);
static int locate_from_node(up_walker *w, const up_val *v);
static int locate_where_used(up_walker *w, const up_file *f, const ut_syn *n, strvec *values,
			     strvec *unres);

/* Values an assertion compares against: strings in its operands, looking into helper
 * calls such as containsString("x") but not into calls that are actions of their own. */
static int collect_assert(up_walker *w, up_env *env, const up_file *f, const ut_syn *n,
			  strvec *values, int depth)
{
	const ut_syn *c;
	int rc = 0;

	if (depth > UT_MAX_EVAL_DEPTH)
		return 0;
	for (c = up_syn_first(n); c && rc == 0; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_CALL)) {
			ut_action_kind k = classify(w->ix, env, f, c);

			if (k == UT_ACT_OTHER || k == UT_ACT_ASSERT)
				rc = collect_assert(w, env, f, c, values, depth + 1);
		} else if (up_syn_is(c, UT_R_FUNC) || up_syn_is(c, UT_R_CALL_NAME)) {
			continue;
		} else if (up_syn_is(c, UT_R_STR) || up_syn_is(c, UT_R_CONCAT) ||
			   up_syn_is(c, UT_R_IDENT) || up_syn_is(c, UT_R_MEMBER)) {
			up_val v = up_eval(w->ix, env, f, c);

			if (v.kind == UP_V_STR && !up_syn_is(c, UT_R_NUM))
				rc = add_str(w, values, v.s, v.n);
		} else {
			rc = collect_assert(w, env, f, c, values, depth + 1);
		}
	}
	return rc;
}

/* The values of a call's arguments, as the kind of action wants them. */
static int collect_args(up_walker *w, up_env *env, const up_file *f, const ut_syn *args,
			ut_action_kind kind, strvec *values, strvec *unres)
{
	const ut_syn *c;
	bool first = true;
	int rc = 0;

	for (c = args ? up_syn_first(args) : NULL; c && rc == 0; c = up_syn_next(c)) {
		const ut_syn *e;
		up_val v;

		if (!up_syn_is(c, UT_R_ARG) && !up_syn_is(c, UT_R_ELEM))
			continue;
		e = up_syn_is(c, UT_R_ARG_KW) ? up_syn_child(c, UT_R_ARG_KW_VALUE) : c;
		e = up_arg_expr(e);
		if (!e || up_syn_is(e, UT_R_FUNC) || is_key_member(w->ix, f, e) ||
		    is_by_member(f, e)) {
			first = false;
			continue;
		}
		/* find_element("id", "x"): the first string names the strategy */
		if (kind == UT_ACT_LOCATE && first && up_syn_is(e, UT_R_STR) && up_syn_next(c) &&
		    up_syn_is(args, UT_R_CALL_ARGS) && f->lang == UT_LANG_PYTHON) {
			first = false;
			continue;
		}
		first = false;
		if (kind == UT_ACT_OTHER && !up_syn_is(e, UT_R_STR) && !up_syn_is(e, UT_R_CONCAT) &&
		    !up_syn_is(e, UT_R_IDENT) && !up_syn_is(e, UT_R_MEMBER))
			continue;
		v = up_eval(w->ix, env, f, e);
		if (v.kind == UP_V_STR && kind == UT_ACT_OTHER && all_digits(v.s, v.n))
			continue; /* timeouts and counts, not application data */
		if (v.kind == UP_V_STR)
			rc = add_str(w, values, v.s, v.n);
		else if (v.kind == UP_V_UNRES && v.n && kind != UT_ACT_OTHER && kind != UT_ACT_CLICK)
			rc = add_str(w, unres, v.s, v.n);
		else if (v.kind == UP_V_NODE && up_syn_is(v.node, UT_R_CALL) &&
			 (kind == UT_ACT_SUBMIT || kind == UT_ACT_NAVIGATE))
			/* a call's result, directly or through a name: unresolved, never dropped */
			rc = add_str(w, unres, v.file->src.ptr + v.node->start,
				     v.node->end - v.node->start > 200 ? 200
								       : v.node->end - v.node->start);
		else if (v.kind == UP_V_NODE && !up_syn_is(e, UT_R_CALL) && !up_syn_is(e, UT_R_SEQ))
			rc = locate_from_node(w, &v); /* a locator kept in a field or constant */
	}
	return rc;
}

/* A locator defined elsewhere (a field, a constant) is reported where it is used. */
static int locate_where_used(up_walker *w, const up_file *f, const ut_syn *n, strvec *values,
			     strvec *unres)
{
	const up_file *site = w->site_file;
	unsigned line = w->site_line;
	int rc;

	if (!values->n && !unres->n)
		return 0;
	if (w->depth)
		return emit(w, f, n, UT_ACT_LOCATE, values, unres);
	w->depth++;
	w->site_file = w->cur_file;
	w->site_line = w->cur_line;
	rc = emit(w, f, n, UT_ACT_LOCATE, values, unres);
	w->depth--;
	w->site_file = site;
	w->site_line = line;
	return rc;
}

/* The strings of an @FindBy/@FindAll annotation: id = "x", css = "...", using = "...". */
static int findby_strings(up_walker *w, const up_file *f, const up_cls *cls, const ut_syn *n,
			  strvec *values, int depth)
{
	const ut_syn *c;
	int rc = 0;

	for (c = n ? up_syn_first(n) : NULL; c && rc == 0 && depth < UT_MAX_EVAL_DEPTH;
	     c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_ARG_KW_NAME)) {
			continue;
		} else if (up_syn_is(c, UT_R_STR) || up_syn_is(c, UT_R_CONCAT) ||
			   up_syn_is(c, UT_R_IDENT) || up_syn_is(c, UT_R_MEMBER)) {
			up_env scope;
			up_val v;

			up_env_init(&scope, NULL, f, cls);
			v = up_eval(w->ix, &scope, f, c);
			up_env_dispose(&scope);
			if (v.kind == UP_V_STR)
				rc = add_str(w, values, v.s, v.n);
		} else {
			rc = findby_strings(w, f, cls, c, values, depth + 1);
		}
	}
	return rc;
}

/* An @FindBy field used as an element: it locates what its annotation names. */
static int locate_element(up_walker *w, const up_ty *t)
{
	strvec values = {0}, unres = {0};
	const ut_syn *c;
	int rc = 0;

	for (c = up_syn_first(t->node); c && rc == 0; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_DECO))
			rc = findby_strings(w, t->file, t->cls, up_syn_child(c, UT_R_DECO_ARGS),
					    &values, 0);
	if (rc == 0)
		rc = locate_where_used(w, t->file, t->node, &values, &unres);
	ut_vec_free(&values);
	ut_vec_free(&unres);
	return rc;
}

/* A By.* call or (By.ID, "x") tuple bound to a name becomes a locate action where used. */
static int locate_from_node(up_walker *w, const up_val *v)
{
	strvec values = {0}, unres = {0};
	up_env scope;
	int rc = 0;
	const ut_syn *n = v->node;
	const ut_syn *recv = up_syn_is(n, UT_R_CALL) ? up_call_recv(n) : NULL;
	char buf[64];

	up_env_init(&scope, NULL, v->file, v->cls);
	/* only a locator object (By.id("x")); an element found earlier was counted there */
	if (recv && in_set(up_compact_text_buf(w->ix, v->file, recv, buf, sizeof(buf)),
			   locate_recv)) {
		rc = collect_args(w, &scope, v->file, up_call_args(n), UT_ACT_LOCATE, &values, &unres);
	} else if (up_syn_is(n, UT_R_SEQ) && up_syn_first(n) && is_by_member(v->file, up_syn_first(n))) {
		rc = collect_args(w, &scope, v->file, n, UT_ACT_LOCATE, &values, &unres);
	} else {
		goto done;
	}
	if (rc == 0)
		rc = locate_where_used(w, v->file, n, &values, &unres);
done:
	up_env_dispose(&scope);
	ut_vec_free(&values);
	ut_vec_free(&unres);
	return rc;
}

/* Binds a parameter of fn to an argument, with the argument's type or, when that is not
 * known, the parameter's declared type. */
static int bind_param(up_walker *w, up_env *callee, const up_fn *fn, size_t i, up_env *env,
		      const up_file *f, const ut_syn *e)
{
	const ut_syn *pn = fn->params[i];
	up_ty t = up_type_of(w->ix, env, f, e);

	if (t.kind == UP_TY_UNKNOWN)
		t = up_type_declared(w->ix, fn->file, pn);
	return up_env_bind_typed(callee, fn->file->src.ptr + pn->start, pn->end - pn->start,
				 up_eval(w->ix, env, f, e), t);
}

/* Walks fn's body for the call, its parameters bound to the call's arguments and `this`
 * standing for self (the receiver's class). */
static int inline_helper(up_walker *w, up_env *env, const up_file *f, const ut_syn *call,
			 const up_fn *fn, const up_cls *self)
{
	const ut_syn *args = up_call_args(call), *c;
	up_env callee;
	size_t i, p = up_fn_self_params(fn), saved_depth = w->depth;
	const char *saved_via = w->via;
	int rc = 0;

	up_env_init(&callee, NULL, fn->file, self ? self : fn->cls);
	callee.self = w->self;
	for (c = args ? up_syn_first(args) : NULL; c && rc == 0; c = up_syn_next(c)) {
		if (!up_syn_is(c, UT_R_ARG))
			continue;
		if (up_syn_is(c, UT_R_ARG_KW)) {
			const ut_syn *kn = up_syn_child(c, UT_R_ARG_KW_NAME);

			for (i = 0; kn && i < fn->nparams && rc == 0; i++)
				if (fn->params[i]->end - fn->params[i]->start == kn->end - kn->start &&
				    memcmp(fn->file->src.ptr + fn->params[i]->start,
					   f->src.ptr + kn->start, kn->end - kn->start) == 0)
					rc = bind_param(w, &callee, fn, i, env, f,
							up_syn_child(c, UT_R_ARG_KW_VALUE));
			continue;
		}
		if (p < fn->nparams)
			rc = bind_param(w, &callee, fn, p, env, f, up_arg_expr(c));
		p++;
	}
	if (rc == 0) {
		if (!w->depth) {
			const ut_syn *nm = up_call_name(call);

			w->site_file = f;
			w->site_line = up_syn_line(f->tree, call);
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
	up_env_dispose(&callee);
	return rc;
}

static bool on_stack(const up_walker *w, const up_fn *fn)
{
	size_t i;

	for (i = 0; i < w->depth; i++)
		if (w->stack[i] == fn)
			return true;
	return false;
}

static int walk_call(up_walker *w, up_env *env, const up_file *f, const ut_syn *call)
{
	ut_action_kind kind = classify(w->ix, env, f, call);
	const ut_syn *recv = up_call_recv(call), *args = up_call_args(call);
	bool saved = w->in_assert;
	strvec values = {0}, unres = {0};
	const up_fn *fn;
	const up_cls *self = NULL;
	bool unknown = false;
	up_ty rt = {0};
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
	w->cur_line = up_syn_line(f->tree, call);
	if (recv && kind != UT_ACT_ASSERT && kind != UT_ACT_LOCATE && !up_syn_is(call, UT_R_NEW))
		rt = up_type_of(w->ix, env, f, recv);
	/* a page object's own fill() or click() is followed like any of its methods */
	if ((kind == UT_ACT_OTHER || rt.kind == UP_TY_OBJECT || rt.kind == UP_TY_CLASS ||
	     rt.kind == UP_TY_MODULE) &&
	    !up_syn_is(call, UT_R_NEW)) {
		fn = up_resolve_call(w->ix, env, f, call, up_call_nargs(call), recv ? &rt : NULL,
				     &self, &unknown);
		unknown = unknown && kind == UT_ACT_OTHER;
		if (fn && !on_stack(w, fn) && w->depth < UT_MAX_INLINE_DEPTH) {
			rc = inline_helper(w, env, f, call, fn, self);
			goto done;
		}
	}
	if (kind == UT_ACT_OTHER && up_call_stays_local(w->ix, env, f, call))
		goto done; /* the environment, files, launch options: no application values */
	if (rt.kind == UP_TY_ELEMENT && (kind == UT_ACT_SUBMIT || kind == UT_ACT_CLICK)) {
		rc = locate_element(w, &rt);
		if (rc < 0)
			goto done;
	}
	if ((kind == UT_ACT_OTHER || kind == UT_ACT_ASSERT) && w->in_assert)
		goto done; /* the enclosing assertion takes the values */
	if (kind == UT_ACT_ASSERT) {
		rc = collect_assert(w, env, f, call, &values, 0);
	} else {
		rc = collect_args(w, env, f, args, kind, &values, &unres);
	}
	/* a method of an object of unknown type: its values are not lost, nor guessed */
	if (rc == 0 && unknown && up_call_nargs(call))
		rc = add_str(w, &unres, f->src.ptr + call->start,
			     call->end - call->start > 200 ? 200 : call->end - call->start);
	if (rc == 0 && (kind != UT_ACT_OTHER || values.n || unres.n))
		rc = emit(w, f, call, kind, &values, &unres);
done:
	ut_vec_free(&values);
	ut_vec_free(&unres);
	return rc;
}

static int walk_assign(up_walker *w, up_env *env, const up_file *f, const ut_syn *n)
{
	const ut_syn *target = up_syn_child(n, UT_R_ASSIGN_TARGET);
	const ut_syn *value = up_syn_child(n, UT_R_ASSIGN_VALUE);
	int rc = 0;

	if (!value)
		return walk_children(w, env, f, n);
	rc = walk_node(w, env, f, value);
	if (rc == 0 && target && up_syn_is(target, UT_R_IDENT)) {
		/* what built the value tells more than a declared interface */
		up_ty t = up_type_of(w->ix, env, f, value);

		if (t.kind == UP_TY_UNKNOWN || t.kind == UP_TY_FOREIGN) {
			up_ty declared = up_type_declared(w->ix, f, n);

			if (declared.kind != UP_TY_UNKNOWN)
				t = declared;
		}
		rc = up_env_bind_typed(env, f->src.ptr + target->start, target->end - target->start,
				       up_eval(w->ix, env, f, value), t);
	}
	return rc;
}

/* A branch that the bound values rule out does not run: invite(email, 'editor') does not
 * take `if (role === 'viewer') role = 'follower'`. Unknown conditions walk both. */
static int walk_if(up_walker *w, up_env *env, const up_file *f, const ut_syn *n)
{
	const ut_syn *cond = up_syn_child(n, UT_R_IF_COND), *c;
	int truth = up_cond(w->ix, env, f, cond), rc = 0;

	for (c = up_syn_first(n); c && rc == 0; c = up_syn_next(c)) {
		if ((truth == 0 && up_syn_is(c, UT_R_IF_THEN)) ||
		    (truth == 1 && up_syn_is(c, UT_R_IF_ELSE)))
			continue;
		rc = walk_node(w, env, f, c);
	}
	return rc;
}

#define MAX_LOOP_ELEMS 16

/* for c in text: the element stands for what is looped over, so a wrapper that types a
 * string character by character submits the string. Over a list (literal or constant),
 * the body runs once for each of its first elements, each bound in turn; only in the
 * test's own code and for an innermost loop, so that nested loops cost no more than one.
 * Elsewhere the element is unresolved, with the source text of what is looped over. */
static int walk_loop(up_walker *w, up_env *env, const up_file *f, const ut_syn *n)
{
	const ut_syn *target = up_syn_child(n, UT_R_LOOP_VAR);
	const ut_syn *value = up_syn_child(n, UT_R_LOOP_ITER);
	const ut_syn *elems[MAX_LOOP_ELEMS], *c;
	size_t nelems = 0, i;
	up_env scope;
	up_val seq = {0}, v;
	int rc = 0;

	if (!target || !value)
		return walk_children(w, env, f, n);
	rc = walk_node(w, env, f, value);
	if (rc == 0)
		seq = up_eval(w->ix, env, f, value);
	v = seq;
	up_env_init(&scope, NULL, seq.file, seq.cls);
	if (seq.kind == UP_V_NODE && up_syn_is(seq.node, UT_R_SEQ)) {
		if (w->depth == 0 && !up_syn_find(n, UT_R_LOOP, 0)) {
			for (c = up_syn_first(seq.node); c && nelems < MAX_LOOP_ELEMS;
			     c = up_syn_next(c))
				if (up_syn_is(c, UT_R_ELEM))
					elems[nelems++] = c;
		} else {
			v.kind = UP_V_UNRES;
			v.s = f->src.ptr + value->start;
			v.n = value->end - value->start > 200 ? 200 : value->end - value->start;
		}
	}
	for (i = 0; i < (nelems ? nelems : 1) && rc == 0; i++) {
		if (nelems)
			v = up_eval(w->ix, seq.node == value ? env : &scope, seq.file, elems[i]);
		rc = up_env_bind(env, f->src.ptr + target->start, target->end - target->start, v);
		for (c = up_syn_first(n); c && rc == 0; c = up_syn_next(c))
			if (c != target && c != value)
				rc = walk_node(w, env, f, c);
	}
	up_env_dispose(&scope);
	return rc;
}

static int walk_node(up_walker *w, up_env *env, const up_file *f, const ut_syn *n)
{
	int rc = 0;

	if (++w->walk_depth > UT_MAX_WALK_DEPTH) {
		w->truncated = true;
		goto done;
	}
	if (up_syn_is(n, UT_R_FUNC)) {
		/* a nested definition does not run; a lambda or callback passed along does */
		if (!up_syn_child(n, UT_R_FUNC_NAME))
			rc = walk_children(w, env, f, n);
	} else if (up_syn_is(n, UT_R_CLASS)) {
		/* not executed here */
	} else if (up_syn_is(n, UT_R_CALL)) {
		rc = walk_call(w, env, f, n);
	} else if (up_syn_is(n, UT_R_ASSIGN)) {
		rc = walk_assign(w, env, f, n);
	} else if (up_syn_is(n, UT_R_IF)) {
		rc = walk_if(w, env, f, n);
	} else if (up_syn_is(n, UT_R_LOOP)) {
		rc = walk_loop(w, env, f, n);
	} else if (up_syn_is(n, UT_R_ASSERT)) {
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
	} else if (up_syn_is(n, UT_R_SEQ) && up_syn_first(n) && is_by_member(f, up_syn_first(n))) {
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

static int walk_children(up_walker *w, up_env *env, const up_file *f, const ut_syn *n)
{
	const ut_syn *c;
	int rc = 0;

	for (c = n ? up_syn_first(n) : NULL; c && rc == 0; c = up_syn_next(c))
		rc = walk_node(w, env, f, c);
	return rc;
}

int up_walk_body(up_walker *w, up_env *env, const up_file *f, const ut_syn *body)
{
	if (!body)
		return 0;
	if (w->d)
		return record(w, env, f, body);
	/* an expression body (arrow function) is itself the code */
	if (body->roles & (UT_ROLE(UT_R_CALL) | UT_ROLE(UT_R_ASSIGN)))
		return walk_node(w, env, f, body);
	return walk_children(w, env, f, body);
}

int up_walk_fn_as(up_walker *w, const up_fn *fn, const up_cls *self, up_env *parent)
{
	up_env env;
	int rc;

	up_env_init(&env, parent, fn->file, self ? self : fn->cls);
	if (!env.self)
		env.self = w->self;
	rc = up_walk_body(w, &env, fn->file, fn->body);
	up_env_dispose(&env);
	return rc;
}
