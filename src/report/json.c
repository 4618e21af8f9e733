/* json.c: findings as plain JSON, and reading that form back (untangle report --findings). */
#include "report/report.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "report/internal.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

#define FINDINGS_VERSION 1

/* [{"id": ..., "file": ..., "line": ...}, ...] */
static void tests(ut_jsonw *w, const ut_finding_test *v, size_t n)
{
	ut_jsonw_arr_begin(w);
	for (size_t i = 0; i < n; i++) {
		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "id", v[i].id);
		ut_jsonw_kstr(w, "file", v[i].file);
		ut_jsonw_kint(w, "line", v[i].line);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
}

static void write_finding(ut_jsonw *w, const ut_finding *f)
{
	char fp[33];

	ut_finding_fingerprint(f, fp);
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "kind", ut_finding_kind_name(f->kind));
	ut_jsonw_kstr(w, "severity", ut_severity_name(f->severity));
	ut_jsonw_kstr(w, "test", f->test);
	ut_jsonw_kstr(w, "file", f->file);
	ut_jsonw_kint(w, "line", f->line);
	ut_jsonw_kint(w, "end_line", f->end_line);
	ut_jsonw_kstr(w, "title", ut_finding_title(f));
	ut_jsonw_kstr(w, "message", f->message);
	ut_jsonw_kstr(w, "fingerprint", fp);
	ut_jsonw_key(w, "related");
	tests(w, f->related, f->nrelated);
	if (f->ndependents) { /* a root cause only: other findings keep their old form */
		ut_jsonw_key(w, "dependents");
		tests(w, f->dependents, f->ndependents);
	}
	ut_jsonw_key(w, "evidence");
	ut_report__evidence(w, f);
	ut_jsonw_obj_end(w);
}

void ut_report__evidence(ut_jsonw *w, const ut_finding *f)
{
	size_t i;

	ut_jsonw_arr_begin(w);
	for (i = 0; i < f->nevidence; i++)
		ut_jsonw_int(w, f->evidence[i]);
	ut_jsonw_arr_end(w);
}

int ut_report__finish(const ut_buf *out, ut_buf *scratch)
{
	int rc = out->failed || (scratch && scratch->failed)
		     ? ut_error_set(UT_ENOMEM, "report too large")
		     : 0;

	ut_buf_dispose(scratch);
	return rc;
}

int ut_report_json(ut_buf *out, const ut_findings *fs)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "version", FINDINGS_VERSION);
	ut_jsonw_key(&w, "summary");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "errors", (long long)fs->count[UT_SEVERITY_ERROR]);
	ut_jsonw_kint(&w, "warnings", (long long)fs->count[UT_SEVERITY_WARNING]);
	ut_jsonw_kint(&w, "notices", (long long)fs->count[UT_SEVERITY_NOTICE]);
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "findings");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < fs->v.n; i++)
		write_finding(&w, &fs->v.v[i]);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_buf_putc(out, '\n');
	return ut_report__finish(out, NULL);
}

typedef struct {
	const char *path;
	size_t index; /* of the finding, for messages */
} reader;

/* A string member, NULL when absent or null; UT_EINPUT when it is something else. */
static int get_str(const reader *r, const ut_json *obj, const char *key, const char **out)
{
	const ut_json *v = ut_json_get(obj, key);

	*out = NULL;
	if (!v || ut_json_is_null(v))
		return 0;
	if (!ut_json_is_string(v))
		return ut_error_set(UT_EINPUT, "%s: findings[%zu].%s: expected a string", r->path,
				    r->index, key);
	*out = ut_json_string(v);
	return 0;
}

static int get_line(const reader *r, const ut_json *obj, const char *key, unsigned *out)
{
	const ut_json *v = ut_json_get(obj, key);
	double d;

	*out = 0;
	if (!v || ut_json_is_null(v))
		return 0;
	d = ut_json_number(v);
	if (!ut_json_is_number(v) || d < 0 || d > 4294967295.0 || d != floor(d))
		return ut_error_set(UT_EINPUT, "%s: findings[%zu].%s: expected a line number",
				    r->path, r->index, key);
	*out = (unsigned)d;
	return 0;
}

typedef UT_VEC(ut_finding_test) test_vec;

/* The tests of j[key] (an array of {"id", "file", "line"}; none when missing). */
static int read_tests(const reader *r, const ut_json *j, const char *key, test_vec *out)
{
	int rc = 0;

	for (const ut_json *v = ut_json_first(ut_json_get(j, key)); !rc && v; v = ut_json_next(v)) {
		ut_finding_test t = {NULL, NULL, 0};

		rc = get_str(r, v, "id", &t.id);
		if (!rc && !t.id)
			rc = ut_error_set(UT_EINPUT, "%s: findings[%zu].%s: no id", r->path,
					  r->index, key);
		if (!rc)
			rc = get_str(r, v, "file", &t.file);
		if (!rc)
			rc = get_line(r, v, "line", &t.line);
		if (!rc && ut_vec_push(out, t))
			rc = ut_error_set(UT_ENOMEM, "out of memory reading findings");
	}
	return rc;
}

static int read_finding(ut_findings *fs, const reader *r, const ut_json *j)
{
	test_vec related = {0}, dependents = {0};
	UT_VEC(long) evidence = {0};
	const ut_json *v;
	const char *kind = NULL, *severity = NULL;
	ut_finding f;
	int rc;

	memset(&f, 0, sizeof(f));
	if (!ut_json_is_object(j)) {
		rc = ut_error_set(UT_EINPUT, "%s: findings[%zu]: expected an object", r->path,
				  r->index);
		goto done;
	}
	rc = get_str(r, j, "kind", &kind);
	if (!rc && ut_finding_kind_parse(kind, &f.kind))
		rc = ut_error_set(UT_EINPUT, "%s: findings[%zu]: unknown kind '%s'", r->path,
				  r->index, kind ? kind : "");
	if (!rc)
		rc = get_str(r, j, "severity", &severity);
	f.severity = ut_finding_kind_severity(f.kind);
	if (!rc && severity && ut_severity_parse(severity, &f.severity))
		rc = ut_error_set(UT_EINPUT, "%s: findings[%zu]: unknown severity '%s'", r->path,
				  r->index, severity);
	if (!rc)
		rc = get_str(r, j, "test", &f.test);
	if (!rc && !f.test)
		rc = ut_error_set(UT_EINPUT, "%s: findings[%zu]: no test", r->path, r->index);
	if (!rc)
		rc = get_str(r, j, "file", &f.file);
	if (!rc)
		rc = get_str(r, j, "title", &f.title);
	if (!rc)
		rc = get_str(r, j, "message", &f.message);
	if (!rc)
		rc = get_line(r, j, "line", &f.line);
	if (!rc)
		rc = get_line(r, j, "end_line", &f.end_line);
	if (!rc)
		rc = read_tests(r, j, "related", &related);
	if (!rc)
		rc = read_tests(r, j, "dependents", &dependents);
	for (v = ut_json_first(ut_json_get(j, "evidence")); !rc && v; v = ut_json_next(v)) {
		long run;

		if (!ut_json_whole(v, 0, LONG_MAX, &run))
			rc = ut_error_set(UT_EINPUT, "%s: findings[%zu].evidence: expected run ids",
					  r->path, r->index);
		else if (ut_vec_push(&evidence, run))
			rc = ut_error_set(UT_ENOMEM, "out of memory reading findings");
	}
	if (rc)
		goto done;
	f.related = related.v;
	f.nrelated = related.n;
	f.dependents = dependents.v;
	f.ndependents = dependents.n;
	f.evidence = evidence.v;
	f.nevidence = evidence.n;
	rc = ut_findings_add(fs, &f);
done:
	ut_vec_free(&related);
	ut_vec_free(&dependents);
	ut_vec_free(&evidence);
	return rc;
}

int ut_report_json_read(ut_findings *fs, const char *text, size_t len, const char *path)
{
	ut_json *doc = NULL;
	const ut_json *v;
	reader r = {path, 0};
	int rc = ut_json_parse(&doc, text, len, path);

	if (rc)
		goto done;
	v = ut_json_get(doc, "version");
	if (!v || !ut_json_is_number(v) || ut_json_number(v) != FINDINGS_VERSION) {
		rc = ut_error_set(UT_EINPUT, "%s: not a findings document of version %d", path,
				  FINDINGS_VERSION);
		goto done;
	}
	v = ut_json_get(doc, "findings");
	if (!ut_json_is_array(v)) {
		rc = ut_error_set(UT_EINPUT, "%s: 'findings' must be an array", path);
		goto done;
	}
	for (v = ut_json_first(v); !rc && v; v = ut_json_next(v), r.index++)
		rc = read_finding(fs, &r, v);
done:
	ut_json_free(doc);
	return rc;
}
