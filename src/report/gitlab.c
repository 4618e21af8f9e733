/* gitlab.c: findings as a GitLab Code Quality report (artifacts:reports:codequality). */
#include "report/report.h"

#include "report/internal.h"
#include "util/jsonw.h"
#include "util/banned.h"

/* GitLab requires a path; the project's configuration stands in for a test without one. */
#define NO_FILE "untangle.json"

static const char *const severities[UT_SEVERITY_N] = {"major", "minor", "info"};

int ut_report_gitlab(ut_buf *out, const ut_findings *fs)
{
	ut_buf tmp = UT_BUF_INIT;
	ut_jsonw w;
	char fp[33];
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < fs->v.n; i++) {
		const ut_finding *f = &fs->v.v[i];

		ut_buf_clear(&tmp);
		ut_buf_printf(&tmp, "%s: %s: %s", ut_finding_title(f), f->test, f->message);
		ut_finding_fingerprint(f, fp);
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "type", "issue");
		ut_jsonw_kstr(&w, "description", tmp.ptr);
		ut_jsonw_kstr(&w, "check_name", ut_finding_kind_name(f->kind));
		ut_jsonw_key(&w, "categories");
		ut_jsonw_arr_begin(&w);
		ut_jsonw_str(&w, "Bug Risk");
		ut_jsonw_arr_end(&w);
		ut_jsonw_kstr(&w, "fingerprint", fp);
		ut_jsonw_kstr(&w, "severity", severities[f->severity]);
		ut_jsonw_key(&w, "location");
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "path", f->file ? f->file : NO_FILE);
		ut_jsonw_key(&w, "lines");
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kint(&w, "begin", f->file && f->line ? f->line : 1);
		if (f->file && f->end_line > f->line) {
			ut_jsonw_kint(&w, "end", f->end_line);
		}
		ut_jsonw_obj_end(&w);
		ut_jsonw_obj_end(&w);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_buf_putc(out, '\n');
	return ut_report__finish(out, &tmp);
}
