/* eval.c: what string an expression stands for. Literals, escapes, f-strings and template
 * literals, concatenation, locals, constants and fields; anything else is "unresolved"
 * with its source text, never guessed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/banned.h"

static up_val unresolved(const up_file *f, const ut_syn *n)
{
	up_val v = {0};

	v.kind = UP_V_UNRES;
	v.s = f->src.ptr + n->start;
	v.n = n->end - n->start;
	if (v.n > 200)
		v.n = 200;
	return v;
}

static up_val node_val(const up_file *f, const ut_syn *n, const up_cls *cls)
{
	up_val v = {0};

	v.kind = UP_V_NODE;
	v.file = f;
	v.node = n;
	v.cls = cls;
	return v;
}

static void put_utf8(ut_buf *b, unsigned long cp)
{
	char out[4];

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		out[0] = (char)cp;
		ut_buf_put(b, out, 1);
	} else if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		ut_buf_put(b, out, 2);
	} else if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		ut_buf_put(b, out, 3);
	} else {
		out[0] = (char)(0xf0 | (cp >> 18));
		out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[3] = (char)(0x80 | (cp & 0x3f));
		ut_buf_put(b, out, 4);
	}
}

static unsigned long hex_value(const char *s, size_t n, size_t *used)
{
	unsigned long v = 0;
	size_t i;

	for (i = 0; i < n && isxdigit((unsigned char)s[i]); i++)
		v = v * 16 + (unsigned long)(isdigit((unsigned char)s[i]) ? s[i] - '0'
					     : (tolower((unsigned char)s[i]) - 'a' + 10));
	*used = i;
	return v;
}

/* Decodes backslash escapes of s[0..n) into b. */
static void decode_escapes(ut_buf *b, const char *s, size_t n)
{
	size_t i = 0, used;
	unsigned long cp;

	while (i < n) {
		char c = s[i];

		if (c != '\\' || i + 1 >= n) {
			ut_buf_put(b, s + i, 1);
			i++;
			continue;
		}
		c = s[i + 1];
		i += 2;
		switch (c) {
		case 'n': ut_buf_putc(b, '\n'); break;
		case 't': ut_buf_putc(b, '\t'); break;
		case 'r': ut_buf_putc(b, '\r'); break;
		case 'b': ut_buf_putc(b, '\b'); break;
		case 'f': ut_buf_putc(b, '\f'); break;
		case 'v': ut_buf_putc(b, '\v'); break;
		case '\n': break; /* line continuation */
		case 'x':
			cp = hex_value(s + i, n - i < 2 ? n - i : 2, &used);
			i += used;
			put_utf8(b, cp);
			break;
		case 'u':
			if (i < n && s[i] == '{') {
				cp = hex_value(s + i + 1, n - i - 1 < 6 ? n - i - 1 : 6, &used);
				i += used + 1;
				if (i < n && s[i] == '}')
					i++;
			} else {
				while (i < n && s[i] == 'u') /* Java allows \uuuu0041 */
					i++;
				cp = hex_value(s + i, n - i < 4 ? n - i : 4, &used);
				i += used;
			}
			put_utf8(b, cp);
			break;
		case 'U':
			cp = hex_value(s + i, n - i < 8 ? n - i : 8, &used);
			i += used;
			put_utf8(b, cp);
			break;
		default:
			if (c >= '0' && c <= '7') {
				cp = (unsigned long)(c - '0');
				for (used = 0; used < 2 && i < n && s[i] >= '0' && s[i] <= '7'; used++)
					cp = cp * 8 + (unsigned long)(s[i++] - '0');
				put_utf8(b, cp);
			} else {
				ut_buf_putc(b, c);
			}
		}
	}
}

static up_val eval_depth(const up_index *ix, const up_env *env, const up_file *f,
			 const ut_syn *n, int depth);

/* Appends at most what still fits in a value; longer values are cut, not dropped. */
static void put_capped(ut_buf *b, const char *s, size_t n)
{
	size_t room = b->len < UT_MAX_VALUE_LEN ? UT_MAX_VALUE_LEN - b->len : 0;

	ut_buf_put(b, s, n < room ? n : room);
}

static up_val str_val(const up_index *ix, ut_buf *b)
{
	up_val v = {0};
	size_t len = b->len > UT_MAX_VALUE_LEN ? UT_MAX_VALUE_LEN : b->len;

	v.kind = UP_V_STR;
	v.s = ut_arena_strndup(ix->temp, b->ptr, len);
	v.n = len;
	if (!v.s)
		v.kind = UP_V_NONE;
	return v;
}

/* Text of a literal without children: strip prefix letters and quotes, then decode. */
static void bare_literal(ut_buf *b, const char *s, size_t n, bool raw)
{
	size_t i = 0, q;
	char quote;

	while (i < n && isalpha((unsigned char)s[i])) {
		if (s[i] == 'r' || s[i] == 'R')
			raw = true;
		i++;
	}
	if (i >= n)
		return;
	quote = s[i];
	for (q = 0; i + q < n && s[i + q] == quote && q < 3; q++)
		;
	if (q == 2) /* "" */
		return;
	if (n - i < 2 * q)
		return;
	if (raw)
		put_capped(b, s + i + q, n - i - 2 * q);
	else
		decode_escapes(b, s + i + q, n - i - 2 * q);
}

static up_val eval_str(const up_index *ix, const up_env *env, const up_file *f,
		       const ut_syn *n, int depth)
{
	ut_buf b = UT_BUF_INIT;
	const ut_syn *c;
	const char *s = f->src.ptr + n->start;
	bool raw = false, fstring = false, parts = false;
	size_t i;
	up_val v;

	ut_buf_init(&b, UT_MAX_VALUE_LEN * 2);
	if (f->lang == UT_LANG_PYTHON) {
		for (i = 0; i < n->end - n->start && isalpha((unsigned char)s[i]); i++) {
			raw |= s[i] == 'r' || s[i] == 'R';
			fstring |= s[i] == 'f' || s[i] == 'F';
		}
	}
	for (c = up_syn_first(n); c; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_STR_TEXT)) {
			uint32_t pos = c->start;
			const ut_syn *e;

			parts = true;
			/* escapes nested in the fragment (Python) are decoded in place */
			for (e = up_syn_first(c); e; e = up_syn_next(e)) {
				if (!up_syn_is(e, UT_R_STR_ESC))
					continue;
				put_capped(&b, f->src.ptr + pos, e->start - pos);
				if (raw)
					put_capped(&b, f->src.ptr + e->start, e->end - e->start);
				else
					decode_escapes(&b, f->src.ptr + e->start, e->end - e->start);
				pos = e->end;
			}
			if (fstring) {
				/* {{ and }} are literal braces in f-strings */
				for (i = pos; i < c->end; i++) {
					ut_buf_putc(&b, f->src.ptr[i]);
					if ((f->src.ptr[i] == '{' || f->src.ptr[i] == '}') &&
					    i + 1 < c->end && f->src.ptr[i + 1] == f->src.ptr[i])
						i++;
				}
			} else {
				put_capped(&b, f->src.ptr + pos, c->end - pos);
			}
		} else if (up_syn_is(c, UT_R_STR_ESC)) {
			parts = true;
			decode_escapes(&b, f->src.ptr + c->start, c->end - c->start);
		} else if (up_syn_is(c, UT_R_STR_INTERP)) {
			up_val part = eval_depth(ix, env, f, c, depth + 1);

			parts = true;
			if (part.kind != UP_V_STR) {
				ut_buf_dispose(&b);
				return unresolved(f, n);
			}
			put_capped(&b, part.s, part.n);
		}
	}
	if (!parts)
		bare_literal(&b, s, n->end - n->start, raw);
	v = str_val(ix, &b);
	ut_buf_dispose(&b);
	return v;
}

static up_val eval_concat(const up_index *ix, const up_env *env, const up_file *f,
			  const ut_syn *n, int depth)
{
	ut_buf b = UT_BUF_INIT;
	const ut_syn *c;
	bool any_str = false;
	up_val v;

	ut_buf_init(&b, UT_MAX_VALUE_LEN * 2);
	for (c = up_syn_first(n); c; c = up_syn_next(c)) {
		up_val part;

		if (!up_syn_is(c, UT_R_CONCAT_PART))
			continue;
		part = eval_depth(ix, env, f, c, depth + 1);
		if (part.kind != UP_V_STR) {
			ut_buf_dispose(&b);
			return unresolved(f, n);
		}
		any_str |= !up_syn_is(c, UT_R_NUM);
		put_capped(&b, part.s, part.n);
	}
	if (!any_str) { /* 1 + 2 is arithmetic, not a string */
		ut_buf_dispose(&b);
		return unresolved(f, n);
	}
	v = str_val(ix, &b);
	ut_buf_dispose(&b);
	return v;
}

typedef struct {
	const up_index *ix;
	const up_const_def *def;
	int depth;
	up_val v;
} def_eval;

static void run_eval_def(void *arg)
{
	def_eval *e = arg;
	up_env scope;

	up_env_init(&scope, NULL, e->def->file, e->def->cls);
	e->v = eval_depth(e->ix, &scope, e->def->file, e->def->value, e->depth + 1);
	up_env_dispose(&scope);
}

static up_val eval_def(const up_index *ix, up_const_def *def, int depth)
{
	def_eval e = {ix, def, depth, {0}};

	if (depth > UT_MAX_EVAL_DEPTH || !up_def_guarded(ix->ctx, def, run_eval_def, &e)) {
		e.v.kind = UP_V_UNRES;
		e.v.s = "";
		e.v.n = 0;
	}
	return e.v;
}

up_const_def *up_class_const(const up_index *ix, const up_cls *cls, const char *name, size_t nlen)
{
	int guard = 0;

	while (cls && guard++ < 16) {
		up_const_def *def = ut_map_get(&cls->constants, name, nlen);
		const up_cls *k;

		if (def)
			return def;
		/* outer classes see their constants too; then the superclass */
		for (k = cls->outer; k; k = k->outer)
			if ((def = ut_map_get(&k->constants, name, nlen)) != NULL)
				return def;
		cls = up_index_super(ix, cls);
	}
	return NULL;
}

static up_val lookup_depth(const up_index *ix, const up_env *env, const char *name,
			   size_t nlen, int depth)
{
	const up_env *e;
	const up_binding *b = up_env_find(env, name, nlen);
	const up_file *file = NULL;
	up_const_def *def = NULL;
	up_val none = {0};

	if (b)
		return b->val;
	for (e = env; e && !file; e = e->parent)
		file = e->file;
	def = up_class_const(ix, up_env_class(env), name, nlen);
	if (!def && file)
		def = ut_map_get(&file->constants, name, nlen);
	if (!def)
		def = ut_map_get(&ix->globals, name, nlen);
	if (!def)
		return none;
	return eval_def(ix, def, depth);
}

up_val up_lookup(const up_index *ix, const up_env *env, const char *name, size_t nlen)
{
	return lookup_depth(ix, env, name, nlen, 0);
}

/* s.name where s is bound to an object literal ({name: 'a'}): that field's value. */
static up_val object_field(const up_index *ix, const up_val *obj, const char *pname,
			   size_t plen, const ut_syn *n, const up_file *f, int depth)
{
	const ut_syn *c;

	for (c = up_syn_first(obj->node); c; c = up_syn_next(c)) {
		const ut_syn *t = up_syn_child(c, UT_R_ASSIGN_TARGET);

		if (up_syn_is(c, UT_R_ASSIGN) && t && t->end - t->start == plen &&
		    memcmp(obj->file->src.ptr + t->start, pname, plen) == 0) {
			up_env scope;
			up_val v;

			up_env_init(&scope, NULL, obj->file, NULL);
			v = eval_depth(ix, &scope, obj->file, up_syn_child(c, UT_R_ASSIGN_VALUE),
				       depth + 1);
			up_env_dispose(&scope);
			return v;
		}
	}
	return unresolved(f, n);
}

static up_val eval_member(const up_index *ix, const up_env *env, const up_file *f,
			  const ut_syn *n, int depth)
{
	const ut_syn *obj = up_syn_child(n, UT_R_MEMBER_OBJ);
	const ut_syn *prop = up_syn_child(n, UT_R_MEMBER_PROP);
	const char *pname;
	size_t plen;
	up_const_def *def = NULL;

	if (!obj || !prop)
		return unresolved(f, n);
	pname = f->src.ptr + prop->start;
	plen = prop->end - prop->start;
	if (up_is_self(f, obj)) {
		def = up_class_const(ix, up_env_class(env), pname, plen);
	} else if (up_syn_is(obj, UT_R_IDENT)) {
		const up_cls *k = up_index_class(ix, f->src.ptr + obj->start, obj->end - obj->start);
		up_val local;

		if (k) {
			def = up_class_const(ix, k, pname, plen);
		} else {
			/* a module alias (import config; config.ADMIN) */
			local = lookup_depth(ix, env, f->src.ptr + obj->start,
					     obj->end - obj->start, depth + 1);
			if (local.kind == UP_V_NONE)
				def = ut_map_get(&ix->globals, pname, plen);
			else if (local.kind == UP_V_NODE && local.node)
				return object_field(ix, &local, pname, plen, n, f, depth);
		}
	} else if (up_syn_is(obj, UT_R_MEMBER)) {
		/* Outer.Inner.NAME or package.Class.NAME: the last class wins */
		const ut_syn *inner = up_syn_child(obj, UT_R_MEMBER_PROP);
		const up_cls *k = inner ? up_index_class(ix, f->src.ptr + inner->start,
							 inner->end - inner->start) : NULL;

		if (k)
			def = up_class_const(ix, k, pname, plen);
	}
	if (!def)
		return unresolved(f, n);
	return eval_def(ix, def, depth);
}

/* The value of a call to a JavaScript function of the suite whose body is one expression
 * (exports.newEmail = (n) => n + Date.now() + '@example.com'), with the arguments bound:
 * a string, or unresolved with the expression's text. Functions of classes are left to
 * the walker, which knows the receiver; NONE when there is no such function. */
static up_val call_result(const up_index *ix, const up_env *env, const up_file *f,
			  const ut_syn *call, int depth)
{
	const ut_syn *nm = up_call_name(call), *args = up_call_args(call), *a, *body = NULL;
	const up_fn *fn, *only = NULL;
	up_val none = {0}, v;
	up_env scope;
	size_t p = 0;

	if (!nm || !ut_lang_is_js(f->lang))
		return none;
	for (fn = up_index_fn(ix, f->src.ptr + nm->start, nm->end - nm->start); fn;
	     fn = fn->next_same_name) {
		if (fn->cls || fn->is_test || !fn->body || !ut_lang_is_js(fn->file->lang))
			continue;
		if (only)
			return none; /* two functions of that name: not guessed */
		only = fn;
	}
	if (only && only->body->roles & UT_VALUE_ROLES && !up_syn_is(only->body, UT_R_CALL))
		body = only->body;
	if (!body)
		return none;
	up_env_init(&scope, NULL, only->file, NULL);
	for (a = args ? up_syn_first(args) : NULL; a; a = up_syn_next(a)) {
		if (!up_syn_is(a, UT_R_ARG))
			continue;
		if (p < only->nparams &&
		    up_env_bind(&scope, only->file->src.ptr + only->params[p]->start,
				only->params[p]->end - only->params[p]->start,
				eval_depth(ix, env, f, up_arg_expr(a), depth + 1)) < 0)
			break;
		p++;
	}
	v = eval_depth(ix, &scope, only->file, body, depth + 1);
	up_env_dispose(&scope);
	if (v.kind == UP_V_UNRES)
		return unresolved(only->file, body);
	return v.kind == UP_V_STR ? v : none;
}

static up_val eval_depth(const up_index *ix, const up_env *env, const up_file *f,
			 const ut_syn *n, int depth);

/* Is `return` the only word in body before expr ("{ return expr; }")? */
static bool returns(const up_file *f, const ut_syn *body, const ut_syn *expr)
{
	const char *s = f->src.ptr + body->start, *end = f->src.ptr + expr->start;

	while (s < end && (*s == '{' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	if (end - s < 6 || memcmp(s, "return", 6) != 0)
		return false;
	for (s += 6; s < end; s++)
		if (!(*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '('))
			return false;
	return true;
}

/* A call without arguments on `this` (or on nothing), in a test's object, of a method that
 * only returns an expression (`String user() { return "admin"; }`): that expression's
 * value, the method found from the test's class first (an override). */
static up_val eval_returned(const up_index *ix, const up_env *env, const up_file *f,
			    const ut_syn *call, int depth)
{
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call);
	const ut_syn *args = up_call_args(call), *stmt;
	const up_fn *fn;
	up_val v = {0};
	up_env scope;

	if (!env || !env->self || !nm || (recv && !up_is_self(f, recv)) ||
	    (args && up_syn_find(args, UT_R_ARG, 0)))
		return v;
	fn = up_index_dispatch(ix, env->self, up_env_class(env), f->src.ptr + nm->start,
			       nm->end - nm->start, 0);
	/* the body's one expression, after `return` (statements themselves have no node) */
	stmt = fn ? up_syn_first(fn->body) : NULL;
	if (!stmt || up_syn_next(stmt) || !returns(fn->file, fn->body, stmt))
		return v;
	up_env_init(&scope, NULL, fn->file, fn->cls);
	scope.self = env->self;
	v = eval_depth(ix, &scope, fn->file, stmt, depth + 1);
	up_env_dispose(&scope);
	return v;
}

static up_val eval_depth(const up_index *ix, const up_env *env, const up_file *f,
			 const ut_syn *n, int depth)
{
	up_val none = {0};

	if (!n)
		return none;
	if (depth > UT_MAX_EVAL_DEPTH)
		return unresolved(f, n);
	if (up_syn_is(n, UT_R_STR))
		return eval_str(ix, env, f, n, depth);
	if (up_syn_is(n, UT_R_CONCAT))
		return eval_concat(ix, env, f, n, depth);
	if (up_syn_is(n, UT_R_NUM)) {
		up_val v = {0};

		v.kind = UP_V_STR;
		v.s = f->src.ptr + n->start;
		v.n = n->end - n->start;
		return v;
	}
	if (up_syn_is(n, UT_R_IDENT)) {
		up_val v = lookup_depth(ix, env, f->src.ptr + n->start, n->end - n->start, depth);

		return v.kind == UP_V_NONE ? unresolved(f, n) : v;
	}
	if (up_syn_is(n, UT_R_MEMBER))
		return eval_member(ix, env, f, n, depth);
	if (up_syn_is(n, UT_R_CALL) && !up_syn_is(n, UT_R_NEW)) {
		up_val r = call_result(ix, env, f, n, depth);

		if (r.kind == UP_V_STR || r.kind == UP_V_UNRES)
			return r;
		r = eval_returned(ix, env, f, n, depth);
		if (r.kind == UP_V_STR)
			return r;
	}
	if (up_syn_is(n, UT_R_SEQ) || up_syn_is(n, UT_R_CALL) || up_syn_is(n, UT_R_FUNC))
		return node_val(f, n, up_env_class(env));
	if (up_syn_is(n, UT_R_PAREN) || !(n->roles & UT_VALUE_ROLES)) {
		/* parentheses and uncaptured wrappers with one operand (await, casts, spreads)
		 * stand for it; os.environ["X"] or a ? b : c does not */
		const ut_syn *c, *only = NULL;
		int count = 0;

		for (c = up_syn_first(n); c; c = up_syn_next(c))
			if (c->roles & UT_VALUE_ROLES) {
				only = c;
				count++;
			}
		if (count == 1)
			return eval_depth(ix, env, f, only, depth + 1);
		return unresolved(f, n);
	}
	return unresolved(f, n);
}

up_val up_eval(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n)
{
	return eval_depth(ix, env, f, n, 0);
}
