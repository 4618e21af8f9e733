/* java_common.c: what JUnit's side (java.c) and TestNG's side (testng.c) of Java discovery
 * share: annotations and their arguments, setup hooks, a class's framework and chain of
 * superclasses. */
#include <stdlib.h>
#include <string.h>

#include "parse/java.h"
#include "util/error.h"
#include "util/banned.h"

/* The annotation's name without blanks, in buf when it fits. */
static const char *deco_name(const up_index *ix, const up_file *f, const ut_syn *deco, char *buf,
			     size_t size)
{
	const ut_syn *n = up_syn_child(deco, UT_R_DECO_NAME);

	return n ? up_compact_text_buf(ix, f, n, buf, size) : "";
}

/* Is dn the annotation `name`, simple or qualified? */
static bool deco_is(const char *dn, const char *name)
{
	size_t dl = strlen(dn), len = strlen(name);

	return strcmp(dn, name) == 0 ||
	       (dl > len && dn[dl - len - 1] == '.' && strcmp(dn + dl - len, name) == 0);
}

const ut_syn *up_java_annotation(const up_index *ix, const up_file *f, const ut_syn *n,
				 const char *name, uint32_t before)
{
	const ut_syn *c;
	char buf[128];

	for (c = up_syn_first(n); c; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_DECO) && c->start < before &&
		    deco_is(deco_name(ix, f, c, buf, sizeof(buf)), name))
			return c;
	return NULL;
}

static uint32_t name_start(const ut_syn *n, ut_role role)
{
	const ut_syn *nm = up_syn_child(n, role);

	return nm ? nm->start : n->end;
}

const ut_syn *up_java_fn_annotation(const up_index *ix, const up_fn *fn, const char *name)
{
	return up_java_annotation(ix, fn->file, fn->node, name,
				  name_start(fn->node, UT_R_FUNC_NAME));
}

const ut_syn *up_java_cls_annotation(const up_index *ix, const up_cls *k, const char *name)
{
	return up_java_annotation(ix, k->file, k->node, name, name_start(k->node, UT_R_CLASS_NAME));
}

static const char *const hook_names[] = {"BeforeClass",	 "BeforeAll", "Before",	   "BeforeEach",
					 "BeforeMethod", "After",     "AfterEach", "AfterMethod",
					 "AfterClass",	 "AfterAll"};
#define NHOOKS (sizeof(hook_names) / sizeof(hook_names[0]))
/* The order the kinds of hooks run in: indexes into hook_names, -1 ends. */
const int ut_java_before_hooks[] = {0, 1, 2, 3, 4, -1};
const int ut_java_after_hooks[] = {5, 6, 7, 8, 9, -1};

unsigned up_java_hook_kinds(const up_index *ix, const up_fn *fn)
{
	uint32_t before = name_start(fn->node, UT_R_FUNC_NAME);
	const ut_syn *c;
	unsigned kinds = 0, h;
	char buf[128];

	for (c = up_syn_first(fn->node); c; c = up_syn_next(c)) {
		const char *dn;

		if (!up_syn_is(c, UT_R_DECO) || c->start >= before)
			continue;
		dn = deco_name(ix, fn->file, c, buf, sizeof(buf));
		for (h = 0; h < NHOOKS; h++)
			if (deco_is(dn, hook_names[h]))
				kinds |= 1u << h;
	}
	return kinds;
}

const char *up_java_annotation_args(const up_index *ix, const up_file *f, const ut_syn *a)
{
	const ut_syn *args = a ? up_syn_child(a, UT_R_DECO_ARGS) : NULL;

	return args ? up_compact_text(ix, f, args) : "";
}

/* The value node of argument `key` (the first positional one for NULL), or NULL. */
static const ut_syn *arg_value(const up_file *f, const ut_syn *a, const char *key)
{
	const ut_syn *args = a ? up_syn_child(a, UT_R_DECO_ARGS) : NULL, *c;

	for (c = args ? up_syn_first(args) : NULL; c; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_ARG_KW)) {
			const ut_syn *k = up_syn_child(c, UT_R_ARG_KW_NAME);

			if (key && k && up_text_is(f, k, key))
				return up_syn_child(c, UT_R_ARG_KW_VALUE);
		} else if (!key && up_syn_is(c, UT_R_ARG)) {
			return up_arg_expr(c);
		}
	}
	return NULL;
}

static up_val eval_const(const up_index *ix, const up_file *f, const ut_syn *v)
{
	up_env env;
	up_val val;

	up_env_init(&env, NULL, f, NULL);
	val = up_eval(ix, &env, f, v);
	up_env_dispose(&env);
	return val;
}

long up_java_number_arg(const up_index *ix, const up_file *f, const ut_syn *a, const char *key,
			long dflt)
{
	const ut_syn *v = arg_value(f, a, key);
	up_val val;
	char buf[32];
	char *end;
	long n;

	if (!v)
		return dflt;
	val.s = up_compact_text_buf(ix, f, v, buf, sizeof(buf)); /* -1: no constant */
	n = strtol(val.s, &end, 10);
	if (val.s[0] && *end == '\0')
		return n;
	val = eval_const(ix, f, v);
	if (val.kind != UP_V_STR || val.n == 0 || val.n >= sizeof(buf))
		return dflt;
	memcpy(buf, val.s, val.n);
	buf[val.n] = '\0';
	n = strtol(buf, &end, 10);
	return *end == '\0' ? n : dflt;
}

int up_java_strings_arg(up_index *ix, const up_file *f, const ut_syn *a, const char *key,
			ut_jstrings *out)
{
	const ut_syn *v = arg_value(f, a, key), *c, *end;
	up_val val;

	if (!v)
		return 0;
	/* one string, or the strings of a {...} list: its literal and constant elements */
	val = eval_const(ix, f, v);
	for (c = v, end = v + v->size; c < end;) {
		bool leaf = c == v || up_syn_is(c, UT_R_STR) || up_syn_is(c, UT_R_IDENT) ||
			    up_syn_is(c, UT_R_MEMBER);

		if (c != v && leaf)
			val = eval_const(ix, f, c);
		if (leaf && val.kind == UP_V_STR) {
			const char *s = ut_arena_strndup(&ix->scratch, val.s, val.n);

			if (!s || ut_vec_push(out, s) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
		/* a leaf's own parts are not elements; the list's node is looked into */
		c = leaf && (c != v || val.kind == UP_V_STR) ? c + c->size : c + 1;
		val.kind = UP_V_NONE;
	}
	return 0;
}

size_t up_java_chain(const up_index *ix, up_cls *k, up_cls *chain[UT_MAX_SUPER])
{
	size_t n = 0;

	for (; k && n < UT_MAX_SUPER; k = up_index_super(ix, k))
		chain[n++] = k;
	return n;
}

up_fn *up_java_method(const up_index *ix, const up_cls *k, const ut_syn *m)
{
	return up_syn_is(m, UT_R_FUNC) ? up_index_fn_of(ix, k->file, m) : NULL;
}

void up_jmethods_free(ut_jmethods *v)
{
	size_t i;

	for (i = 0; i < v->n; i++) {
		ut_vec_free(&v->v[i].depends);
		ut_vec_free(&v->v[i].groups);
		ut_vec_free(&v->v[i].dep_groups);
	}
	ut_vec_free(v);
}

/* The framework a file's imports name, or NULL. */
static const char *framework_of(const up_index *ix, const up_file *f)
{
	const ut_syn *c;

	for (c = up_syn_first(f->tree->root); c; c = up_syn_next(c)) {
		const char *t;

		if (!up_syn_is(c, UT_R_IMPORT))
			continue;
		t = up_compact_text(ix, f, c);
		if (strstr(t, "org.junit.jupiter"))
			return "junit5";
		if (strstr(t, "org.testng"))
			return "testng";
	}
	return NULL;
}

const char *up_java_framework(const up_index *ix, up_cls *k)
{
	up_cls *chain[UT_MAX_SUPER];
	size_t n = up_java_chain(ix, k, chain), i;
	const char *fw = NULL;

	for (i = 0; i < n && !fw; i++)
		fw = framework_of(ix, chain[i]->file);
	return fw ? fw : "junit4";
}

bool up_java_is_abstract(const up_cls *k)
{
	uint32_t end = name_start(k->node, UT_R_CLASS_NAME);
	const char *s = k->file->src.ptr + k->node->start;
	size_t n = end - k->node->start;
	const char *hit;

	/* "abstract" among the modifiers before the class name */
	for (hit = s; (size_t)(hit - s) + 8 <= n; hit++)
		if (memcmp(hit, "abstract", 8) == 0)
			return true;
	return false;
}
