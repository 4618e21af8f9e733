/* testng_xml.c: the classes a testng.xml runs, in its order (its <test>s one after another,
 * each one's <class> elements): TestNG runs those and no others. Commented-out classes are
 * comments to the reader, so they are left out too. A suite's <suite-file>s run before its
 * own <test>s. The files are suite.testng_xml, else
 * those the build file names (java_build.c), else a testng.xml where projects keep it. */
#include <stdlib.h>
#include <string.h>

#include "parse/java.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/xml.h"
#include "util/banned.h"

#define MAX_TESTNG_XML ((size_t)4 << 20)
#define MAX_CLASSES 100000

/* Where projects keep it, relative to the suite root, in the order looked at. */
static const char *const places[] = {"testng.xml", "src/test/resources/testng.xml", NULL};

#define MAX_NESTING 8 /* <suite-file>s inside <suite-file>s */

typedef struct {
	up_index *ix;
	ut_testng_classes own;	     /* the classes of the file being read (test: its own count) */
	ut_jstrings children;	     /* its <suite-file>s, relative to the root */
	const char *dir;	     /* its folder, relative to the root ("" at the root) */
	size_t tests;		     /* <test> elements seen in it */
	bool in_class;		     /* inside a <class> (of own.v[own.n - 1]) */
	ut_jstrings inc, exc;	     /* that class's <include>, <exclude> names */
	bool in_test, in_run;	     /* inside a <test>, a <groups><run> */
	size_t test_first;	     /* own.v[test_first]: the first class of that <test> */
	ut_jstrings gin[2], gout[2]; /* <run>'s included, excluded groups: [0] the
					<suite>'s, [1] the <test>'s */
	bool suite_preserve, preserve; /* preserve-order of the <suite>, of the <test> */
	ut_xml *xml;
	int rc;
} reader;

static void on_start(void *data, const char *el, const char **atts)
{
	reader *r = data;
	const char *name = strcmp(el, "class") == 0 ? ut_xml_attr(atts, "name") : NULL;
	const char *child = strcmp(el, "suite-file") == 0 ? ut_xml_attr(atts, "path") : NULL;
	const char *preserve = ut_xml_attr(atts, "preserve-order");
	ut_testng_class c;

	if (strcmp(el, "suite") == 0)
		r->suite_preserve = !preserve || strcmp(preserve, "false") != 0;
	if (strcmp(el, "test") == 0) {
		r->tests++;
		r->preserve = preserve ? strcmp(preserve, "false") != 0 : r->suite_preserve;
		r->in_test = true;
		r->test_first = r->own.n;
		r->gin[1].n = r->gout[1].n = 0;
	}
	r->in_run |= strcmp(el, "run") == 0;
	if (r->in_run && !r->in_class && !r->rc &&
	    (strcmp(el, "include") == 0 || strcmp(el, "exclude") == 0)) {
		const char *g = ut_xml_attr(atts, "name");
		const char *copy = g ? ut_arena_strdup(&r->ix->scratch, g) : NULL;
		ut_jstrings *v = el[0] == 'i' ? &r->gin[r->in_test] : &r->gout[r->in_test];

		if (g && (!copy || ut_vec_push(v, copy) < 0))
			r->rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (child && !r->rc) {
		const char *rel = child[0] == '/' || !r->dir[0]
				      ? ut_arena_strdup(&r->ix->scratch, child)
				      : ut_arena_printf(&r->ix->scratch, "%s/%s", r->dir, child);

		if (!rel || ut_vec_push(&r->children, rel) < 0)
			r->rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (r->in_class && !r->rc && (strcmp(el, "include") == 0 || strcmp(el, "exclude") == 0)) {
		const char *m = ut_xml_attr(atts, "name");
		const char *copy = m ? ut_arena_strdup(&r->ix->scratch, m) : NULL;

		if (m && (!copy || ut_vec_push(el[0] == 'i' ? &r->inc : &r->exc, copy) < 0))
			r->rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (name && !r->rc) {
		memset(&c, 0, sizeof(c));
		c.name = r->own.n < MAX_CLASSES ? ut_arena_strdup(&r->ix->scratch, name) : NULL;
		c.test = r->tests;
		c.preserve = r->preserve;
		r->in_class = true;
		r->inc.n = r->exc.n = 0;
		if (!c.name || ut_vec_push(&r->own, c) < 0)
			r->rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (r->rc)
		ut_xml_stop(r->xml);
}

/* The suite's and the test's groups of `which` (gin or gout) in one array in scratch. */
static const char **groups(reader *r, ut_jstrings *which, size_t *n)
{
	const char **v;

	*n = which[0].n + which[1].n;
	v = *n ? ut_arena_alloc(&r->ix->scratch, *n * sizeof(char *)) : NULL;
	if (*n && !v) {
		r->rc = ut_error_set(UT_ENOMEM, "out of memory");
		*n = 0;
		return NULL;
	}
	if (which[0].n)
		memcpy(v, which[0].v, which[0].n * sizeof(char *));
	if (which[1].n)
		memcpy(v + which[0].n, which[1].v, which[1].n * sizeof(char *));
	return v;
}

static void on_end(void *data, const char *el)
{
	reader *r = data;
	ut_testng_class *c = r->own.n ? &r->own.v[r->own.n - 1] : NULL;
	ut_jstrings *v = r->inc.n ? &r->inc : &r->exc;
	size_t i;

	if (strcmp(el, "run") == 0)
		r->in_run = false;
	/* the groups of the <test> (<run> may follow <classes>) and of its <suite> */
	for (i = r->test_first; strcmp(el, "test") == 0 && i < r->own.n && !r->rc; i++) {
		r->own.v[i].groups_in = groups(r, r->gin, &r->own.v[i].ngroups_in);
		r->own.v[i].groups_out = groups(r, r->gout, &r->own.v[i].ngroups_out);
	}
	if (strcmp(el, "test") == 0)
		r->in_test = false;
	if (strcmp(el, "class") != 0 || !r->in_class || !c || r->rc)
		return;
	r->in_class = false;
	if (!v->n)
		return;
	c->include = v == &r->inc;
	c->methods = ut_arena_alloc(&r->ix->scratch, v->n * sizeof(char *));
	if (!c->methods) {
		r->rc = ut_error_set(UT_ENOMEM, "out of memory");
		ut_xml_stop(r->xml);
		return;
	}
	memcpy(c->methods, v->v, v->n * sizeof(char *));
	c->nmethods = v->n;
}

/* A regular expression matching all of s: the subset suite files use (. * ^ $ and
 * literal characters, \ escapes). */
static bool rx_here(const char *re, const char *s, int depth);

static bool rx_star(char c, bool any, const char *re, const char *s, int depth)
{
	for (;; s++) {
		if (rx_here(re, s, depth + 1))
			return true;
		if (!*s || (!any && *s != c))
			return false;
	}
}

static bool rx_here(const char *re, const char *s, int depth)
{
	bool any, esc;
	char c;

	if (depth > 64)
		return false;
	if (!*re)
		return !*s;
	if (re[0] == '$' && !re[1])
		return !*s;
	esc = re[0] == '\\' && re[1];
	c = esc ? re[1] : re[0];
	any = !esc && c == '.';
	re += esc ? 2 : 1;
	if (*re == '*')
		return rx_star(c, any, re + 1, s, depth);
	return *s && (any || *s == c) && rx_here(re, s + 1, depth + 1);
}

static bool rx_match(const char *re, const char *s)
{
	return rx_here(re[0] == '^' ? re + 1 : re, s, 0);
}

/* Does one of the patterns v[0, n) match one of the groups? */
static bool in_groups(const char *const *v, size_t n, const ut_jstrings *groups)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < groups->n; j++)
			if (rx_match(v[i], groups->v[j]))
				return true;
	return false;
}

bool up_testng_runs(const ut_testng_class *c, const char *name, const ut_jstrings *groups,
		    size_t *pos)
{
	size_t i;

	*pos = 0;
	if ((c->ngroups_in && !in_groups(c->groups_in, c->ngroups_in, groups)) ||
	    in_groups(c->groups_out, c->ngroups_out, groups))
		return false;
	for (i = 0; i < c->nmethods; i++)
		if (rx_match(c->methods[i], name)) {
			/* preserve-order orders by the include that names the method itself */
			for (; c->include && i < c->nmethods && !*pos; i++)
				*pos = strcmp(c->methods[i], name) == 0 ? i + 1 : 0;
			return c->include;
		}
	return !c->include || !c->nmethods;
}

static void on_entity(void *data)
{
	(void)data; /* the parse stops; reported as not well-formed below */
}

static const ut_xml_handlers handlers = {on_start, on_end, NULL, on_entity};

/* Reads one suite file (relative to the root, or absolute) and the suite files it names,
 * appending their classes to out: TestNG runs a suite's <suite-file>s first, in order,
 * then its own <test>s. *tests counts the <test>s read so far. 1 when the file could not
 * be used (a warning says why). */
static int read_one(up_discover *d, const char *rel, ut_testng_classes *out, size_t *tests,
		    int depth)
{
	ut_buf text = UT_BUF_INIT;
	char *path =
	    rel[0] == '/' ? strdup(rel) : ut_path_join(d->ix->root ? d->ix->root : ".", rel);
	const char *slash = strrchr(rel, '/');
	reader r;
	size_t i, j;
	int rc = 0;

	memset(&r, 0, sizeof(r));
	r.ix = d->ix;
	r.suite_preserve = r.preserve = true;
	r.dir = slash ? ut_arena_strndup(&d->ix->scratch, rel, (size_t)(slash - rel)) : "";
	if (!path || !r.dir) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (ut_fs_read(&text, path, MAX_TESTNG_XML) < 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, rel, 0, "cannot read it: %s",
			     ut_error_message());
		rc = 1;
		goto done;
	}
	r.xml = ut_xml_new(&handlers, &r);
	if (!r.xml) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (ut_xml_feed(r.xml, text.ptr ? text.ptr : "", text.len, true) < 0 && r.rc == 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, rel, (unsigned)ut_xml_line(r.xml),
			     "not a testng.xml that can be read (%s): its class order is not used",
			     ut_xml_error(r.xml));
		rc = 1;
		goto done;
	}
	rc = r.rc;
	for (i = 0; i < r.children.n && rc == 0; i++) {
		if (depth >= MAX_NESTING) {
			ut_diags_add(d->diags, UT_DIAG_WARNING, rel, 0,
				     "suite files nested deeper than %d are not read: %s",
				     MAX_NESTING, r.children.v[i]);
			continue;
		}
		rc = read_one(d, r.children.v[i], out, tests, depth + 1);
		rc = rc > 0 ? 0 : rc;
	}
	for (i = 0; i < r.own.n && rc == 0; i++) {
		ut_testng_class c = r.own.v[i];

		for (j = 0; j < out->n; j++)
			if (strcmp(out->v[j].name, c.name) == 0)
				break; /* in two <test>s: it keeps its first place */
		c.test += *tests;
		if (j == out->n && ut_vec_push(out, c) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	*tests += r.tests;
done:
	ut_xml_free(r.xml);
	ut_vec_free(&r.own);
	ut_vec_free(&r.children);
	ut_vec_free(&r.inc);
	ut_vec_free(&r.exc);
	for (i = 0; i < 2; i++) {
		ut_vec_free(&r.gin[i]);
		ut_vec_free(&r.gout[i]);
	}
	ut_buf_dispose(&text);
	free(path);
	return rc;
}

static bool exists(up_discover *d, const char *rel)
{
	char *path = ut_path_join(d->ix->root ? d->ix->root : ".", rel);
	bool ok = path && ut_fs_exists(path);

	free(path);
	return ok;
}

int up_testng_xml(up_discover *d, ut_testng_classes *out, ut_jstrings *paths)
{
	ut_jstrings named = {0};
	const char *from = NULL;
	size_t i, tests = 0;
	int rc = 0;

	/* suite.testng_xml, else the files the build names, else a testng.xml where
	 * projects keep it */
	if (d->testng_xml) {
		from = "suite.testng_xml";
		if (ut_vec_push(&named, d->testng_xml) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	} else {
		rc = up_java_build_suites(d, &named, &from);
	}
	for (i = 0; rc == 0 && !from && places[i]; i++)
		if (exists(d, places[i]) && ut_vec_push(&named, places[i]) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < named.n && rc == 0; i++) {
		if (!exists(d, named.v[i])) {
			if (!d->testng_xml) /* else said once below */
				ut_diags_add(d->diags, UT_DIAG_WARNING, from, 0,
					     "%s names a suite file that does not exist: %s", from,
					     named.v[i]);
			continue;
		}
		rc = read_one(d, named.v[i], out, &tests, 0);
		if (rc == 0 && ut_vec_push(paths, named.v[i]) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
		rc = rc > 0 ? 0 : rc;
		if (!from)
			break; /* a guess: the first one found */
	}
	if (rc == 0 && d->testng_xml && !paths->n)
		ut_diags_add(d->diags, UT_DIAG_WARNING, d->testng_xml, 0,
			     "suite.testng_xml names a file that does not exist or cannot be "
			     "read: every TestNG class runs, in source order");
	ut_vec_free(&named);
	return rc;
}
