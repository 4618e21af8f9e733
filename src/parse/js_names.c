/* js_names.c: what a JavaScript spec names when mocha loads it, beyond plain values: titles
 * with parts only the run knows (kept as ${expression}), suite factories that another
 * module exports (module.exports = function (framework) { describe(...) }), and async
 * functions called where they are written ((async () => { ... })()). */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <string.h>

#include "parse/js.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"

#define MAX_TITLE_DEPTH 16

/* One escape of a template's text (\n, \`, \$), as the string holds it. */
static void put_escape(ut_buf *b, const char *s, size_t n)
{
	static const char from[] = "ntr", to[] = "\n\t\r";
	const char *at;

	if (n < 2 || s[0] != '\\') {
		ut_buf_put(b, s, n);
		return;
	}
	at = s[1] ? strchr(from, s[1]) : NULL;
	if (at)
		ut_buf_putc(b, to[at - from]);
	else
		ut_buf_put(b, s + 1, n - 1);
}

/* Appends the title part n: its value when it has one, the parts of a template or a `+`
 * that have one and ${text} for each that does not. Counts the parts of each kind. */
static void put_part(jsctx *c, up_env *env, const ut_syn *n, ut_buf *b, int *known,
		     int *unknown, int depth)
{
	const up_file *f = c->cur;
	const ut_syn *ch;
	const char *text;
	up_val v;

	while (n && up_syn_is(n, UT_R_PAREN) && up_syn_first(n) && !up_syn_next(up_syn_first(n)))
		n = up_syn_first(n);
	if (!n)
		return;
	v = up_eval(c->d->ix, env, f, n);
	if (v.kind == UP_V_STR) {
		ut_buf_put(b, v.s, v.n);
		(*known)++;
		return;
	}
	if (depth < MAX_TITLE_DEPTH && up_syn_is(n, UT_R_STR)) {
		for (ch = up_syn_first(n); ch; ch = up_syn_next(ch)) {
			if (up_syn_is(ch, UT_R_STR_TEXT)) {
				ut_buf_put(b, f->src.ptr + ch->start, ch->end - ch->start);
				(*known)++;
			} else if (up_syn_is(ch, UT_R_STR_ESC)) {
				put_escape(b, f->src.ptr + ch->start, ch->end - ch->start);
			} else if (up_syn_is(ch, UT_R_STR_INTERP)) {
				put_part(c, env, ch, b, known, unknown, depth + 1);
			}
		}
		return;
	}
	if (depth < MAX_TITLE_DEPTH && up_syn_is(n, UT_R_CONCAT)) {
		for (ch = up_syn_first(n); ch; ch = up_syn_next(ch))
			if (up_syn_is(ch, UT_R_CONCAT_PART))
				put_part(c, env, ch, b, known, unknown, depth + 1);
		return;
	}
	/* the expression as written, its spaces and line breaks one space each */
	(*unknown)++;
	ut_buf_put(b, "${", 2);
	for (text = f->src.ptr + n->start; text < f->src.ptr + n->end; text++) {
		if (!isspace((unsigned char)*text))
			ut_buf_putc(b, *text);
		else if (text + 1 < f->src.ptr + n->end && !isspace((unsigned char)text[1]))
			ut_buf_putc(b, ' ');
	}
	ut_buf_putc(b, '}');
}

const char *up_js_title(jsctx *c, up_env *env, const ut_syn *expr)
{
	ut_buf b = UT_BUF_INIT;
	int known = 0, unknown = 0;
	const char *s;

	ut_buf_init(&b, UT_MAX_VALUE_LEN * 2);
	put_part(c, env, expr, &b, &known, &unknown, 0);
	s = ut_arena_strndup(c->d->ix->arena, b.ptr ? b.ptr : "", b.len);
	ut_buf_dispose(&b);
	return s ? s : "";
}

/* The module path of `name = require('path')` at the top of f, or NULL (length in *n). */
static const char *required_path(const up_file *f, const ut_syn *name, size_t *n)
{
	const ut_syn *a;

	for (a = up_syn_first(f->tree->root); a; a = up_syn_next(a)) {
		const ut_syn *t = up_syn_child(a, UT_R_ASSIGN_TARGET);
		const ut_syn *v = up_syn_child(a, UT_R_ASSIGN_VALUE);
		const ut_syn *nm = v && up_syn_is(v, UT_R_CALL) ? up_call_name(v) : NULL;
		const char *p, *q, *end;

		if (!up_syn_is(a, UT_R_ASSIGN) || !t || !up_syn_is(t, UT_R_IDENT) ||
		    t->end - t->start != name->end - name->start ||
		    memcmp(f->src.ptr + t->start, f->src.ptr + name->start, t->end - t->start) != 0)
			continue;
		if (!nm || up_call_recv(v) || !up_text_is(f, nm, "require") || !up_call_args(v))
			return NULL;
		p = f->src.ptr + up_call_args(v)->start;
		end = f->src.ptr + up_call_args(v)->end;
		while (p < end && *p != '\'' && *p != '"' && *p != '`')
			p++;
		for (q = p + 1; q < end && *q != *p; q++)
			;
		if (p >= end || q >= end || p[1] != '.')
			return NULL; /* a package, not a file of the suite */
		*n = (size_t)(q - p - 1);
		return p + 1;
	}
	return NULL;
}

/* Appends the path `rel` (from the suite root) of the module `path` required by `from`:
 * its folder joined with path, . and .. applied. */
static void join_path(ut_buf *b, const char *from, const char *path, size_t n)
{
	const char *slash = strrchr(from, '/');
	size_t i = 0;

	if (slash)
		ut_buf_put(b, from, (size_t)(slash - from));
	while (i < n) {
		size_t j = i;

		while (j < n && path[j] != '/')
			j++;
		if (j - i == 2 && path[i] == '.' && path[i + 1] == '.') {
			while (b->len > 0 && b->ptr[b->len - 1] != '/')
				b->len--;
			if (b->len > 0)
				b->len--;
		} else if (!(j - i == 1 && path[i] == '.') && j > i) {
			if (b->len > 0)
				ut_buf_putc(b, '/');
			ut_buf_put(b, path + i, j - i);
		}
		i = j + 1;
	}
}

/* The suite's file a relative require names, as node resolves it: the path, with .js,
 * .ts, .mjs, .cjs, or a folder's index. */
static const up_file *module_file(const up_index *ix, const up_file *from, const char *path,
				  size_t n)
{
	static const char *const tails[] = {"", ".js", ".ts", ".cjs", ".mjs", "/index.js",
					    "/index.ts", NULL};
	ut_buf b = UT_BUF_INIT;
	const up_file *found = NULL;
	size_t k, i, base;

	ut_buf_init(&b, 4096);
	join_path(&b, from->rel, path, n);
	base = b.len;
	for (k = 0; tails[k] && !found; k++) {
		b.len = base;
		ut_buf_put(&b, tails[k], strlen(tails[k]));
		for (i = 0; i < ix->files.n && !found; i++)
			if (strlen(ix->files.v[i]->rel) == b.len &&
			    memcmp(ix->files.v[i]->rel, b.ptr, b.len) == 0 &&
			    ut_lang_is_js(ix->files.v[i]->lang))
				found = ix->files.v[i];
	}
	ut_buf_dispose(&b);
	return found;
}

/* The function `node` of m, which the index keeps no name for (module.exports =
 * function ...), in c's arena. */
static const up_fn *fn_at(jsctx *c, const up_file *m, const ut_syn *node)
{
	up_fn *fn = ut_arena_alloc(&c->arena, sizeof(*fn));
	const ut_syn *params = up_syn_child(node, UT_R_FUNC_PARAMS), *p;

	if (!fn)
		return NULL;
	memset(fn, 0, sizeof(*fn));
	fn->file = m;
	fn->node = node;
	fn->body = up_syn_child(node, UT_R_FUNC_BODY);
	for (p = up_syn_first(params ? params : node); p; p = up_syn_next(p))
		if (up_syn_is(p, UT_R_PARAM) &&
		    fn->nparams < sizeof(fn->params) / sizeof(fn->params[0]))
			fn->params[fn->nparams++] = p;
	return fn;
}

/* What module m exports as a function: module.exports = function (...) {...} (or = a
 * function of m by name) when `prop` is NULL, else exports.prop / module.exports.prop /
 * a function of m named prop. */
static const up_fn *exported_fn(jsctx *c, const up_file *m, const char *prop, size_t plen)
{
	const up_index *ix = c->d->ix;
	const ut_syn *a;
	const up_fn *fn;

	if (prop) {
		for (fn = up_index_fn(ix, prop, plen); fn; fn = fn->next_same_name)
			if (fn->file == m && fn->body && !fn->cls)
				return fn;
		return NULL;
	}
	for (a = up_syn_first(m->tree->root); a; a = up_syn_next(a)) {
		const ut_syn *t = up_syn_child(a, UT_R_ASSIGN_TARGET);
		const ut_syn *v = up_syn_child(a, UT_R_ASSIGN_VALUE);

		if (!up_syn_is(a, UT_R_ASSIGN) || !t || !v || !up_text_is(m, t, "module.exports"))
			continue;
		if (up_syn_is(v, UT_R_FUNC))
			return up_index_fn_of(ix, m, v) ? up_index_fn_of(ix, m, v) : fn_at(c, m, v);
		if (up_syn_is(v, UT_R_IDENT))
			return exported_fn(c, m, m->src.ptr + v->start, v->end - v->start);
	}
	return NULL;
}

const up_fn *up_js_required_fn(jsctx *c, const ut_syn *var, const ut_syn *prop)
{
	const up_index *ix = c->d->ix;
	const up_file *m;
	const up_fn *fn;
	const char *path;
	size_t n = 0;

	if (!var || !up_syn_is(var, UT_R_IDENT))
		return NULL;
	path = required_path(c->cur, var, &n);
	m = path ? module_file(ix, c->cur, path, n) : NULL;
	if (!m || !m->tree)
		return NULL;
	fn = prop ? exported_fn(c, m, c->cur->src.ptr + prop->start, prop->end - prop->start)
		  : exported_fn(c, m, NULL, 0);
	return fn && fn->body && ut_lang_is_js(fn->file->lang) ? fn : NULL;
}

const up_fn *up_js_required_factory(jsctx *c, const ut_syn *call)
{
	const ut_syn *nm = up_call_name(call), *recv = up_call_recv(call);

	if (!nm || up_syn_is(call, UT_R_NEW))
		return NULL;
	return recv ? up_js_required_fn(c, recv, nm) : up_js_required_fn(c, nm, NULL);
}

bool up_js_awaits(const up_file *f, const ut_syn *paren)
{
	const ut_syn *fn = up_syn_first(paren), *body = fn ? up_syn_child(fn, UT_R_FUNC_BODY) : NULL;
	const char *s = fn ? f->src.ptr + fn->start : NULL;

	return body && fn->end - fn->start > 5 && memcmp(s, "async", 5) == 0 &&
	       memmem(f->src.ptr + body->start, body->end - body->start, "await", 5);
}

const ut_syn *up_js_iife_body(const up_file *f, const ut_syn *paren)
{
	const ut_syn *fn = paren ? up_syn_first(paren) : NULL;
	const char *p, *end = f->src.ptr + f->src.len;

	if (!fn || up_syn_next(fn) || !up_syn_is(fn, UT_R_FUNC))
		return NULL;
	for (p = f->src.ptr + paren->end; p < end && isspace((unsigned char)*p); p++)
		;
	return p < end && *p == '(' ? up_syn_child(fn, UT_R_FUNC_BODY) : NULL;
}
