/* java.c: JUnit 4, JUnit 5 and TestNG conventions: which methods are tests, in which
 * order they run, which setup code applies, and Surefire's Class#method ids. */
#include <stdlib.h>
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/banned.h"

#define JUNIT5_DEFAULT_ORDER 1073741823L /* org.junit.jupiter.api.Order.DEFAULT */

typedef struct {
	ut_fn *fn;
	const char *name;
	long order; /* @Order or TestNG priority */
	size_t pos; /* source position, for stable sorting */
} jmethod;

typedef struct {
	ut_cls *cls;
	const ut_file *file;
	const char *framework;
	UT_VEC(jmethod) methods;
	bool emitted;
} jclass;

typedef UT_VEC(jclass) jclasses;

/* The annotation's name without blanks, in buf when it fits. */
static const char *deco_name(const ut_index *ix, const ut_file *f, const ut_syn *deco, char *buf,
			     size_t size)
{
	const ut_syn *n = ut_syn_child(deco, UT_R_DECO_NAME);

	return n ? ut_compact_text_buf(ix, f, n, buf, size) : "";
}

/* Is dn the annotation `name`, simple or qualified? */
static bool deco_is(const char *dn, const char *name)
{
	size_t dl = strlen(dn), len = strlen(name);

	return strcmp(dn, name) == 0 ||
	       (dl > len && dn[dl - len - 1] == '.' && strcmp(dn + dl - len, name) == 0);
}

/* Annotation `name` (simple or qualified) on node n, or NULL. Only annotations that
 * precede `before` count (a class's own annotations, not its members'). */
static const ut_syn *annotation(const ut_index *ix, const ut_file *f, const ut_syn *n,
				const char *name, uint32_t before)
{
	const ut_syn *c;
	char buf[128];

	for (c = ut_syn_first(n); c; c = ut_syn_next(c))
		if (ut_syn_is(c, UT_R_DECO) && c->start < before &&
		    deco_is(deco_name(ix, f, c, buf, sizeof(buf)), name))
			return c;
	return NULL;
}

static uint32_t name_start(const ut_syn *n, ut_role role)
{
	const ut_syn *nm = ut_syn_child(n, role);

	return nm ? nm->start : n->end;
}

static bool fn_has(const ut_index *ix, const ut_fn *fn, const char *name)
{
	return annotation(ix, fn->file, fn->node, name, name_start(fn->node, UT_R_FUNC_NAME)) != NULL;
}

static const char *const hook_names[] = {"BeforeClass", "BeforeAll", "Before", "BeforeEach",
					 "BeforeMethod", "After", "AfterEach", "AfterMethod",
					 "AfterClass", "AfterAll"};
#define NHOOKS (sizeof(hook_names) / sizeof(hook_names[0]))
/* The order the kinds of hooks run in: indexes into hook_names, -1 ends. */
static const int before_hooks[] = {0, 1, 2, 3, 4, -1};
static const int after_hooks[] = {5, 6, 7, 8, 9, -1};

/* The hook annotations of a method: bit h for hook_names[h]. */
static unsigned hook_kinds(const ut_index *ix, const ut_fn *fn)
{
	uint32_t before = name_start(fn->node, UT_R_FUNC_NAME);
	const ut_syn *c;
	unsigned kinds = 0, h;
	char buf[128];

	for (c = ut_syn_first(fn->node); c; c = ut_syn_next(c)) {
		const char *dn;

		if (!ut_syn_is(c, UT_R_DECO) || c->start >= before)
			continue;
		dn = deco_name(ix, fn->file, c, buf, sizeof(buf));
		for (h = 0; h < NHOOKS; h++)
			if (deco_is(dn, hook_names[h]))
				kinds |= 1u << h;
	}
	return kinds;
}

static bool class_has(const ut_index *ix, const ut_cls *k, const char *name)
{
	return annotation(ix, k->file, k->node, name, name_start(k->node, UT_R_CLASS_NAME)) != NULL;
}

/* The text of the annotation's arguments, compacted: "MethodSorters.NAME_ASCENDING". */
static const char *annotation_args(const ut_index *ix, const ut_file *f, const ut_syn *a)
{
	const ut_syn *args = a ? ut_syn_child(a, UT_R_DECO_ARGS) : NULL;

	return args ? ut_compact_text(ix, f, args) : "";
}

static long number_arg(const ut_index *ix, const ut_file *f, const ut_syn *a, const char *key,
		       long dflt)
{
	const ut_syn *args = a ? ut_syn_child(a, UT_R_DECO_ARGS) : NULL, *c;

	for (c = args ? ut_syn_first(args) : NULL; c; c = ut_syn_next(c)) {
		const ut_syn *v = NULL;
		ut_env env;
		ut_val val;
		char buf[32];
		char *end;
		long n;

		if (ut_syn_is(c, UT_R_ARG_KW)) {
			const ut_syn *k = ut_syn_child(c, UT_R_ARG_KW_NAME);

			if (key && k && ut_text_is(f, k, key))
				v = ut_syn_child(c, UT_R_ARG_KW_VALUE);
		} else if (!key && ut_syn_is(c, UT_R_ARG)) {
			v = c;
		}
		if (!v)
			continue;
		ut_env_init(&env, NULL, f, NULL);
		val = ut_eval(ix, &env, f, ut_arg_expr(v));
		ut_env_dispose(&env);
		if (val.kind != UT_V_STR || val.n == 0 || val.n >= sizeof(buf))
			continue;
		memcpy(buf, val.s, val.n);
		buf[val.n] = '\0';
		n = strtol(buf, &end, 10);
		if (*end == '\0')
			return n;
	}
	return dflt;
}

static const char *framework_of(const ut_index *ix, const ut_file *f)
{
	const ut_syn *c;
	const char *fw = "junit4";

	for (c = ut_syn_first(f->tree->root); c; c = ut_syn_next(c)) {
		const char *t;

		if (!ut_syn_is(c, UT_R_IMPORT))
			continue;
		t = ut_compact_text(ix, f, c);
		if (strstr(t, "org.junit.jupiter"))
			return "junit5";
		if (strstr(t, "org.testng"))
			return "testng";
	}
	return fw;
}

static bool is_abstract(const ut_file *f, const ut_cls *k)
{
	uint32_t end = name_start(k->node, UT_R_CLASS_NAME);
	const char *s = f->src.ptr + k->node->start;
	size_t n = end - k->node->start;
	const char *hit;

	/* "abstract" among the modifiers before the class name */
	for (hit = s; (size_t)(hit - s) + 8 <= n; hit++)
		if (memcmp(hit, "abstract", 8) == 0)
			return true;
	return false;
}

static int cmp_name(const void *a, const void *b)
{
	const jmethod *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->pos < y->pos ? -1 : x->pos > y->pos);
}

static int cmp_order(const void *a, const void *b)
{
	const jmethod *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int collect_class(ut_discover *d, const ut_file *f, ut_cls *k, const char *fw,
			 jclasses *out)
{
	const ut_syn *c;
	jclass jc;
	size_t pos = 0;
	const char *sorter;
	bool any_priority = false;

	memset(&jc, 0, sizeof(jc));
	jc.cls = k;
	jc.file = f;
	jc.framework = fw;
	for (c = ut_syn_first(k->node); c; c = ut_syn_next(c)) {
		ut_fn *fn;
		const ut_syn *t;
		jmethod m;

		if (!ut_syn_is(c, UT_R_FUNC) || !(fn = ut_index_fn_of(d->ix, f, c)) || !fn->name)
			continue;
		if (hook_kinds(d->ix, fn))
			fn->is_test = true;
		t = annotation(d->ix, f, c, "Test", name_start(c, UT_R_FUNC_NAME));
		if (!t)
			continue;
		fn->is_test = true;
		if (fn_has(d->ix, fn, "Ignore") || fn_has(d->ix, fn, "Disabled"))
			continue;
		if (strstr(annotation_args(d->ix, f, t), "enabled=false"))
			continue;
		m.fn = fn;
		m.name = fn->name;
		m.pos = pos++;
		if (strcmp(fw, "testng") == 0) {
			m.order = number_arg(d->ix, f, t, "priority", 0);
			any_priority |= strstr(annotation_args(d->ix, f, t), "priority=") != NULL;
		} else {
			m.order = number_arg(d->ix, f, annotation(d->ix, f, c, "Order",
				name_start(c, UT_R_FUNC_NAME)), NULL, JUNIT5_DEFAULT_ORDER);
		}
		if (ut_vec_push(&jc.methods, m) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (!jc.methods.n || is_abstract(f, k)) {
		ut_vec_free(&jc.methods);
		return 0;
	}
	sorter = annotation_args(d->ix, f, annotation(d->ix, f, k->node, "FixMethodOrder",
		name_start(k->node, UT_R_CLASS_NAME)));
	if (!sorter[0])
		sorter = annotation_args(d->ix, f, annotation(d->ix, f, k->node, "TestMethodOrder",
			name_start(k->node, UT_R_CLASS_NAME)));
	if (strstr(sorter, "NAME_ASCENDING") || strstr(sorter, "MethodName") ||
	    strstr(sorter, "Alphanumeric"))
		qsort(jc.methods.v, jc.methods.n, sizeof(jmethod), cmp_name);
	else if (strstr(sorter, "OrderAnnotation") || any_priority)
		qsort(jc.methods.v, jc.methods.n, sizeof(jmethod), cmp_order);
	if (ut_vec_push(out, jc) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

static int collect_file(ut_discover *d, const ut_file *f, const ut_syn *n, jclasses *out,
			const char *fw, int depth)
{
	const ut_syn *c;
	int rc = 0;

	for (c = ut_syn_first(n); c && rc == 0 && depth < 32; c = ut_syn_next(c)) {
		if (ut_syn_is(c, UT_R_CLASS)) {
			ut_cls *k = ut_index_class_of(d->ix, f, c);

			if (k)
				rc = collect_class(d, f, k, fw, out);
			if (rc == 0)
				rc = collect_file(d, f, c, out, fw, depth + 1);
		} else if (!ut_syn_is(c, UT_R_FUNC) && ut_syn_first(c)) {
			rc = collect_file(d, f, c, out, fw, depth + 1);
		}
	}
	return rc;
}

/* Surefire's form: package.Outer$Inner#method. */
static const char *test_id(ut_discover *d, const jclass *jc, const jmethod *m)
{
	ut_buf b = UT_BUF_INIT;
	const ut_cls *chain[16];
	size_t n = 0;
	const ut_cls *k;
	const char *id;

	for (k = jc->cls; k && n < 16; k = k->outer)
		chain[n++] = k;
	if (jc->file->package[0])
		ut_buf_printf(&b, "%s.", jc->file->package);
	while (n-- > 0)
		ut_buf_printf(&b, "%s%s", chain[n]->name, n ? "$" : "");
	ut_buf_printf(&b, "#%s", m->name);
	id = ut_arena_strndup(d->ix->temp, b.ptr, b.len);
	ut_buf_dispose(&b);
	return id;
}

static jclass *find_jclass(jclasses *all, const char *name)
{
	size_t i;

	for (i = 0; i < all->n; i++)
		if (strcmp(all->v[i].cls->name, name) == 0)
			return &all->v[i];
	return NULL;
}

/* The methods of a class with hook annotations, in member order: found once a class,
 * used for each of its tests. Kept in the index's arena, found through `hooks`. */
typedef struct {
	const ut_cls *cls; /* the key */
	size_t n;
	struct {
		ut_fn *fn;
		unsigned kinds;
	} v[];
} jhooks;

static const jhooks *hooks_of(ut_discover *d, ut_map *hooks, const ut_cls *k)
{
	jhooks *h = ut_map_get(hooks, (const char *)&k, sizeof(k));
	const ut_syn *c;
	size_t n = 0;

	if (h)
		return h;
	for (c = ut_syn_first(k->node); c; c = ut_syn_next(c))
		n += ut_syn_is(c, UT_R_FUNC);
	h = ut_arena_alloc(&d->ix->scratch, sizeof(*h) + n * sizeof(h->v[0]));
	if (!h)
		return NULL;
	h->cls = k;
	for (c = ut_syn_first(k->node); c; c = ut_syn_next(c)) {
		ut_fn *fn = ut_syn_is(c, UT_R_FUNC) ? ut_index_fn_of(d->ix, k->file, c) : NULL;
		unsigned kinds = fn ? hook_kinds(d->ix, fn) : 0;

		if (kinds) {
			h->v[h->n].fn = fn;
			h->v[h->n].kinds = kinds;
			h->n++;
		}
	}
	return ut_map_put(hooks, (const char *)&h->cls, sizeof(h->cls), h) < 0 ? NULL : h;
}

/* Hooks of the class chain: superclass first for before, the class first for after. */
static int walk_hooks(ut_discover *d, ut_map *hooks, ut_walker *w, const ut_cls *k,
		      const int *kinds, bool super_first, int depth)
{
	const ut_cls *super;
	const jhooks *h;
	size_t i;
	int rc = 0, kind;

	if (!k || depth > 16)
		return 0;
	super = k->super ? ut_index_class(d->ix, k->super, strlen(k->super)) : NULL;
	if (super_first)
		rc = walk_hooks(d, hooks, w, super, kinds, super_first, depth + 1);
	h = rc == 0 ? hooks_of(d, hooks, k) : NULL;
	if (rc == 0 && !h)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (kind = 0; rc == 0 && kinds[kind] >= 0; kind++)
		for (i = 0; i < h->n && rc == 0; i++)
			if (h->v[i].kinds & (1u << kinds[kind]))
				rc = ut_walk_fn(w, h->v[i].fn, NULL);
	if (!super_first && rc == 0)
		rc = walk_hooks(d, hooks, w, super, kinds, super_first, depth + 1);
	return rc;
}

static int emit_class(ut_discover *d, ut_map *hooks, jclass *jc)
{
	size_t i;
	int rc = 0;

	if (jc->emitted)
		return 0;
	jc->emitted = true;
	for (i = 0; i < jc->methods.n && rc == 0; i++) {
		const jmethod *m = &jc->methods.v[i];
		ut_arena_mark mark = ut_arena_save(d->ix->temp);
		ut_walker w;

		ut_walker_init(&w, d->ix, jc->file->rel);
		w.setup = true;
		rc = walk_hooks(d, hooks, &w, jc->cls, before_hooks, true, 0);
		w.setup = false;
		if (rc == 0)
			rc = ut_walk_fn(&w, m->fn, NULL);
		w.setup = true;
		if (rc == 0)
			rc = walk_hooks(d, hooks, &w, jc->cls, after_hooks, false, 0);
		if (rc == 0)
			rc = ut_suite_append(d, jc->file, test_id(d, jc, m), m->name, m->fn->node,
					     d->framework ? d->framework : jc->framework, &w);
		ut_walker_dispose(&w);
		ut_arena_restore(d->ix->temp, mark); /* the test is in the model now */
	}
	return rc;
}

/* Classes named by @Suite.SuiteClasses / @SuiteClasses / @SelectClasses, in order,
 * expanding nested suites. */
static int emit_suite(ut_discover *d, ut_map *hooks, const ut_cls *suite, jclasses *all,
		      int depth)
{
	static const char *const lists[] = {"SuiteClasses", "SelectClasses", NULL};
	const ut_syn *a = NULL, *c;
	int rc = 0, l;

	if (depth > 16)
		return 0;
	for (l = 0; lists[l] && !a; l++)
		a = annotation(d->ix, suite->file, suite->node, lists[l],
			       name_start(suite->node, UT_R_CLASS_NAME));
	if (!a)
		return 0;
	for (c = ut_syn_find(a, UT_R_CLASSREF, 0); c && rc == 0; c = ut_syn_next(c)) {
		const char *ref;
		const char *dot;
		size_t len;
		jclass *jc;
		ut_cls *k;
		char name[256];

		if (!ut_syn_is(c, UT_R_CLASSREF))
			continue;
		ref = ut_compact_text(d->ix, suite->file, c);
		len = strlen(ref);
		if (len > 6 && strcmp(ref + len - 6, ".class") == 0)
			len -= 6;
		if (len >= sizeof(name))
			continue;
		memcpy(name, ref, len);
		name[len] = '\0';
		dot = strrchr(name, '.');
		dot = dot ? dot + 1 : name;
		jc = find_jclass(all, dot);
		if (jc) {
			rc = emit_class(d, hooks, jc);
		} else if ((k = ut_index_class(d->ix, dot, strlen(dot))) != NULL) {
			rc = emit_suite(d, hooks, k, all, depth + 1);
		} else {
			ut_diags_add(d->diags, UT_DIAG_WARNING, suite->file->rel,
				     ut_syn_line(suite->file->tree, c),
				     "suite class '%s' is not among the analysed sources", dot);
		}
	}
	return rc;
}

static int cmp_jclass(const void *a, const void *b)
{
	const jclass *x = a, *y = b;
	int c = strcmp(x->file->rel, y->file->rel);

	return c ? c : (x->cls->node->start < y->cls->node->start ? -1 : 1);
}

int ut_java_discover(ut_discover *d)
{
	jclasses all = {0};
	ut_map hooks = UT_MAP_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const ut_file *f = d->ix->files.v[i];

		if (f->lang == UT_LANG_JAVA && f->test_file)
			rc = collect_file(d, f, f->tree->root, &all, framework_of(d->ix, f), 0);
	}
	if (all.n)
		qsort(all.v, all.n, sizeof(jclass), cmp_jclass);
	/* suites first, in the order their files sort */
	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const ut_file *f = d->ix->files.v[i];
		const ut_syn *c;

		if (f->lang != UT_LANG_JAVA || !f->test_file)
			continue;
		for (c = ut_syn_first(f->tree->root); c && rc == 0; c = ut_syn_next(c)) {
			ut_cls *k = ut_syn_is(c, UT_R_CLASS) ? ut_index_class_of(d->ix, f, c) : NULL;

			if (k && (class_has(d->ix, k, "SuiteClasses") ||
				  class_has(d->ix, k, "Suite.SuiteClasses") ||
				  class_has(d->ix, k, "SelectClasses")))
				rc = emit_suite(d, &hooks, k, &all, 0);
		}
	}
	for (i = 0; i < all.n && rc == 0; i++)
		rc = emit_class(d, &hooks, &all.v[i]);
	for (i = 0; i < all.n; i++)
		ut_vec_free(&all.v[i].methods);
	ut_vec_free(&all);
	ut_map_dispose(&hooks);
	return rc;
}
