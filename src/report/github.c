/* github.c: findings as GitHub Actions workflow commands (::error file=...::message). */
#include "report/report.h"

#include "report/internal.h"
#include "util/esc.h"
#include "util/banned.h"

static const char *const commands[UT_SEVERITY_N] = {"error", "warning", "notice"};

static void command(ut_buf *out, const ut_finding *f)
{
	char sep = ' ';

	ut_buf_printf(out, "::%s", commands[f->severity]);
	if (f->file) {
		ut_buf_puts(out, " file=");
		ut_esc_github_property(out, f->file);
		sep = ',';
		if (f->line) {
			ut_buf_printf(out, ",line=%u", f->line);
			if (f->end_line > f->line)
				ut_buf_printf(out, ",endLine=%u", f->end_line);
		}
	}
	ut_buf_putc(out, sep);
	ut_buf_puts(out, "title=");
	ut_esc_github_property(out, ut_finding_title(f));
	ut_buf_puts(out, "::");
	/* the test id leads, so that an annotation without a file still names its test */
	ut_esc_github_data(out, f->test);
	ut_buf_puts(out, ": ");
	ut_esc_github_data(out, f->message);
	ut_buf_putc(out, '\n');
}

int ut_report_github(ut_buf *out, const ut_findings *fs)
{
	size_t shown[UT_SEVERITY_N] = {0}, left[UT_SEVERITY_N] = {0};
	size_t limit[UT_SEVERITY_N], i;
	int s, any_left = 0;

	for (s = 0; s < UT_SEVERITY_N; s++) {
		limit[s] = UT_REPORT_GITHUB_PER_TYPE;
		if (fs->count[s] > limit[s])
			any_left = 1;
	}
	/* the line that counts what was left out is a notice too */
	if (any_left || fs->count[UT_SEVERITY_NOTICE] > limit[UT_SEVERITY_NOTICE])
		limit[UT_SEVERITY_NOTICE]--;
	for (i = 0; i < fs->v.n; i++) {
		const ut_finding *f = &fs->v.v[i];

		if (shown[f->severity] < limit[f->severity]) {
			command(out, f);
			shown[f->severity]++;
		} else {
			left[f->severity]++;
		}
	}
	if (left[0] + left[1] + left[2]) {
		const char *sep = "";

		ut_buf_puts(out, "::notice title=untangle::");
		for (s = 0; s < UT_SEVERITY_N; s++) {
			if (!left[s])
				continue;
			ut_buf_printf(out, "%s%zu more %s%s", sep, left[s], commands[s],
				      left[s] == 1 ? "" : "s");
			sep = ", ";
		}
		ut_buf_puts(out, " not annotated here: see the step summary\n");
	}
	return ut_report__finish(out, NULL);
}
