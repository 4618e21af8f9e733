/* python_params.c: @pytest.mark.parametrize read as pytest reads it: the cases of a test,
 * each with the id pytest's IdMaker gives it (_pytest/python.py) and the values its
 * argument names are bound to, so each case's actions carry that case's values. */
#include <ctype.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/python.h"
#include "util/error.h"
#include "util/banned.h"

#define MAX_NAMES 16

typedef struct {
	const up_index *ix;
	ut_diags *diags;
	const up_file *f; /* the file of the mark */
	uint32_t at;	  /* where the mark is: names are bound as they are there */
	const char *names[MAX_NAMES];
	size_t nlen[MAX_NAMES];
	size_t nnames;
} mark;

size_t up_py_decorators(const ut_syn *def, const ut_syn **out, size_t max)
{
	const ut_syn *c, *parent = up_syn_parent(def);
	size_t n = 0;

	if (!parent)
		return 0;
	for (c = up_syn_first(parent); c && c != def; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_DECO)) {
			if (n < max)
				out[n++] = c;
		} else {
			n = 0;
		}
	}
	return c ? n : 0;
}

/* A warning about a mark read for every test it applies to is given once. */
static void warn_once(ut_diags *d, const up_file *f, const ut_syn *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void warn_once(ut_diags *d, const up_file *f, const ut_syn *n, const char *fmt, ...)
{
	char msg[512];
	unsigned line = up_syn_line(f->tree, n);
	size_t i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (i = d->items.n; i-- > 0 && d->items.n - i <= 64;)
		if (d->items.v[i].line == line && d->items.v[i].file &&
		    strcmp(d->items.v[i].file, f->rel) == 0 &&
		    strcmp(d->items.v[i].message, msg) == 0)
			return;
	ut_diags_add(d, UT_DIAG_WARNING, f->rel, line, "%s", msg);
}

void up_py_cases_dispose(ut_py_cases *c)
{
	if (!c)
		return;
	ut_vec_free(&c->cases);
	ut_vec_free(&c->bindings);
	ut_vec_free(&c->indices);
}

static bool call_named(const up_file *f, const ut_syn *n, const char *name)
{
	const ut_syn *nm = n && up_syn_is(n, UT_R_CALL) ? up_call_name(n) : NULL;

	return nm && up_text_is(f, nm, name);
}

/* The parametrize call of a decorator, or NULL: @pytest.mark.parametrize(...), or a name
 * the module binds to one (by_user = pytest.mark.parametrize(...); @by_user). */
static const ut_syn *parametrize_call(const up_file *f, const ut_syn *deco)
{
	const ut_syn *call = up_syn_find(deco, UT_R_CALL, 0), *name;
	const up_const_def *def;

	if (call)
		return call_named(f, call, "parametrize") ? call : NULL;
	name = up_syn_first(deco);
	if (!name || !up_syn_is(name, UT_R_IDENT) || up_syn_next(name))
		return NULL;
	def = ut_map_get(&f->constants, f->src.ptr + name->start, name->end - name->start);
	if (!def || def == &up_ambiguous || def->file != f || def->cls)
		return NULL;
	return call_named(f, def->value, "parametrize") ? def->value : NULL;
}

/* pytest's ascii_escaped: str.encode("unicode_escape") of the UTF-8 value. */
static void put_escaped(ut_buf *b, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		unsigned long cp = c;
		size_t len = 1, k;

		if (c >= 0xc0 && c < 0xf8) {
			len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
			cp = c & (0x3f >> (len - 1));
			for (k = 1;
			     k < len && i + k < n && ((unsigned char)s[i + k] & 0xc0) == 0x80; k++)
				cp = (cp << 6) | ((unsigned char)s[i + k] & 0x3f);
			if (k < len) { /* not UTF-8: the byte as it is */
				len = 1;
				cp = c;
			}
		}
		i += len;
		if (cp == '\\')
			ut_buf_puts(b, "\\\\");
		else if (cp == '\t')
			ut_buf_puts(b, "\\t");
		else if (cp == '\n')
			ut_buf_puts(b, "\\n");
		else if (cp == '\r')
			ut_buf_puts(b, "\\r");
		else if (cp < 0x20 || (cp >= 0x7f && cp < 0x100))
			ut_buf_printf(b, "\\x%02lx", cp);
		else if (cp >= 0x100 && cp < 0x10000)
			ut_buf_printf(b, "\\u%04lx", cp);
		else if (cp >= 0x10000)
			ut_buf_printf(b, "\\U%08lx", cp);
		else
			ut_buf_putc(b, (char)cp);
	}
}

/* str() of a Python number literal (signed, underscores, hex, floats), or false. */
static bool number_text(ut_buf *b, const char *s)
{
	char digits[64];
	size_t i, j = 0;
	const char *p = s;
	bool neg = false, is_float = false;

	while (*p == '-' || *p == '+')
		neg ^= *p++ == '-';
	if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
		return false;
	for (i = 0; p[i]; i++) {
		if (p[i] == '_')
			continue;
		if (j + 1 >= sizeof(digits) || !(isalnum((unsigned char)p[i]) || p[i] == '.' ||
						 ((p[i] == '+' || p[i] == '-') && i &&
						  tolower((unsigned char)p[i - 1]) == 'e')))
			return false;
		digits[j++] = p[i];
	}
	digits[j] = '\0';
	if (digits[0] == '0' && digits[1] && strchr("xXoObB", digits[1])) {
		int base = strchr("xX", digits[1]) ? 16 : strchr("oO", digits[1]) ? 8 : 2;
		char *end;
		unsigned long long v = strtoull(digits + 2, &end, base);

		if (*end)
			return false;
		ut_buf_printf(b, "%s%llu", neg && v ? "-" : "", v);
		return true;
	}
	is_float = strpbrk(digits, ".eE") != NULL;
	if (!is_float) {
		for (i = 0; digits[i] == '0' && digits[i + 1]; i++)
			;
		if (strspn(digits + i, "0123456789") != strlen(digits + i))
			return false;
		ut_buf_printf(b, "%s%s", neg && strcmp(digits + i, "0") ? "-" : "", digits + i);
		return true;
	} else {
		char *end, out[64];
		double d = strtod(digits, &end);
		int prec, exp10 = 0;

		if (*end)
			return false;
		if (neg)
			d = -d;
		if (d > DBL_MAX || d < -DBL_MAX) { /* 1e999 */
			ut_buf_puts(b, d < 0 ? "-inf" : "inf");
			return true;
		}
		/* repr(): the shortest digits that read back; fixed for 1e-4 <= |d| < 1e16 */
		for (prec = 1; prec <= 17; prec++) {
			snprintf(out, sizeof(out), "%.*e", prec - 1, d);
			if (strtod(out, NULL) == d)
				break;
		}
		exp10 = (int)strtol(strchr(out, 'e') + 1, NULL, 10);
		if (d != 0 && (exp10 < -4 || exp10 >= 16))
			ut_buf_puts(b, out);
		else
			ut_buf_printf(b, "%.*f", prec - 1 - exp10 > 1 ? prec - 1 - exp10 : 1, d);
		return true;
	}
}

static bool capwords(const char *s, size_t n)
{
	size_t i;
	bool lower = false;

	if (!n || !isupper((unsigned char)s[0]))
		return false;
	for (i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]))
			return false;
		lower |= islower((unsigned char)s[i]) != 0;
	}
	return lower;
}

/* joinpath, __init__: a method's name, not a constant's (RED) */
static bool method_like(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == '_')
		i++;
	return i < n && islower((unsigned char)s[i]);
}

/* pytest's id of one value (_idval_from_value), else argname + index. */
static void value_id(ut_buf *b, const mark *m, const up_env *scope, const up_file *f,
		     const ut_syn *n, size_t arg, size_t idx)
{
	const char *t = up_compact_text(m->ix, f, n);
	up_val v;

	if (strcmp(t, "None") == 0 || strcmp(t, "True") == 0 || strcmp(t, "False") == 0) {
		ut_buf_puts(b, t);
		return;
	}
	if (number_text(b, t))
		return;
	if (n->roles & (UT_ROLE(UT_R_STR) | UT_ROLE(UT_R_CONCAT) | UT_ROLE(UT_R_IDENT) |
			UT_ROLE(UT_R_MEMBER))) {
		v = up_eval(m->ix, scope, f, n);
		if (v.kind == UP_V_STR) { /* a string, or a number constant (N = 5) */
			put_escaped(b, v.s, v.n);
			return;
		}
	}
	/* a class or function: its __name__ */
	if (up_syn_is(n, UT_R_IDENT) &&
	    (up_index_class(m->ix, f->src.ptr + n->start, n->end - n->start) ||
	     up_index_fn(m->ix, f->src.ptr + n->start, n->end - n->start))) {
		ut_buf_put(b, f->src.ptr + n->start, n->end - n->start);
		return;
	}
	/* a class from elsewhere (Path, pages.LoginPage: CapWords), a builtin (str), a
	 * function or method of a module or class (nx.path_graph, trio.Path.joinpath): its
	 * name */
	if (up_syn_is(n, UT_R_MEMBER) || up_syn_is(n, UT_R_IDENT)) {
		const ut_syn *last =
		    up_syn_is(n, UT_R_MEMBER) ? up_syn_child(n, UT_R_MEMBER_PROP) : n;
		const ut_syn *obj =
		    up_syn_is(n, UT_R_MEMBER) ? up_syn_child(n, UT_R_MEMBER_OBJ) : NULL;
		static const char *const builtins[] = {"str",  "int",  "float", "bool", "bytes",
						       "list", "dict", "tuple", "set",	"object",
						       "len",  "repr", NULL};

		if (obj && up_syn_is(obj, UT_R_MEMBER))
			obj = up_syn_child(obj, UT_R_MEMBER_PROP);
		if (last &&
		    (capwords(f->src.ptr + last->start, last->end - last->start) ||
		     (!obj && up_text_in(f, last, builtins)) ||
		     (obj && method_like(f->src.ptr + last->start, last->end - last->start)))) {
			ut_buf_put(b, f->src.ptr + last->start, last->end - last->start);
			return;
		}
	}
	ut_buf_printf(b, "%.*s%zu", (int)m->nlen[arg], m->names[arg], idx);
}

static void add_name(mark *m, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && m->nnames < MAX_NAMES) {
		m->names[m->nnames] = s;
		m->nlen[m->nnames++] = n;
	}
}

/* "a,b" or ("a", "b") or ["a", "b"] */
static void read_names(mark *m, const up_env *scope, const ut_syn *n)
{
	up_val v = up_eval(m->ix, scope, m->f, n);
	const ut_syn *c;

	if (v.kind == UP_V_STR) {
		const char *s = v.s, *end = v.s + v.n;

		while (s < end) {
			const char *comma = memchr(s, ',', (size_t)(end - s));
			size_t len = comma ? (size_t)(comma - s) : (size_t)(end - s);

			add_name(m, s, len);
			s += len + (comma ? 1 : 0);
		}
	} else if (v.kind == UP_V_NODE && up_syn_is(v.node, UT_R_SEQ)) {
		for (c = up_syn_first(v.node); c; c = up_syn_next(c)) {
			up_val e;

			if (!up_syn_is(c, UT_R_ELEM))
				continue;
			e = up_eval(m->ix, scope, v.file, c);
			if (e.kind == UP_V_STR)
				add_name(m, e.s, e.n);
		}
	}
}

static int push_case(ut_py_cases *out, const char *id, size_t first)
{
	ut_py_case c;

	c.id = id;
	c.first = first;
	c.n = out->bindings.n - first;
	return ut_vec_push(&out->cases, c) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

static int bind(ut_py_cases *out, const mark *m, size_t arg, up_val v, size_t idx)
{
	up_binding b;

	b.name = m->names[arg];
	b.nlen = m->nlen[arg];
	b.val = v;
	return ut_vec_push(&out->bindings, b) < 0 || ut_vec_push(&out->indices, idx) < 0
		   ? ut_error_set(UT_ENOMEM, "out of memory")
		   : 0;
}

static const ut_syn *kw_value(const up_file *f, const ut_syn *args, const char *name)
{
	const ut_syn *c;

	for (c = args ? up_syn_first(args) : NULL; c; c = up_syn_next(c)) {
		const ut_syn *kn = up_syn_child(c, UT_R_ARG_KW_NAME);

		if (up_syn_is(c, UT_R_ARG_KW) && kn && up_text_is(f, kn, name))
			return up_syn_child(c, UT_R_ARG_KW_VALUE);
	}
	return NULL;
}

static const ut_syn *positional(const ut_syn *args, size_t i)
{
	const ut_syn *c;

	for (c = args ? up_syn_first(args) : NULL; c; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_ARG) && !up_syn_is(c, UT_R_ARG_KW) && i-- == 0)
			return up_arg_expr(c);
	return NULL;
}

static const ut_syn *nth_elem(const ut_syn *seq, size_t i)
{
	const ut_syn *c;

	for (c = seq ? up_syn_first(seq) : NULL; c; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_ELEM) && i-- == 0)
			return c;
	return NULL;
}

/* A literal list of values, or a name bound to one: its node, file and scope class. */
/* A module name's value where the mark is: the last top-level binding before it (a list
 * rebound between two tests gives each its own), or NULL. */
static const ut_syn *bound_before(const mark *m, const ut_syn *name)
{
	const ut_syn *c, *value = NULL;

	for (c = up_syn_first(m->f->tree->root); c && c->start < m->at; c = up_syn_next(c)) {
		const ut_syn *t = up_syn_child(c, UT_R_ASSIGN_TARGET);

		if (up_syn_is(c, UT_R_ASSIGN) && t && up_syn_is(t, UT_R_IDENT) &&
		    t->end - t->start == name->end - name->start &&
		    memcmp(m->f->src.ptr + t->start, m->f->src.ptr + name->start,
			   t->end - t->start) == 0)
			value = up_syn_child(c, UT_R_ASSIGN_VALUE);
	}
	return value;
}

static bool values_seq(const mark *m, const up_env *scope, const ut_syn *n, up_val *out)
{
	const ut_syn *bound = up_syn_is(n, UT_R_IDENT) ? bound_before(m, n) : NULL;

	*out = up_eval(m->ix, scope, m->f, bound ? bound : n);
	return out->kind == UP_V_NODE && up_syn_is(out->node, UT_R_SEQ);
}

/* pytest's make_unique_parameterset_ids: each id that occurs more than once gets a
 * counter, 0, 1, ... in case order. */
static int make_unique(ut_arena *a, ut_py_cases *cs)
{
	const char **orig = cs->cases.n ? ut_arena_alloc(a, cs->cases.n * sizeof(char *)) : NULL;
	size_t i, j;

	if (cs->cases.n && !orig)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < cs->cases.n; i++)
		orig[i] = cs->cases.v[i].id;
	for (i = 0; i < cs->cases.n; i++) {
		size_t before = 0, count = 0;

		for (j = 0; j < cs->cases.n; j++)
			if (strcmp(orig[j], orig[i]) == 0) {
				count++;
				before += j < i;
			}
		if (count > 1 &&
		    !(cs->cases.v[i].id = ut_arena_printf(a, "%s%zu", orig[i], before)))
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

/* The cases of one parametrize call, in out. Returns 1 when it could not be read. */
static const ut_syn *mark_names(const mark *m, const ut_syn *call)
{
	const ut_syn *names = kw_value(m->f, up_call_args(call), "argnames");

	return names ? names : positional(up_call_args(call), 0);
}

/* range(a, b, step), list(range(...)) or tuple(range(...)) with literal integers: one case
 * for each number. Returns 1 when values is no such call. */
static int range_cases(ut_py_cases *out, mark *m, const ut_syn *values)
{
	const ut_syn *call = values, *a;
	long long r[3] = {0, 0, 1};
	size_t n = 0, i = 0;
	int rc = 0;

	if (call_named(m->f, call, "list") || call_named(m->f, call, "tuple"))
		call = positional(up_call_args(call), 0);
	if (!call_named(m->f, call, "range"))
		return 1;
	for (a = up_syn_first(up_call_args(call)); a; a = up_syn_next(a)) {
		const char *t;
		char *end;

		if (!up_syn_is(a, UT_R_ARG))
			continue;
		/* the argument's own text: -3 is an operator and a number */
		t = up_compact_text(m->ix, m->f, a);
		if (i == 3 || up_syn_is(a, UT_R_ARG_KW))
			return 1;
		r[i++] = strtoll(t, &end, 10);
		if (*end || !*t)
			return 1;
		n++;
	}
	if (n == 1) {
		r[1] = r[0];
		r[0] = 0;
	} else if (n == 0 || r[2] == 0 || (r[2] > 0 ? r[0] >= r[1] : r[0] <= r[1])) {
		return 1; /* an empty range is read as a list that is not known */
	}
	for (i = 0; rc == 0 && i < UT_PY_MAX_CASES; i++) {
		long long k = r[0] + (long long)i * r[2];
		up_val v = {0};
		size_t first = out->bindings.n;

		if (r[2] > 0 ? k >= r[1] : k <= r[1])
			break;
		v.kind = UP_V_STR;
		v.s = ut_arena_printf(m->ix->temp, "%lld", k);
		v.n = v.s ? strlen(v.s) : 0;
		rc = v.s ? bind(out, m, 0, v, i) : ut_error_set(UT_ENOMEM, "out of memory");
		if (rc == 0)
			rc = push_case(out, v.s, first);
	}
	return rc;
}

/* One case's values for m's names: pytest.param(v1, v2, id="x"), a tuple of them, or the
 * value itself; *id gets pytest.param's id, if any. */
static void case_values(const mark *m, const up_file *f, const ut_syn *e, const ut_syn **vals,
			const ut_syn **id)
{
	size_t i;

	*id = NULL;
	if (call_named(f, e, "param")) {
		for (i = 0; i < m->nnames; i++)
			vals[i] = positional(up_call_args(e), i);
		*id = kw_value(f, up_call_args(e), "id");
	} else if (m->nnames > 1) {
		for (i = 0; i < m->nnames && up_syn_is(e, UT_R_SEQ); i++)
			vals[i] = nth_elem(e, i);
	} else {
		vals[0] = e;
	}
}

/* Case idx's id in b: its pytest.param id, else its entry of the ids list, else made of
 * its values (argname + index for a value that is not known). */
static void case_id(ut_buf *b, const mark *m, const up_env *vscope, const up_val *seq,
		    const up_val *idseq, const ut_syn *const *vals, const ut_syn *id, size_t idx)
{
	const ut_syn *given = idseq->kind == UP_V_NODE && up_syn_is(idseq->node, UT_R_SEQ)
				  ? nth_elem(idseq->node, idx)
				  : NULL;
	size_t i;

	if (id && !up_text_is(seq->file, id, "None")) {
		up_val v = up_eval(m->ix, vscope, seq->file, id);

		put_escaped(b, v.s ? v.s : "", v.kind == UP_V_STR ? v.n : 0);
	} else if (given && !up_text_is(idseq->file, given, "None")) {
		up_env gscope;

		up_env_init(&gscope, NULL, idseq->file, idseq->cls);
		value_id(b, m, &gscope, idseq->file, given, 0, idx);
		up_env_dispose(&gscope);
	} else {
		for (i = 0; i < m->nnames; i++) {
			if (i)
				ut_buf_putc(b, '-');
			if (vals[i])
				value_id(b, m, vscope, seq->file, vals[i], i, idx);
			else
				ut_buf_printf(b, "%.*s%zu", (int)m->nlen[i], m->names[i], idx);
		}
	}
}

/* Binds each of m's names to case idx's value (e, the list's element, when the case is no
 * literal tuple: its values are not known). */
static int bind_case(ut_py_cases *out, const mark *m, const up_env *vscope, const up_val *seq,
		     const ut_syn *e, const ut_syn *const *vals, size_t idx)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < m->nnames && rc == 0; i++) {
		up_val v = {0};

		if (vals[i]) {
			v = up_eval(m->ix, vscope, seq->file, vals[i]);
		} else {
			v.kind = UP_V_UNRES;
			v.s = seq->file->src.ptr + e->start;
			v.n = e->end - e->start > 200 ? 200 : e->end - e->start;
		}
		rc = bind(out, m, i, v, idx);
	}
	return rc;
}

/* An empty list: pytest keeps one case, skipped, with NOTSET values. */
static int empty_case(ut_py_cases *out, const mark *m)
{
	ut_buf b = UT_BUF_INIT;
	size_t i;
	int rc;

	ut_buf_init(&b, UT_MAX_VALUE_LEN);
	for (i = 0; i < m->nnames; i++)
		ut_buf_printf(&b, "%s%.*s0", i ? "-" : "", (int)m->nlen[i], m->names[i]);
	rc = push_case(out, ut_arena_strndup(m->ix->temp, b.ptr ? b.ptr : "", b.len),
		       out->bindings.n);
	ut_buf_dispose(&b);
	return rc;
}

/* The cases of a list of values for m's names, with their ids. Returns 1 when the list
 * cannot be read. */
static int read_cases(ut_py_cases *out, mark *m, const ut_syn *values, const ut_syn *ids)
{
	const ut_syn *e;
	up_env scope, vscope;
	up_val seq, idseq = {0};
	ut_buf b = UT_BUF_INIT;
	size_t idx;
	int rc = 0;

	if (m->nnames == 1 && values && (rc = range_cases(out, m, values)) != 1)
		return rc < 0 ? rc : make_unique(m->ix->temp, out);
	rc = 0;
	up_env_init(&scope, NULL, m->f, NULL);
	if (!m->nnames || !values || !values_seq(m, &scope, values, &seq)) {
		up_env_dispose(&scope);
		return 1;
	}
	if (ids)
		idseq = up_eval(m->ix, &scope, m->f, ids);
	if (ids && !(idseq.kind == UP_V_NODE && up_syn_is(idseq.node, UT_R_SEQ)) &&
	    !up_text_is(m->f, ids, "None"))
		warn_once(m->diags, m->f, ids,
			  "ids are made by a function or read from elsewhere: the default ids "
			  "are used, which may not be pytest's");
	up_env_init(&vscope, NULL, seq.file, seq.cls);
	ut_buf_init(&b, UT_MAX_VALUE_LEN);
	for (e = up_syn_first(seq.node), idx = 0; e && rc == 0 && idx < UT_PY_MAX_CASES;
	     e = up_syn_next(e)) {
		const ut_syn *vals[MAX_NAMES] = {0}, *id;
		size_t first = out->bindings.n;

		if (!up_syn_is(e, UT_R_ELEM))
			continue;
		ut_buf_clear(&b);
		case_values(m, seq.file, e, vals, &id);
		case_id(&b, m, &vscope, &seq, &idseq, vals, id, idx);
		rc = bind_case(out, m, &vscope, &seq, e, vals, idx);
		if (rc == 0)
			rc = push_case(
			    out, ut_arena_strndup(m->ix->temp, b.ptr ? b.ptr : "", b.len), first);
		idx++;
	}
	ut_buf_dispose(&b);
	up_env_dispose(&vscope);
	up_env_dispose(&scope);
	if (rc == 0 && out->cases.n == 0)
		rc = empty_case(out, m);
	return rc < 0 ? rc : make_unique(m->ix->temp, out);
}

/* @pytest.mark.parametrize(argnames, argvalues, ids=...) */
static int read_mark(ut_py_cases *out, mark *m, const ut_syn *call)
{
	const ut_syn *args = up_call_args(call), *names = mark_names(m, call), *values;
	up_env scope;

	values = kw_value(m->f, args, "argvalues");
	if (!values)
		values = positional(args, 1);
	up_env_init(&scope, NULL, m->f, NULL);
	if (names)
		read_names(m, &scope, names);
	up_env_dispose(&scope);
	return read_cases(out, m, values, kw_value(m->f, args, "ids"));
}

/* @pytest.fixture(params=..., ids=...): one name, the fixture's */
static int read_fixture(ut_py_cases *out, mark *m, const ut_py_fxparam *fx)
{
	const ut_syn *args = up_call_args(fx->call);

	add_name(m, fx->name, strlen(fx->name));
	return read_cases(out, m, kw_value(m->f, args, "params"), kw_value(m->f, args, "ids"));
}

static int copy_binding(ut_py_cases *to, const ut_py_cases *from, size_t i)
{
	return ut_vec_push(&to->bindings, from->bindings.v[i]) < 0 ||
		       ut_vec_push(&to->indices, from->indices.v[i]) < 0
		   ? -1
		   : 0;
}

/* out = out x mark: every case so far, then each of the mark's cases within it. */
static int product(ut_arena *a, ut_py_cases *out, const ut_py_cases *mk, bool *capped)
{
	ut_py_cases next = {0};
	size_t i, j, k;
	int rc = 0;

	for (i = 0; i < (out->cases.n ? out->cases.n : 1) && rc == 0; i++) {
		for (j = 0; j < mk->cases.n && rc == 0; j++) {
			const ut_py_case *c = out->cases.n ? &out->cases.v[i] : NULL;
			const ut_py_case *p = &mk->cases.v[j];
			size_t first = next.bindings.n;

			if (next.cases.n >= UT_PY_MAX_CASES) {
				*capped = true;
				break;
			}
			for (k = 0; c && k < c->n && rc == 0; k++)
				rc = copy_binding(&next, out, c->first + k);
			for (k = 0; k < p->n && rc == 0; k++)
				rc = copy_binding(&next, mk, p->first + k);
			if (rc == 0)
				rc = push_case(
				    &next, c ? ut_arena_printf(a, "%s-%s", c->id, p->id) : p->id,
				    first);
		}
	}
	ut_vec_free(&out->cases);
	ut_vec_free(&out->bindings);
	ut_vec_free(&out->indices);
	out->cases = next.cases;
	out->bindings = next.bindings;
	out->indices = next.indices;
	return rc < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* Parametrize decorators of one definition, bottom first (the order they are applied). */
static size_t own_marks(const up_file *f, const ut_syn *def, const ut_syn **out, size_t max)
{
	const ut_syn *decos[UT_PY_MAX_MARKS];
	size_t n = up_py_decorators(def, decos, UT_PY_MAX_MARKS), k = 0;

	while (n-- > 0)
		if (parametrize_call(f, decos[n]) && k < max)
			out[k++] = decos[n];
	return k;
}

/* Does one of the marks parametrize `name` itself? */
static bool marks_name(const up_index *ix, const up_file *const *files, const ut_syn *const *decos,
		       size_t n, const char *name)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const ut_syn *call = parametrize_call(files[i], decos[i]), *names;
		up_env scope;
		mark m;

		memset(&m, 0, sizeof(m));
		m.ix = ix;
		m.f = files[i];
		names = mark_names(&m, call);
		up_env_init(&scope, NULL, m.f, NULL);
		if (names)
			read_names(&m, &scope, names);
		up_env_dispose(&scope);
		for (j = 0; j < m.nnames; j++)
			if (m.nlen[j] == strlen(name) && memcmp(m.names[j], name, m.nlen[j]) == 0)
				return true;
	}
	return false;
}

/* Applies one list of cases: out becomes out x one. */
static int apply(ut_py_cases *out, const up_index *ix, ut_diags *diags, const up_fn *fn,
		 const up_file *f, const ut_syn *deco, const ut_py_fxparam *fx, bool *capped)
{
	ut_py_cases one = {0};
	mark m;
	int rc;

	memset(&m, 0, sizeof(m));
	m.ix = ix;
	m.diags = diags;
	m.f = f;
	m.at = deco->start;
	rc = fx ? read_fixture(&one, &m, fx) : read_mark(&one, &m, parametrize_call(f, deco));
	if (rc == 1) {
		warn_once(diags, f, deco,
			  "%s of '%s' %s no literal list of values: its cases are not known and "
			  "it is read as one test",
			  fx ? "params" : "parametrize", fx ? fx->name : fn->name,
			  fx ? "are" : "has");
		rc = 0;
	} else if (rc == 0) {
		rc = product(ix->temp, out, &one, capped);
		out->parametrized = true;
		if (rc == 0 && fx)
			out->fx[out->nfx++] = fx;
	}
	up_py_cases_dispose(&one);
	return rc;
}

int up_py_cases_build(ut_py_cases *out, const up_index *ix, ut_diags *diags, const up_fn *fn,
		      const up_cls *const *mro, size_t nmro, const ut_py_fxparam *fxp, size_t nfxp)
{
	const ut_syn *decos[UT_PY_MAX_MARKS];
	const up_file *files[UT_PY_MAX_MARKS];
	size_t n, i, j, decorated[UT_PY_MAX_MARKS], ndec = 0;
	bool capped = false;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	n = own_marks(fn->file, fn->node, decos, UT_PY_MAX_MARKS);
	for (i = 0; i < n; i++)
		files[i] = fn->file;
	/* a class's marks are its bases' (the nearest decorated one's), then its own */
	for (i = 0; i < nmro && ndec < UT_PY_MAX_MARKS; i++) {
		const ut_syn *tmp[1];

		if (own_marks(mro[i]->file, mro[i]->node, tmp, 1))
			decorated[ndec++] = i;
	}
	while (ndec-- > 0 && n < UT_PY_MAX_MARKS) {
		const up_cls *k = mro[decorated[ndec]];
		size_t got = own_marks(k->file, k->node, decos + n, UT_PY_MAX_MARKS - n);

		for (j = 0; j < got; j++)
			files[n + j] = k->file;
		n += got;
	}
	/* parametrized fixtures first (pytest's fixture manager generates before the marks) */
	for (i = 0; i < nfxp && rc == 0 && out->nfx < UT_PY_MAX_MARKS; i++)
		if (!marks_name(ix, files, decos, n, fxp[i].name))
			rc = apply(out, ix, diags, fn, fxp[i].file, fxp[i].call, &fxp[i], &capped);
	for (i = 0; i < n && rc == 0; i++)
		rc = apply(out, ix, diags, fn, files[i], decos[i], NULL, &capped);
	if (capped)
		ut_diags_add(diags, UT_DIAG_WARNING, fn->file->rel,
			     up_syn_line(fn->file->tree, fn->node),
			     "'%s' has more than %d parametrized cases; the rest are left out",
			     fn->name, UT_PY_MAX_CASES);
	if (rc == 0 && !out->cases.n)
		rc = push_case(out, NULL, 0);
	return rc;
}
