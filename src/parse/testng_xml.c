/* testng_xml.c: the classes a testng.xml runs, in its order (its <test>s one after another,
 * each one's <class> elements): TestNG runs those and no others. Commented-out classes are
 * comments to the reader, so they are left out too. */
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
	ut_xml *xml;
	int rc;
} reader;

static void on_start(void *data, const char *el, const char **atts)
{
	reader *r = data;
	const char *name = strcmp(el, "class") == 0 ? ut_xml_attr(atts, "name") : NULL;
	ut_testng_class c;
	size_t i;

	r->tests += strcmp(el, "test") == 0;
	if (!name || r->rc)
		return;
	for (i = 0; i < r->out->n; i++)
		if (strcmp(r->out->v[i].name, name) == 0)
			return; /* in two <test>s: it keeps its first place */
	c.name = r->out->n < MAX_CLASSES ? ut_arena_strdup(&r->ix->scratch, name) : NULL;
	c.test = r->tests;
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

int ut_testng_xml(ut_discover *d, ut_testng_classes *out, const char **path_out)
{
	ut_buf text = UT_BUF_INIT;
	char *path = NULL;
	const char *rel = NULL;
	reader r;
	size_t i;
	int rc = 0;

	*path_out = NULL;
	for (i = 0; (d->testng_xml ? i < 1 : places[i] != NULL) && !rel; i++) {
		const char *place = d->testng_xml ? d->testng_xml : places[i];

		path = ut_path_join(d->ix->root ? d->ix->root : ".", place);
		if (!path)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (ut_fs_exists(path))
			rel = place;
		else {
			free(path);
			path = NULL;
		}
	}
	if (!rel && d->testng_xml)
		ut_diags_add(
		    d->diags, UT_DIAG_WARNING, d->testng_xml, 0,
		    "suite.testng_xml names a file that does not exist: every TestNG class "
		    "runs, in source order");
	if (!rel)
		return 0;
	memset(&r, 0, sizeof(r));
	r.ix = d->ix;
	r.out = out;
	if (ut_fs_read(&text, path, MAX_TESTNG_XML) < 0) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, rel, 0, "cannot read it: %s",
			     ut_error_message());
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
		out->n = 0;
		goto done;
	}
	rc = r.rc;
	*path_out = rel;
done:
	ut_xml_free(r.xml);
	ut_buf_dispose(&text);
	free(path);
	return rc;
}
