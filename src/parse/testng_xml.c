/* testng_xml.c: the classes a testng.xml runs, in its order (its <test>s one after another,
 * each one's <class> elements): TestNG runs those and no others. Commented-out classes are
 * comments to the reader, so they are left out too. The files are suite.testng_xml, else
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

typedef struct {
	ut_index *ix;
	ut_testng_classes *out;
	size_t tests; /* <test> elements seen */
	bool suite_preserve, preserve; /* preserve-order of the <suite>, of the <test> */
	ut_xml *xml;
	int rc;
} reader;

static void on_start(void *data, const char *el, const char **atts)
{
	reader *r = data;
	const char *name = strcmp(el, "class") == 0 ? ut_xml_attr(atts, "name") : NULL;
	ut_testng_class c;
	const char *preserve = ut_xml_attr(atts, "preserve-order");
	size_t i;

	if (strcmp(el, "suite") == 0)
		r->suite_preserve = !preserve || strcmp(preserve, "false") != 0;
	if (strcmp(el, "test") == 0) {
		r->tests++;
		r->preserve = preserve ? strcmp(preserve, "false") != 0 : r->suite_preserve;
	}
	if (!name || r->rc)
		return;
	for (i = 0; i < r->out->n; i++)
		if (strcmp(r->out->v[i].name, name) == 0)
			return; /* in two <test>s: it keeps its first place */
	c.name = r->out->n < MAX_CLASSES ? ut_arena_strdup(&r->ix->scratch, name) : NULL;
	c.test = r->tests;
	c.preserve = r->preserve;
	if (!c.name || ut_vec_push(r->out, c) < 0) {
		r->rc = ut_error_set(UT_ENOMEM, "out of memory");
		ut_xml_stop(r->xml);
	}
}

static void on_entity(void *data)
{
	(void)data; /* the parse stops; reported as not well-formed below */
}

static const ut_xml_handlers handlers = {on_start, NULL, NULL, on_entity};

/* Reads one suite file into r->out (its classes after those of the files before). */
static int read_one(ut_discover *d, reader *r, const char *rel)
{
	ut_buf text = UT_BUF_INIT;
	char *path = ut_path_join(d->ix->root ? d->ix->root : ".", rel);
	size_t before = r->out->n;
	int rc = 0;

	if (!path)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (ut_fs_read(&text, path, MAX_TESTNG_XML) < 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, rel, 0, "cannot read it: %s",
			     ut_error_message());
		rc = 1;
		goto done;
	}
	r->xml = ut_xml_new(&handlers, r);
	if (!r->xml) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (ut_xml_feed(r->xml, text.ptr ? text.ptr : "", text.len, true) < 0 && r->rc == 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, rel, (unsigned)ut_xml_line(r->xml),
			     "not a testng.xml that can be read (%s): its class order is not used",
			     ut_xml_error(r->xml));
		r->out->n = before;
		rc = 1;
		goto done;
	}
	rc = r->rc;
done:
	ut_xml_free(r->xml);
	r->xml = NULL;
	ut_buf_dispose(&text);
	free(path);
	return rc;
}

static bool exists(ut_discover *d, const char *rel)
{
	char *path = ut_path_join(d->ix->root ? d->ix->root : ".", rel);
	bool ok = path && ut_fs_exists(path);

	free(path);
	return ok;
}

int ut_testng_xml(ut_discover *d, ut_testng_classes *out, ut_jstrings *paths)
{
	ut_jstrings named = {0};
	const char *from = NULL;
	reader r;
	size_t i;
	int rc = 0;

	/* suite.testng_xml, else the files the build names, else a testng.xml where
	 * projects keep it */
	if (d->testng_xml) {
		from = "suite.testng_xml";
		if (ut_vec_push(&named, d->testng_xml) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	} else {
		rc = ut_java_build_suites(d, &named, &from);
	}
	for (i = 0; rc == 0 && !from && places[i]; i++)
		if (exists(d, places[i]) && ut_vec_push(&named, places[i]) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	memset(&r, 0, sizeof(r));
	r.ix = d->ix;
	r.out = out;
	r.suite_preserve = r.preserve = true;
	for (i = 0; i < named.n && rc == 0; i++) {
		if (!exists(d, named.v[i])) {
			if (!d->testng_xml) /* else said once below */
				ut_diags_add(d->diags, UT_DIAG_WARNING, from, 0,
					     "%s names a suite file that does not exist: %s",
					     from, named.v[i]);
			continue;
		}
		rc = read_one(d, &r, named.v[i]);
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
