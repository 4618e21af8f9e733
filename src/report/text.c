/* text.c: the findings as lines for a person (untangle check's default format). */
#include "report/report.h"

#include "util/error.h"
#include "util/banned.h"

int ut_report_text(ut_buf *out, const ut_findings *fs)
{
	for (size_t i = 0; i < fs->v.n; i++) {
		const ut_finding *f = &fs->v.v[i];

		ut_buf_printf(out, "%s: ", ut_severity_name(f->severity));
		if (f->file)
			ut_buf_printf(out, "%s:%u: ", f->file, f->line);
		ut_buf_printf(out, "%s: %s\n  %s\n", f->test, ut_finding_title(f), f->message);
	}
	ut_buf_printf(out, "%zu error%s, %zu warning%s\n", fs->count[UT_SEVERITY_ERROR],
		      fs->count[UT_SEVERITY_ERROR] == 1 ? "" : "s", fs->count[UT_SEVERITY_WARNING],
		      fs->count[UT_SEVERITY_WARNING] == 1 ? "" : "s");
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
