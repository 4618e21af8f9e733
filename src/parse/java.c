/* java.c: JUnit 4 and JUnit 5 conventions: which methods are tests (inherited ones
 * included), in which order they run, which setup code applies, the root suite, and
 * Surefire's Class#method ids. TestNG's own rules are in testng.c, what both sides use
 * in java_common.c. */
#include <stdlib.h>
#include <string.h>

#include "parse/java.h"
#include "util/error.h"
#include "util/banned.h"

#define JUNIT5_DEFAULT_ORDER 1073741823L /* org.junit.jupiter.api.Order.DEFAULT */
#define MAX_WARNED_CLASSES 20		 /* classes named in the left-out warning */
#define MAVEN_WHY                                                                                  \
	"that the build does not run (pom.xml's Surefire/Failsafe includes and excludes, "         \
	"build.gradle's test framework)"

typedef struct {
	up_cls *cls;
	const up_file *file;
	const char *framework;
	ut_jmethods methods;
	bool emitted;
	bool not_run; /* the build does not run it (Maven's patterns, Gradle's framework) */
} jclass;

typedef UT_VEC(jclass) jclasses;

/* Java's String.hashCode of the name (exact for ASCII names). */
static int32_t java_hash(const char *s)
{
	uint32_t h = 0;

	while (*s)
		h = 31 * h + (unsigned char)*s++;
	return (int32_t)h;
}

/* Classes of the chain come one after another (level); inside one, by the sorter's key. */
static int cmp_level(const ut_jmethod *x, const ut_jmethod *y)
{
	return x->level != y->level ? (x->level < y->level ? -1 : 1) : 0;
}

static int cmp_pos(const ut_jmethod *x, const ut_jmethod *y)
{
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_name(const void *a, const void *b)
{
	const ut_jmethod *x = a, *y = b;
	int c = cmp_level(x, y);

	c = c ? c : strcmp(x->name, y->name);
	return c ? c : cmp_pos(x, y);
}

/* JUnit 4's MethodSorters.DEFAULT: the names' hash codes, then the names. */
static int cmp_hash(const void *a, const void *b)
{
	const ut_jmethod *x = a, *y = b;
	int32_t hx = java_hash(x->name), hy = java_hash(y->name);
	int c = cmp_level(x, y);

	if (!c && hx != hy)
		c = hx < hy ? -1 : 1;
	return c ? c : cmp_name(a, b);
}

static int cmp_order(const void *a, const void *b)
{
	const ut_jmethod *x = a, *y = b;
	int c = cmp_level(x, y);

	if (!c && x->order != y->order)
		c = x->order < y->order ? -1 : 1;
	return c ? c : cmp_pos(x, y);
}

/* The body that runs for fn, a method of chain[l]: the most derived one of its name. */
static up_fn *most_derived(up_discover *d, up_cls *const *chain, size_t l, up_fn *fn)
{
	size_t i;

	for (i = 0; i < l; i++) {
		const ut_syn *o;

		for (o = up_syn_first(chain[i]->node); o; o = up_syn_next(o)) {
			up_fn *ofn = up_java_method(d->ix, chain[i], o);

			if (ofn && ofn->name && ofn->body && strcmp(ofn->name, fn->name) == 0)
				return ofn;
		}
	}
	return fn;
}

/* Jupiter's order of all of k's tests: the class's @TestMethodOrder (or a JUnit 4
 * @FixMethodOrder), else by hash per class. */
static void sort_jupiter(up_discover *d, up_cls *k, ut_jmethods *out)
{
	const char *sorter = up_java_annotation_args(
	    d->ix, k->file, up_java_cls_annotation(d->ix, k, "TestMethodOrder"));
	size_t i;

	if (!sorter[0]) /* a JUnit 4 class in a file that imports Jupiter */
		sorter = up_java_annotation_args(
		    d->ix, k->file, up_java_cls_annotation(d->ix, k, "FixMethodOrder"));
	if (strstr(sorter, "NAME_ASCENDING"))
		sorter = "MethodName";
	if (strstr(sorter, "MethodName") || strstr(sorter, "Alphanumeric")) {
		for (i = 0; i < out->n; i++)
			out->v[i].level = 0;
		qsort(out->v, out->n, sizeof(ut_jmethod), cmp_name);
	} else if (strstr(sorter, "OrderAnnotation")) {
		for (i = 0; i < out->n; i++)
			out->v[i].level = 0;
		qsort(out->v, out->n, sizeof(ut_jmethod), cmp_order);
	} else {
		/* Jupiter's default orderer: the names' hash codes, per class */
		qsort(out->v, out->n, sizeof(ut_jmethod), cmp_hash);
	}
}

/* JUnit 4: each class's methods (of the n classes of chain) by that class's sorter. */
static void sort_junit4(up_discover *d, up_cls *const *chain, size_t n, ut_jmethods *out)
{
	size_t l, i;

	for (l = 0, i = 0; l < n; l++) {
		size_t from = i;
		const char *sorter;

		while (i < out->n && out->v[i].level == (long)l)
			i++;
		sorter = up_java_annotation_args(
		    d->ix, chain[l]->file,
		    up_java_cls_annotation(d->ix, chain[l], "FixMethodOrder"));
		if (strstr(sorter, "NAME_ASCENDING"))
			qsort(out->v + from, i - from, sizeof(ut_jmethod), cmp_name);
		else if (!strstr(sorter, "JVM"))
			qsort(out->v + from, i - from, sizeof(ut_jmethod), cmp_hash);
	}
}

/* The @Test methods of k and its superclasses as JUnit finds them: JUnit 4 the class's
 * own first, then each superclass's, each sorted by its own @FixMethodOrder (a hash order
 * without one); JUnit 5 the superclasses' first, sorted by the class's @TestMethodOrder
 * (each class's by hash without one, as Jupiter 5.9 does). An override runs the most derived body;
 * in JUnit 4 it stays a test when the overridden method is one. */
static int junit_methods(up_discover *d, up_cls *k, bool jupiter, ut_jmethods *out)
{
	up_cls *chain[UT_MAX_SUPER];
	size_t n, l, i, pos = 0;
	int rc = 0;

	n = up_java_chain(d->ix, k, chain);
	for (l = 0; l < n && rc == 0; l++) {
		const ut_syn *m;

		for (m = up_syn_first(chain[l]->node); m && rc == 0; m = up_syn_next(m)) {
			up_fn *fn = up_java_method(d->ix, chain[l], m);
			const ut_syn *t;
			ut_jmethod jm;
			bool seen = false;

			if (!fn || !fn->name)
				continue;
			if (up_java_hook_kinds(d->ix, fn))
				fn->is_test = true;
			for (i = 0; i < out->n && !seen; i++)
				seen = strcmp(out->v[i].name, fn->name) == 0;
			t = up_java_fn_annotation(d->ix, fn, "Test");
			if (t)
				fn->is_test = true;
			if (seen || !t || up_java_fn_annotation(d->ix, fn, "Ignore") ||
			    up_java_fn_annotation(d->ix, fn, "Disabled"))
				continue;
			memset(&jm, 0, sizeof(jm));
			jm.fn = fn;
			jm.name = fn->name;
			jm.test = t;
			jm.pos = pos++;
			jm.level = jupiter ? (long)(n - l) : (long)l;
			jm.order = up_java_number_arg(d->ix, fn->file,
						      up_java_fn_annotation(d->ix, fn, "Order"),
						      NULL, JUNIT5_DEFAULT_ORDER);
			jm.fn = most_derived(d, chain, l, fn);
			if (jupiter && jm.fn != fn)
				continue; /* Jupiter: an override without @Test is no test */
			if (ut_vec_push(out, jm) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	if (rc < 0 || !out->n)
		return rc;
	if (jupiter)
		sort_jupiter(d, k, out);
	else
		sort_junit4(d, chain, n, out);
	return 0;
}

static int collect_class(up_discover *d, const up_file *f, up_cls *k, jclasses *out)
{
	const char *fw = up_java_framework(d->ix, k);
	jclass jc;
	int rc;

	memset(&jc, 0, sizeof(jc));
	jc.cls = k;
	jc.file = f;
	jc.framework = fw;
	if (strcmp(fw, "testng") == 0)
		rc = up_testng_methods(d, k, &jc.methods);
	else
		rc = junit_methods(d, k, strcmp(fw, "junit5") == 0, &jc.methods);
	if (rc < 0 || !jc.methods.n || up_java_is_abstract(k)) {
		up_jmethods_free(&jc.methods);
		return rc;
	}
	if (ut_vec_push(out, jc) < 0) {
		up_jmethods_free(&jc.methods);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

static int collect_file(up_discover *d, const up_file *f, const ut_syn *n, jclasses *out, int depth)
{
	const ut_syn *c;
	int rc = 0;

	for (c = up_syn_first(n); c && rc == 0 && depth < 32; c = up_syn_next(c)) {
		if (up_syn_is(c, UT_R_CLASS)) {
			up_cls *k = up_index_class_of(d->ix, f, c);

			if (k)
				rc = collect_class(d, f, k, out);
			if (rc == 0)
				rc = collect_file(d, f, c, out, depth + 1);
		} else if (!up_syn_is(c, UT_R_FUNC) && up_syn_first(c)) {
			rc = collect_file(d, f, c, out, depth + 1);
		}
	}
	return rc;
}

/* Surefire's class name: package.Outer$Inner, in buf (cut when it does not fit). */
static const char *cls_id(const up_cls *cls, ut_buf *b)
{
	const up_cls *chain[16];
	size_t n = 0;
	const up_cls *k;

	for (k = cls; k && n < 16; k = k->outer)
		chain[n++] = k;
	if (cls->file->package[0])
		ut_buf_printf(b, "%s.", cls->file->package);
	while (n-- > 0)
		ut_buf_printf(b, "%s%s", chain[n]->name, n ? "$" : "");
	return b->ptr ? b->ptr : "";
}

static const char *class_id(const jclass *jc, ut_buf *b)
{
	return cls_id(jc->cls, b);
}

/* Appends a root for the list command (ut_suite.roots), once. */
static int add_root(up_discover *d, const char *root)
{
	const char *copy;
	size_t i;

	for (i = 0; i < d->suite->roots.n; i++)
		if (strcmp(d->suite->roots.v[i], root) == 0)
			return 0;
	copy = ut_arena_strdup(&d->suite->arena, root);
	return copy && ut_vec_push(&d->suite->roots, copy) == 0
		   ? 0
		   : ut_error_set(UT_ENOMEM, "out of memory");
}

static int add_class_root(up_discover *d, const up_cls *k)
{
	ut_buf b = UT_BUF_INIT;
	const char *id = cls_id(k, &b);
	int rc = b.failed ? ut_error_set(UT_ENOMEM, "out of memory") : add_root(d, id);

	ut_buf_dispose(&b);
	return rc;
}

/* Surefire's form: package.Outer$Inner#method, in the index's temp arena. */
static const char *test_id(up_discover *d, const jclass *jc, const char *method)
{
	ut_buf b = UT_BUF_INIT;
	const char *id;

	class_id(jc, &b);
	ut_buf_printf(&b, "#%s", method);
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
	const up_cls *cls; /* the key */
	size_t n;
	struct {
		up_fn *fn;
		unsigned kinds;
	} v[];
} jhooks;

static const jhooks *hooks_of(up_discover *d, ut_map *hooks, const up_cls *k)
{
	jhooks *h = ut_map_get(hooks, (const char *)&k, sizeof(k));
	const ut_syn *c;
	size_t n = 0;

	if (h)
		return h;
	for (c = up_syn_first(k->node); c; c = up_syn_next(c))
		n += up_syn_is(c, UT_R_FUNC);
	h = ut_arena_alloc(&d->ix->scratch, sizeof(*h) + n * sizeof(h->v[0]));
	if (!h)
		return NULL;
	h->cls = k;
	for (c = up_syn_first(k->node); c; c = up_syn_next(c)) {
		up_fn *fn = up_syn_is(c, UT_R_FUNC) ? up_index_fn_of(d->ix, k->file, c) : NULL;
		unsigned kinds = fn ? up_java_hook_kinds(d->ix, fn) : 0;

		if (kinds) {
			h->v[h->n].fn = fn;
			h->v[h->n].kinds = kinds;
			h->n++;
		}
	}
	return ut_map_put(hooks, (const char *)&h->cls, sizeof(h->cls), h) < 0 ? NULL : h;
}

/* Hooks of the class chain: superclass first for before, the class first for after. */
static int walk_hooks(up_discover *d, ut_map *hooks, up_walker *w, const up_cls *k,
		      const int *kinds, bool super_first, int depth)
{
	const up_cls *super;
	const jhooks *h;
	size_t i;
	int rc = 0, kind;

	if (!k || depth > 16)
		return 0;
	super = up_index_super(d->ix, k);
	if (super_first)
		rc = walk_hooks(d, hooks, w, super, kinds, super_first, depth + 1);
	h = rc == 0 ? hooks_of(d, hooks, k) : NULL;
	if (rc == 0 && !h)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (kind = 0; rc == 0 && kinds[kind] >= 0; kind++)
		for (i = 0; i < h->n && rc == 0; i++)
			if (h->v[i].kinds & (1u << kinds[kind]))
				rc = up_walk_fn_as(w, h->v[i].fn, w->self, NULL);
	if (!super_first && rc == 0)
		rc = walk_hooks(d, hooks, w, super, kinds, super_first, depth + 1);
	return rc;
}

/* The ids a TestNG test declares it depends on: its dependsOnMethods in its own class,
 * and every test of the groups of its dependsOnGroups. In the suite's arena. */
static int declared(up_discover *d, const jclasses *all, const jclass *jc, const ut_jmethod *m,
		    ut_test *t)
{
	UT_VEC(const char *) ids = {0};
	ut_buf b = UT_BUF_INIT;
	size_t i, j, k, g;
	int rc = 0;

	for (i = 0; i < m->depends.n && rc == 0; i++) {
		const char *dot = strrchr(m->depends.v[i], '.');

		ut_buf_clear(&b);
		class_id(jc, &b);
		ut_buf_printf(&b, "#%s", dot ? dot + 1 : m->depends.v[i]);
		if (ut_vec_push(&ids, ut_arena_strdup(&d->suite->arena, b.ptr ? b.ptr : "")) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (g = 0; g < m->dep_groups.n && rc == 0; g++)
		for (i = 0; i < all->n && rc == 0; i++)
			for (j = 0; j < all->v[i].methods.n && rc == 0; j++) {
				const ut_jmethod *o = &all->v[i].methods.v[j];

				for (k = 0; k < o->groups.n; k++)
					if (o != m &&
					    strcmp(o->groups.v[k], m->dep_groups.v[g]) == 0)
						break;
				if (k == o->groups.n)
					continue;
				ut_buf_clear(&b);
				class_id(&all->v[i], &b);
				ut_buf_printf(&b, "#%s", o->name);
				if (ut_vec_push(&ids, ut_arena_strdup(&d->suite->arena,
								      b.ptr ? b.ptr : "")) < 0)
					rc = ut_error_set(UT_ENOMEM, "out of memory");
			}
	for (i = 0; i < ids.n && rc == 0; i++)
		if (!ids.v[i])
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && ids.n) {
		t->depends_on = ut_arena_alloc(&d->suite->arena, ids.n * sizeof(char *));
		if (!t->depends_on) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		} else {
			memcpy(t->depends_on, ids.v, ids.n * sizeof(char *));
			t->ndepends = ids.n;
		}
	}
	ut_buf_dispose(&b);
	ut_vec_free(&ids);
	return rc;
}

static int emit_method(up_discover *d, ut_map *hooks, const jclasses *all, const jclass *jc,
		       const ut_jmethod *m)
{
	ut_arena_mark mark = ut_arena_save(d->ix->temp);
	size_t before = d->suite->tests.n;
	up_walker w;
	int rc;

	up_walker_init(&w, d, m->fn->file->rel);
	w.self = jc->cls;
	w.setup = true;
	rc = walk_hooks(d, hooks, &w, jc->cls, ut_java_before_hooks, true, 0);
	w.setup = false;
	if (rc == 0)
		rc = up_walk_fn_as(&w, m->fn, jc->cls, NULL);
	w.setup = true;
	if (rc == 0)
		rc = walk_hooks(d, hooks, &w, jc->cls, ut_java_after_hooks, false, 0);
	if (rc == 0)
		rc = up_suite_append(d, m->fn->file, test_id(d, jc, m->name), m->name, m->fn->node,
				     d->framework ? d->framework : jc->framework, &w);
	if (rc == 0 && d->suite->tests.n > before)
		rc = declared(d, all, jc, m, &d->suite->tests.v[before]);
	up_walker_dispose(&w);
	ut_arena_restore(d->ix->temp, mark); /* the test is in the model now */
	return rc;
}

static int emit_class(up_discover *d, ut_map *hooks, const jclasses *all, jclass *jc)
{
	size_t i;
	int rc = 0;

	if (jc->emitted)
		return 0;
	jc->emitted = true;
	for (i = 0; i < jc->methods.n && rc == 0; i++)
		rc = emit_method(d, hooks, all, jc, &jc->methods.v[i]);
	return rc;
}

static bool is_testng(const jclass *jc)
{
	return strcmp(jc->framework, "testng") == 0;
}

/* One warning naming the classes of one framework side (TestNG's or JUnit's) that were
 * not emitted: `why` says what left them out. */
static void warn_left_out(up_discover *d, const char *file, unsigned line, const jclasses *all,
			  bool testng, const char *why)
{
	ut_buf b = UT_BUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < all->n; i++) {
		if (all->v[i].emitted || is_testng(&all->v[i]) != testng)
			continue;
		if (n < MAX_WARNED_CLASSES) {
			ut_buf_puts(&b, n ? ", " : "");
			class_id(&all->v[i], &b);
		}
		n++;
	}
	if (n > MAX_WARNED_CLASSES)
		ut_buf_printf(&b, " and %zu more", n - MAX_WARNED_CLASSES);
	if (n)
		ut_diags_add(d->diags, UT_DIAG_WARNING, file, line,
			     "%zu test class%s %s left out (list their tests in suite.order_file "
			     "to run them): %s",
			     n, n == 1 ? "" : "es", why, b.ptr ? b.ptr : "");
	ut_buf_dispose(&b);
}

/* The position of jc's class in testng.xml's list, or listed->n when it is not there. */
static size_t listed_at(const jclass *jc, const ut_testng_classes *listed)
{
	ut_buf b = UT_BUF_INIT;
	const char *name = class_id(jc, &b);
	size_t i;

	for (i = 0; i < listed->n; i++)
		if (strcmp(listed->v[i].name, name) == 0)
			break;
	ut_buf_dispose(&b);
	return i;
}

static int emit_testng(up_discover *d, ut_map *hooks, jclasses *all)
{
	ut_testng_classes listed = {0};
	ut_jstrings paths = {0};
	const char *xml = NULL;
	ut_trefs refs = {0};
	size_t i, j, rank = 0;
	int rc;

	/* suite files decide which classes run, in their order; else the source order */
	rc = up_testng_xml(d, &listed, &paths);
	xml = paths.n ? paths.v[0] : NULL;
	for (i = 0; i < all->n && rc == 0; i++) {
		jclass *jc = &all->v[i];
		size_t pos = xml ? listed_at(jc, &listed) : rank;

		if (!is_testng(jc) || (xml && pos == listed.n && !d->keep_all) ||
		    (!xml && jc->not_run && !d->keep_all))
			continue;
		rank++;
		/* without suite files the runner is given the classes, in this order */
		if (!xml)
			rc = add_class_root(d, jc->cls);
		for (j = 0; j < jc->methods.n && rc == 0; j++) {
			ut_tref r = {jc,
				     &jc->methods.v[j],
				     pos < listed.n ? listed.v[pos].test : 0,
				     pos,
				     pos < listed.n ? listed.v[pos].preserve : true,
				     0};

			/* the suite file's <include>s and <exclude>s of the class */
			if (pos < listed.n && !up_testng_runs(&listed.v[pos], jc->methods.v[j].name,
							      &jc->methods.v[j].groups, &r.inc_pos))
				continue;
			if (ut_vec_push(&refs, r) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	if (rc == 0)
		rc = up_testng_order(&refs);
	for (i = 0; i < refs.n && rc == 0; i++) {
		jclass *jc = (jclass *)refs.v[i].owner;

		jc->emitted = true;
		rc = emit_method(d, hooks, all, jc, refs.v[i].m);
	}
	for (i = 0; i < paths.n && rc == 0 && refs.n; i++)
		rc = add_root(d, paths.v[i]);
	if (rc == 0 && xml) {
		const char *why = paths.n == 1 ? ut_arena_printf(d->ix->temp, "not in %s", xml)
					       : "not in the suite files";

		warn_left_out(d, xml, 0, all, true, why ? why : "not in the suite files");
	} else if (rc == 0) {
		warn_left_out(d, NULL, 0, all, true, MAVEN_WHY);
	}
	ut_vec_free(&refs);
	ut_vec_free(&listed);
	ut_vec_free(&paths);
	return rc;
}

/* The class list of a suite: @Suite.SuiteClasses, @SuiteClasses or @SelectClasses. */
static const ut_syn *suite_list(const up_index *ix, const up_cls *suite)
{
	const ut_syn *a = up_java_cls_annotation(ix, suite, "SuiteClasses");

	return a ? a : up_java_cls_annotation(ix, suite, "SelectClasses");
}

/* The simple name a class reference of a suite list names (Foo.class, a.b.Foo.class). */
static const char *ref_name(const up_index *ix, const up_file *f, const ut_syn *ref, char *buf,
			    size_t size)
{
	const char *t = up_compact_text(ix, f, ref), *dot;
	size_t len = strlen(t);

	if (len > 6 && strcmp(t + len - 6, ".class") == 0)
		len -= 6;
	if (len >= size)
		return NULL;
	memcpy(buf, t, len);
	buf[len] = '\0';
	dot = strrchr(buf, '.');
	return dot ? dot + 1 : buf;
}

/* The classes a suite lists, in order, nested suites expanded. */
static int emit_suite(up_discover *d, ut_map *hooks, ut_map *expanded, const up_cls *suite,
		      jclasses *all, int depth)
{
	const ut_syn *a = suite_list(d->ix, suite), *c;
	const up_cls **key;
	int rc = 0;

	/* each suite is expanded once: a suite listed again adds nothing new, and hostile
	 * input cannot make the expansion exponential */
	if (depth > 16 || !a || ut_map_find(expanded, (const char *)&suite, sizeof(suite), NULL))
		return 0;
	key = ut_arena_alloc(&d->ix->scratch, sizeof(*key));
	if (key)
		*key = suite; /* the map keeps the key: in the arena, not on the stack */
	if (!key || ut_map_put(expanded, (const char *)key, sizeof(*key), NULL) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (c = up_syn_find(a, UT_R_CLASSREF, 0); c && rc == 0; c = up_syn_next(c)) {
		const char *name;
		jclass *jc;
		up_cls *k;
		char buf[256];

		if (!up_syn_is(c, UT_R_CLASSREF) ||
		    !(name = ref_name(d->ix, suite->file, c, buf, sizeof(buf))))
			continue;
		jc = find_jclass(all, name);
		if (jc) {
			rc = emit_class(d, hooks, all, jc);
		} else if ((k = up_index_class(d->ix, name, strlen(name))) != NULL) {
			rc = emit_suite(d, hooks, expanded, k, all, depth + 1);
		} else {
			ut_diags_add(d->diags, UT_DIAG_WARNING, suite->file->rel,
				     up_syn_line(suite->file->tree, c),
				     "suite class '%s' is not among the analysed sources", name);
		}
	}
	return rc;
}

typedef UT_VEC(up_cls *) suites;

/* Does the suite list, itself or through the suites it lists, one of the test classes? */
static bool reaches(const up_index *ix, const up_cls *suite, jclasses *all, int depth)
{
	const ut_syn *a = suite_list(ix, suite), *c;

	for (c = a && depth < 16 ? up_syn_find(a, UT_R_CLASSREF, 0) : NULL; c; c = up_syn_next(c)) {
		const char *name;
		const up_cls *k;
		char buf[256];

		if (!up_syn_is(c, UT_R_CLASSREF) ||
		    !(name = ref_name(ix, suite->file, c, buf, sizeof(buf))))
			continue;
		if (find_jclass(all, name))
			return true;
		k = up_index_class(ix, name, strlen(name));
		if (k && k != suite && reaches(ix, k, all, depth + 1))
			return true;
	}
	return false;
}

/* The suite classes of the Java sources, in file order, and the names they list. A suite
 * outside the test files (the root suite in another folder of the source root than the
 * tests) counts when it leads to one of the test classes. */
static int find_suites(up_discover *d, jclasses *all, suites *out, ut_map *listed)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const up_file *f = d->ix->files.v[i];
		const ut_syn *c, *r;

		if (f->lang != UT_LANG_JAVA)
			continue;
		for (c = up_syn_first(f->tree->root); c && rc == 0; c = up_syn_next(c)) {
			up_cls *k =
			    up_syn_is(c, UT_R_CLASS) ? up_index_class_of(d->ix, f, c) : NULL;
			const ut_syn *a = k ? suite_list(d->ix, k) : NULL;

			if (!a || (!f->test_file && !reaches(d->ix, k, all, 0)))
				continue;
			if (ut_vec_push(out, k) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
			for (r = up_syn_find(a, UT_R_CLASSREF, 0); r && rc == 0;
			     r = up_syn_next(r)) {
				char buf[256];
				const char *name = up_syn_is(r, UT_R_CLASSREF)
						       ? ref_name(d->ix, f, r, buf, sizeof(buf))
						       : NULL;

				/* the map keeps the key: a copy, not the buffer */
				const char *key =
				    name ? ut_arena_strdup(&d->ix->scratch, name) : NULL;

				if (name &&
				    (!key || ut_map_put(listed, key, strlen(key), NULL) < 0))
					rc = ut_error_set(UT_ENOMEM, "out of memory");
			}
		}
	}
	return rc;
}

/* Marks the classes Maven would not run (pom.xml's Surefire/Failsafe patterns). */
static int maven_patterns(up_discover *d, jclasses *all)
{
	ut_jstrings inc = {0}, exc = {0};
	ut_buf b = UT_BUF_INIT;
	size_t i;
	int rc = up_java_build_patterns(d, &inc, &exc);

	for (i = 0; i < all->n && rc > 0; i++) {
		const up_cls *k = all->v[i].cls;
		char *c;

		while (k->outer) /* a nested class runs through its outermost one */
			k = k->outer;
		ut_buf_clear(&b);
		cls_id(k, &b);
		if (b.failed) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		for (c = b.ptr; c && *c; c++)
			*c = *c == '.' ? '/' : *c;
		all->v[i].not_run = !up_java_build_runs(&inc, &exc, b.ptr ? b.ptr : "");
	}
	ut_buf_dispose(&b);
	ut_vec_free(&inc);
	ut_vec_free(&exc);
	return rc < 0 ? rc : 0;
}

/* Marks the classes of the frameworks Gradle's test task does not run (useTestNG: no
 * JUnit; useJUnitPlatform: no TestNG; useJUnit: JUnit 4 only). */
static int gradle_engine(up_discover *d, jclasses *all)
{
	const char *engine = NULL;
	size_t i;
	int rc = up_java_build_engine(d, &engine);

	for (i = 0; i < all->n && rc == 0 && engine; i++) {
		const char *fw = all->v[i].framework;

		if (strcmp(engine, "testng") == 0   ? strcmp(fw, "testng") != 0
		    : strcmp(engine, "junit5") == 0 ? strcmp(fw, "testng") == 0
						    : strcmp(fw, "junit4") != 0)
			all->v[i].not_run = true;
	}
	return rc;
}

static int cmp_jclass(const void *a, const void *b)
{
	const jclass *x = a, *y = b;
	int c = strcmp(x->file->rel, y->file->rel);

	return c ? c : (x->cls->node->start < y->cls->node->start ? -1 : 1);
}

int up_java_discover(up_discover *d)
{
	jclasses all = {0};
	suites found = {0};
	ut_map hooks = UT_MAP_INIT, listed = UT_MAP_INIT, expanded = UT_MAP_INIT;
	const up_cls *root = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; i < d->ix->files.n && rc == 0; i++) {
		const up_file *f = d->ix->files.v[i];

		if (f->lang == UT_LANG_JAVA && f->test_file)
			rc = collect_file(d, f, f->tree->root, &all, 0);
	}
	if (all.n)
		qsort(all.v, all.n, sizeof(jclass), cmp_jclass);
	if (rc == 0)
		rc = maven_patterns(d, &all);
	if (rc == 0)
		rc = gradle_engine(d, &all);
	if (rc == 0)
		rc = find_suites(d, &all, &found, &listed);
	/* the root suites (those no suite lists) decide which JUnit classes run */
	for (i = 0; i < found.n && rc == 0; i++) {
		if (ut_map_find(&listed, found.v[i]->name, strlen(found.v[i]->name), NULL))
			continue;
		root = root ? root : found.v[i];
		rc = emit_suite(d, &hooks, &expanded, found.v[i], &all, 0);
		if (rc == 0)
			rc = add_class_root(d, found.v[i]);
	}
	if (rc == 0 && root && !d->keep_all) {
		const char *why =
		    ut_arena_printf(d->ix->temp, "outside the root suite '%s'", root->name);

		warn_left_out(d, root->file->rel, up_syn_line(root->file->tree, root->node), &all,
			      false, why ? why : "outside the root suite");
	}
	for (i = 0; i < all.n && rc == 0; i++)
		if ((!root || d->keep_all) && !is_testng(&all.v[i]) && !all.v[i].emitted &&
		    (!all.v[i].not_run || d->keep_all)) {
			rc = emit_class(d, &hooks, &all, &all.v[i]);
			if (rc == 0 && !root)
				rc = add_class_root(d, all.v[i].cls);
		}
	if (rc == 0 && !root)
		warn_left_out(d, NULL, 0, &all, false, MAVEN_WHY);
	if (rc == 0)
		rc = emit_testng(d, &hooks, &all);
	if (rc == 0)
		rc = up_walks_run(d);
	for (i = 0; i < all.n; i++)
		up_jmethods_free(&all.v[i].methods);
	ut_vec_free(&all);
	ut_vec_free(&found);
	ut_map_dispose(&hooks);
	ut_map_dispose(&listed);
	ut_map_dispose(&expanded);
	return rc;
}
