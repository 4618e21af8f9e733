/* text.c: the findings as lines for a person (untangle check's default format). */
#include "report/report.h"

#include "util/error.h"
#include "util/esc.h"
#include "util/banned.h"

int ut_report_text(ut_buf *out, const ut_findings *fs)
{
	for (size_t i = 0; i < fs->v.n; i++) {
		const ut_finding *f = &fs->v.v[i];

		ut_buf_printf(out, "%s: ", ut_severity_name(f->severity));
		if (f->file) {
			ut_esc_text(out, f->file);
			ut_buf_printf(out, ":%u: ", f->line);
		}
		ut_esc_text(out, f->test);
		ut_buf_puts(out, ": ");
		ut_esc_text(out, ut_finding_title(f));
		ut_buf_puts(out, "\n  ");
		ut_esc_text(out, f->message);
		ut_buf_putc(out, '\n');
	}
	ut_buf_printf(out, "%zu error%s, %zu warning%s\n", fs->count[UT_SEVERITY_ERROR],
		      fs->count[UT_SEVERITY_ERROR] == 1 ? "" : "s", fs->count[UT_SEVERITY_WARNING],
		      fs->count[UT_SEVERITY_WARNING] == 1 ? "" : "s");
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
