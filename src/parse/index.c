/* index.c: what every analysed file defines (functions, classes, constants), so that a
 * test can be followed into helpers, page objects and constants of other files. */
#define _GNU_SOURCE /* memmem */
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/banned.h"

up_const_def up_ambiguous;

static const char *text_dup(up_index *ix, const up_file *f, const ut_syn *n)
{
	return ut_arena_strndup(&ix->scratch, f->src.ptr + n->start, n->end - n->start);
}

static int add_const(up_index *ix, ut_map *scope, up_file *f, up_cls *cls, const char *name,
		     const ut_syn *value, bool global)
{
	up_const_def *def = ut_arena_alloc(&ix->scratch, sizeof(*def));
	void *prev = NULL;

	if (!def || !name)
		return ut_error_set(UT_ENOMEM, "out of memory");
	def->file = f;
	def->value = value;
	def->cls = cls;
	if (ut_map_put(scope, name, strlen(name), def) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (!global)
		return 0;
	if (ut_map_find(&ix->globals, name, strlen(name), &prev))
		def = prev == def ? def : &up_ambiguous;
	if (ut_map_put(&ix->globals, name, strlen(name), def) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static void collect_params(up_fn *fn, const ut_syn *n, int depth)
{
	const ut_syn *c;

	for (c = up_syn_first(n); c && depth < 8; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_PARAM)) {
			if (fn->nparams < sizeof(fn->params) / sizeof(fn->params[0]))
				fn->params[fn->nparams++] = c;
		} else if (!up_syn_is(c, UT_R_FUNC_BODY) && !up_syn_is(c, UT_R_FUNC)) {
			collect_params(fn, c, depth + 1);
		}
	}
}

static int add_fn(up_index *ix, up_file *f, up_cls *cls, const ut_syn *node, const char *name,
		  up_fn **out)
{
	up_fn *fn = ut_arena_alloc(&ix->scratch, sizeof(*fn));
	const ut_syn *params;

	*out = fn;
	if (!fn)
		return ut_error_set(UT_ENOMEM, "out of memory");
	fn->file = f;
	fn->node = node;
	fn->cls = cls;
	fn->name = name;
	fn->body = up_syn_child(node, UT_R_FUNC_BODY);
	params = up_syn_child(node, UT_R_FUNC_PARAMS);
	collect_params(fn, params ? params : node, 0);
	/* by node too, so that discovery finds the up_fn of a syntax node */
	if (ut_map_put(&ix->fns, (const char *)&fn->node, sizeof(fn->node), fn) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (!name)
		return 0;
	fn->next_same_name = up_index_fn(ix, name, strlen(name));
	if (ut_map_put(&ix->fns, name, strlen(name), fn) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static int index_node(up_index *ix, up_file *f, const ut_syn *n, up_cls *cls, up_fn *fn,
		      int depth);

static int index_class(up_index *ix, up_file *f, const ut_syn *c, up_cls *outer, int depth)
{
	up_cls *k = ut_arena_alloc(&ix->scratch, sizeof(*k));
	const ut_syn *name = up_syn_child(c, UT_R_CLASS_NAME);
	const ut_syn *super = up_syn_find(c, UT_R_CLASS_SUPER, UT_ROLE(UT_R_FUNC) | UT_ROLE(UT_R_CLASS));

	if (!k)
		return ut_error_set(UT_ENOMEM, "out of memory");
	k->file = f;
	k->node = c;
	k->outer = outer;
	k->name = name ? text_dup(ix, f, name) : "";
	k->super = super ? up_compact_text(ix, f, super) : NULL;
	if (k->super && strchr(k->super, '.'))
		k->super = strrchr(k->super, '.') + 1;
	if (k->name[0]) {
		k->next_same_name = up_index_class(ix, k->name, strlen(k->name));
		if (ut_map_put(&ix->classes, k->name, strlen(k->name), k) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (ut_map_put(&ix->classes, (const char *)&k->node, sizeof(k->node), k) < 0 ||
	    ut_vec_push(&ix->all_classes, k) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return index_node(ix, f, c, k, NULL, depth + 1);
}

/* Python's A, B = "a", "b" at module or class level: the k-th name is a constant of the
 * k-th value (only when the counts agree: A, B = pair() binds nothing). 1 when c is one. */
static int index_unpacking(up_index *ix, up_file *f, const ut_syn *c, up_cls *cls)
{
	const ut_syn *targets[16], *values[16], *k;
	size_t nt = 0, nv = 0;
	int rc = 0;

	for (k = up_syn_first(c); k; k = up_syn_next(k)) {
		if (up_syn_is(k, UT_R_ASSIGN_TARGET) && nt < 16)
			targets[nt++] = k;
		else if (up_syn_is(k, UT_R_ASSIGN_VALUE) && nv < 16)
			values[nv++] = k;
	}
	if (nt < 2)
		return 0;
	for (size_t i = 0; rc == 0 && nt == nv && i < nt; i++) {
		if (up_syn_is(targets[i], UT_R_IDENT))
			rc = add_const(ix, cls ? &cls->constants : &f->constants, f, cls,
				       text_dup(ix, f, targets[i]), values[i], true);
	}
	return rc < 0 ? rc : 1;
}

static int index_assign(up_index *ix, up_file *f, const ut_syn *c, up_cls *cls, up_fn *fn,
			int depth)
{
	const ut_syn *target = up_syn_child(c, UT_R_ASSIGN_TARGET);
	const ut_syn *value = up_syn_child(c, UT_R_ASSIGN_VALUE);
	int rc = 0;

	if (!target || !value)
		return index_node(ix, f, c, cls, fn, depth + 1);
	if (!fn && f->lang == UT_LANG_PYTHON && (rc = index_unpacking(ix, f, c, cls)) != 0)
		return rc < 0 ? rc : index_node(ix, f, c, cls, fn, depth + 1);
	if (up_syn_is(value, UT_R_FUNC) && up_syn_is(target, UT_R_IDENT)) {
		/* const login = async (page, user) => { ... } */
		up_fn *named;

		rc = add_fn(ix, f, cls, value, text_dup(ix, f, target), &named);
		return rc < 0 ? rc : index_node(ix, f, value, cls, named, depth + 1);
	}
	if (up_syn_is(value, UT_R_FUNC) && !cls && !fn && up_syn_is(target, UT_R_MEMBER) &&
	    ut_lang_is_js(f->lang)) {
		/* exports.newEmail = (n) => ... and module.exports.x = function () {} */
		const ut_syn *obj = up_syn_child(target, UT_R_MEMBER_OBJ);
		const ut_syn *prop = up_syn_child(target, UT_R_MEMBER_PROP);
		up_fn *named;

		if (obj && prop &&
		    (up_text_is(f, obj, "exports") || up_text_is(f, obj, "module.exports"))) {
			rc = add_fn(ix, f, cls, value, text_dup(ix, f, prop), &named);
			return rc < 0 ? rc : index_node(ix, f, value, cls, named, depth + 1);
		}
	}
	if (!fn && up_syn_is(target, UT_R_IDENT))
		rc = add_const(ix, cls ? &cls->constants : &f->constants, f, cls,
			       text_dup(ix, f, target), value, true);
	else if (fn &&
		 (up_syn_is(target, UT_R_IDENT) || (!cls && up_syn_is(target, UT_R_MEMBER))) &&
		 f->lang != UT_LANG_JAVA && f->lang != UT_LANG_PYTHON &&
		 !ut_map_find(&f->assigned, f->src.ptr + target->start, target->end - target->start,
			      NULL))
		/* and mocha's this.page = new P() in a hook, keyed "this.page" */
		rc = add_const(ix, &f->assigned, f, cls, text_dup(ix, f, target), value, false);
	else if (fn && cls && up_syn_is(target, UT_R_MEMBER)) {
		const ut_syn *obj = up_syn_child(target, UT_R_MEMBER_OBJ);
		const ut_syn *prop = up_syn_child(target, UT_R_MEMBER_PROP);

		if (obj && prop && up_is_self(f, obj) && !ut_map_find(&cls->constants,
			f->src.ptr + prop->start, prop->end - prop->start, NULL))
			rc = add_const(ix, &cls->constants, f, cls, text_dup(ix, f, prop), value,
				       false);
	}
	return rc < 0 ? rc : index_node(ix, f, value, cls, fn, depth + 1);
}

/* TypeScript's constructor(private page: LoginPage) declares the field this.page. */
static bool param_property(const up_file *f, const up_fn *fn, const ut_syn *decl)
{
	static const char *const modifiers[] = {"private", "public", "protected", "readonly"};
	const char *s = f->src.ptr + decl->start;
	size_t i, n = decl->end - decl->start;

	if (!fn->name || strcmp(fn->name, "constructor") != 0)
		return false;
	for (i = 0; i < sizeof(modifiers) / sizeof(modifiers[0]); i++)
		if (n > strlen(modifiers[i]) && strncmp(s, modifiers[i], strlen(modifiers[i])) == 0)
			return true;
	return false;
}

/* A declared field: its type and annotations tell what calls on it do. */
static int index_field(const up_file *f, const ut_syn *decl, up_cls *cls)
{
	const ut_syn *c;

	for (c = up_syn_first(decl); c; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_DECL_NAME) && ut_map_put(&cls->fields, f->src.ptr + c->start,
							       c->end - c->start, (void *)decl) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static int index_node(up_index *ix, up_file *f, const ut_syn *n, up_cls *cls, up_fn *fn,
		      int depth)
{
	const ut_syn *c;
	int rc = 0;

	if (depth > UT_MAX_WALK_DEPTH) {
		ut_diags_add(ix->diags, UT_DIAG_WARNING, f->rel, up_syn_line(f->tree, n),
			     "nesting deeper than %d levels is not analysed", UT_MAX_WALK_DEPTH);
		return 0;
	}
	for (c = up_syn_first(n); c && rc == 0; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_CLASS)) {
			rc = index_class(ix, f, c, cls, depth);
		} else if (up_syn_is(c, UT_R_FUNC)) {
			const ut_syn *name = up_syn_child(c, UT_R_FUNC_NAME);
			up_fn *def = NULL;

			rc = add_fn(ix, f, cls, c, name ? text_dup(ix, f, name) : NULL, &def);
			if (rc == 0)
				rc = index_node(ix, f, c, cls, def, depth + 1);
		} else if (up_syn_is(c, UT_R_ASSIGN)) {
			rc = index_assign(ix, f, c, cls, fn, depth);
		} else if (up_syn_is(c, UT_R_DECL) && cls && (!fn || param_property(f, fn, c))) {
			rc = index_field(f, c, cls);
			if (rc == 0)
				rc = index_node(ix, f, c, cls, fn, depth + 1);
		} else if (up_syn_is(c, UT_R_PACKAGE) && !f->package[0]) {
			const char *t = up_compact_text(ix, f, c);

			/* "package a.b.c;" -> "a.b.c" */
			if (strncmp(t, "package", 7) == 0)
				t += 7;
			f->package = ut_arena_strndup(&ix->scratch, t, strcspn(t, ";"));
		} else if (up_syn_first(c)) {
			rc = index_node(ix, f, c, cls, fn, depth + 1);
		}
	}
	return rc;
}

/* Where a JavaScript file says require(: every call of its tests asks what a name was
 * required from (local.c), and a scan of the file per call made them quadratic. */
static int index_requires(up_index *ix, up_file *f)
{
	const char *s = f->src.ptr, *end = s + f->src.len, *p;
	size_t n = 0, *at;

	if (!ut_lang_is_js(f->lang) || !s)
		return 0;
	for (p = s; (p = memmem(p, (size_t)(end - p), "require(", 8)) != NULL; p += 8)
		n++;
	if (!n)
		return 0;
	at = ut_arena_alloc(&ix->scratch, n * sizeof(*at));
	if (!at)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (n = 0, p = s; (p = memmem(p, (size_t)(end - p), "require(", 8)) != NULL; p += 8)
		at[n++] = (size_t)(p - s);
	f->requires = at;
	f->nrequires = n;
	return 0;
}

int up_index_add_file(up_index *ix, up_file *f)
{
	int rc;

	if (!f->package)
		f->package = "";
	if (ut_vec_push(&ix->files, f) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = index_requires(ix, f);
	return rc < 0 ? rc : index_node(ix, f, f->tree->root, NULL, NULL, 0);
}

up_fn *up_index_fn(const up_index *ix, const char *name, size_t nlen)
{
	return ut_map_get(&ix->fns, name, nlen);
}

up_cls *up_index_class(const up_index *ix, const char *name, size_t nlen)
{
	return ut_map_get(&ix->classes, name, nlen);
}

up_cls *up_index_super(const up_index *ix, const up_cls *k)
{
	up_cls *s = k && k->super ? up_index_class(ix, k->super, strlen(k->super)) : NULL;

	return s == k ? NULL : s;
}

const up_fn *up_index_dispatch(const up_index *ix, const up_cls *self, const up_cls *from,
			       const char *name, size_t nlen, size_t nargs)
{
	const up_cls *k, *chain[UT_MAX_SUPER];
	const up_fn *fn;
	size_t n = 0, i;
	bool inside = false;

	for (k = self; k && n < UT_MAX_SUPER; k = up_index_super(ix, k)) {
		chain[n++] = k;
		inside |= k == from;
	}
	if (!inside)
		for (n = 0, k = from; k && n < UT_MAX_SUPER; k = up_index_super(ix, k))
			chain[n++] = k;
	for (i = 0; i < n; i++)
		for (fn = up_index_fn(ix, name, nlen); fn; fn = fn->next_same_name)
			if (fn->cls == chain[i] && fn->body && !fn->is_test &&
			    fn->nparams - up_fn_self_params(fn) == nargs)
				return fn;
	return NULL;
}

up_cls *up_index_class_of(const up_index *ix, const up_file *f, const ut_syn *node)
{
	(void)f;
	return ut_map_get(&ix->classes, (const char *)&node, sizeof(node));
}

up_fn *up_index_fn_of(const up_index *ix, const up_file *f, const ut_syn *node)
{
	(void)f;
	return ut_map_get(&ix->fns, (const char *)&node, sizeof(node));
}
