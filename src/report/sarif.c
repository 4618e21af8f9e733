/* sarif.c: findings as SARIF 2.1.0 (GitHub code scanning and other SARIF viewers). */
#include "report/report.h"

#include <stdio.h>
#include <string.h>

#include "report/internal.h"
#include "util/jsonw.h"
#include "util/banned.h"

#ifndef UT_VERSION
#define UT_VERSION "0"
#endif

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"

static const char *const descriptions[UT_FINDING_NKINDS] = {
    "A test fails in its schedule although its known prerequisites ran before it.",
    "A removed or renamed test is a prerequisite of other tests.",
    "A change puts a dependent test before a test it depends on.",
    "The change introduced a dependency between tests, proven by running them.",
};

/* What each rule means and what to do, for the viewer's rule help (GitHub code scanning
 * requires it): text, and the same as Markdown. */
static const char *const help[UT_FINDING_NKINDS][2] = {
    {"The test failed when its schedule ran: its known prerequisites ran before it, so the "
     "change broke it or it needs a test the graph does not know. Run it alone after its "
     "prerequisites ('untangle explain TEST' lists them) to see which; when it needs "
     "another test, 'untangle detect' finds the edge.",
     "The test **failed in its schedule**: its known prerequisites ran before it, so the "
     "change broke it or it needs a test the graph does not know.\n\n"
     "Run `untangle explain TEST` for its prerequisites and the runs that proved them; "
     "when it needs another test, `untangle detect` finds the edge."},
    {"A test that other tests depend on was removed or renamed: they now fail in any "
     "order. Keep the test, move what it sets up into the dependents' own set-up, or "
     "rename it in the same change (the check follows renames it can see).",
     "A test that **other tests depend on** was removed or renamed: they now fail in any "
     "order.\n\nKeep the test, move what it sets up into the dependents' own set-up, or "
     "rename it in the same change."},
    {"The change puts a dependent test before a test it depends on: in the new order it "
     "fails. Restore the order, or make the dependent set up what it needs itself.",
     "The change puts a **dependent test before its prerequisite**: in the new order it "
     "fails.\n\nRestore the order, or make the dependent set up what it needs itself."},
    {"The change added a dependency between tests, proven by running them: the dependent "
     "passes only after the other. Shards keep them together; to keep tests independent, "
     "give the dependent its own data.",
     "The change added a **dependency between tests**, proven by running them: the "
     "dependent passes only after the other.\n\nShards keep them together; to keep tests "
     "independent, give the dependent its own data."},
};

static const char *const levels[UT_SEVERITY_N] = {"error", "warning", "note"};

/* A path as a relative URI reference: bytes outside the unreserved set and '/' are
 * percent-encoded, so that spaces, '#' or '?' in a path stay part of it. */
static void uri(ut_buf *tmp, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";

	ut_buf_clear(tmp);
	for (; *path; path++) {
		unsigned char c = (unsigned char)*path;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("-._~/", c)) {
			ut_buf_putc(tmp, (char)c);
		} else {
			ut_buf_putc(tmp, '%');
			ut_buf_putc(tmp, hex[c >> 4]);
			ut_buf_putc(tmp, hex[c & 15]);
		}
	}
}

static void physical(ut_jsonw *w, ut_buf *tmp, const char *file, unsigned line, unsigned end)
{
	ut_jsonw_key(w, "physicalLocation");
	ut_jsonw_obj_begin(w);
	ut_jsonw_key(w, "artifactLocation");
	ut_jsonw_obj_begin(w);
	uri(tmp, file);
	ut_jsonw_kstr(w, "uri", tmp->ptr);
	ut_jsonw_kstr(w, "uriBaseId", "%SRCROOT%");
	ut_jsonw_obj_end(w);
	if (line) {
		ut_jsonw_key(w, "region");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kint(w, "startLine", line);
		ut_jsonw_kint(w, "endLine", end >= line ? end : line);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_obj_end(w);
}

static void logical(ut_jsonw *w, const char *id)
{
	ut_jsonw_key(w, "logicalLocations");
	ut_jsonw_arr_begin(w);
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "fullyQualifiedName", id);
	ut_jsonw_kstr(w, "kind", "function");
	ut_jsonw_obj_end(w);
	ut_jsonw_arr_end(w);
}

static void rules(ut_jsonw *w)
{
	int k;

	ut_jsonw_key(w, "rules");
	ut_jsonw_arr_begin(w);
	for (k = 0; k < UT_FINDING_NKINDS; k++) {
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "id", ut_finding_kind_name((ut_finding_kind)k));
		ut_jsonw_kstr(w, "name", ut_finding_kind_title((ut_finding_kind)k));
		ut_jsonw_key(w, "shortDescription");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "text", ut_finding_kind_title((ut_finding_kind)k));
		ut_jsonw_obj_end(w);
		ut_jsonw_key(w, "fullDescription");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "text", descriptions[k]);
		ut_jsonw_obj_end(w);
		ut_jsonw_key(w, "help");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "text", help[k][0]);
		ut_jsonw_kstr(w, "markdown", help[k][1]);
		ut_jsonw_obj_end(w);
		ut_jsonw_key(w, "defaultConfiguration");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "level", levels[ut_finding_kind_severity((ut_finding_kind)k)]);
		ut_jsonw_obj_end(w);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
}

static void result(ut_jsonw *w, ut_buf *tmp, const ut_finding *f)
{
	char fp[33];
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "ruleId", ut_finding_kind_name(f->kind));
	ut_jsonw_kint(w, "ruleIndex", f->kind);
	ut_jsonw_kstr(w, "level", levels[f->severity]);
	ut_jsonw_key(w, "message");
	ut_jsonw_obj_begin(w);
	ut_jsonw_key(w, "text");
	ut_buf_clear(tmp);
	ut_buf_printf(tmp, "%s: %s", f->test, f->message);
	ut_jsonw_str(w, tmp->ptr);
	ut_jsonw_obj_end(w);
	ut_jsonw_key(w, "locations");
	ut_jsonw_arr_begin(w);
	ut_jsonw_obj_begin(w);
	if (f->file)
		physical(w, tmp, f->file, f->line, f->end_line);
	logical(w, f->test);
	ut_jsonw_obj_end(w);
	ut_jsonw_arr_end(w);
	ut_jsonw_key(w, "relatedLocations");
	ut_jsonw_arr_begin(w);
	/* a root cause's dependents follow its related tests */
	for (i = 0; i < f->nrelated + f->ndependents; i++) {
		const ut_finding_test *r = i < f->nrelated ? &f->related[i]
							  : &f->dependents[i - f->nrelated];

		ut_jsonw_obj_begin(w);
		ut_jsonw_kint(w, "id", (long long)i);
		if (r->file)
			physical(w, tmp, r->file, r->line, r->line);
		logical(w, r->id);
		ut_jsonw_key(w, "message");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "text", r->id);
		ut_jsonw_obj_end(w);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
	ut_finding_fingerprint(f, fp);
	ut_jsonw_key(w, "partialFingerprints");
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "untangle/v1", fp);
	ut_jsonw_obj_end(w);
	ut_jsonw_key(w, "properties");
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "test", f->test);
	ut_jsonw_kstr(w, "title", ut_finding_title(f));
	ut_jsonw_key(w, "evidence");
	ut_report__evidence(w, f);
	ut_jsonw_obj_end(w);
	ut_jsonw_obj_end(w);
}

int ut_report_sarif(ut_buf *out, const ut_findings *fs)
{
	ut_buf tmp = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "$schema", SARIF_SCHEMA);
	ut_jsonw_kstr(&w, "version", "2.1.0");
	ut_jsonw_key(&w, "runs");
	ut_jsonw_arr_begin(&w);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "tool");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "driver");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "name", "untangle");
	ut_jsonw_kstr(&w, "version", UT_VERSION);
	rules(&w);
	ut_jsonw_obj_end(&w);
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "results");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < fs->v.n; i++)
		result(&w, &tmp, &fs->v.v[i]);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_buf_putc(out, '\n');
	return ut_report__finish(out, &tmp);
}
