/* cmd_report.c: `untangle report --findings FILE`: a findings file (the plain JSON form) in
 * one of the report formats, and optionally posted to GitHub; what `check` writes, alone. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "post/github.h"
#include "report/report.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define FINDINGS_MAX (64u * 1024u * 1024u)


static int markdown(ut_buf *out, const ut_findings *fs)
{
	return ut_report_markdown(out, fs, NULL);
}

static const struct {
	const char *name;
	int (*write)(ut_buf *out, const ut_findings *fs);
} formats[] = {
    {"github", ut_report_github}, {"markdown", markdown},   {"sarif", ut_report_sarif},
    {"gitlab", ut_report_gitlab}, {"json", ut_report_json},
};

ut_cli_report_writer ut_cli_report_format(const char *name)
{
	for (size_t i = 0; name && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(name, formats[i].name))
			return formats[i].write;
	return NULL;
}

int ut_cli_post_github(const ut_findings *fs)
{
	ut_buf summary = UT_BUF_INIT;
	ut_github_opts gh;
	ut_github_result res;
	int rc = ut_report_markdown(&summary, fs, NULL);

	if (!rc) {
		ut_github_opts_from_env(&gh);
		rc = ut_github_post(&res, &gh, fs, summary.ptr);
	}
	if (!rc)
		ut_infof("posted check run %ld with %zu annotation%s%s", res.check_run_id,
			 res.annotations, res.annotations == 1 ? "" : "s",
			 res.comment_id ? " and a pull-request comment" : "");
	ut_buf_dispose(&summary);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	ut_cli_common common = {0};
	const char *path = NULL, *format = NULL, *post = NULL;
	ut_opt opts[] = {
	    UT_OPT_REQUIRED(UT_OPT_VALUE, 0, "findings", "FILE",
	     "the findings (JSON, as --format json writes)", &path),
	    UT_OPT_ROW(UT_OPT_VALUE, 'f', "format", "github|markdown|sarif|gitlab|json",
	     "output format (default json; none with --post unless given)", &format),
	    UT_OPT_ROW(UT_OPT_VALUE, 0, "post", "github",
	     "post a check run and a pull-request comment (GITHUB_TOKEN, GITHUB_REPOSITORY, "
	     "GITHUB_EVENT_PATH)",
	     &post),
	    UT_OPT_END,
	};
	ut_cli_report_writer write = NULL;
	ut_buf text = UT_BUF_INIT, out = UT_BUF_INIT;
	ut_findings fs;
	int rc, exit_code;

	ut_findings_init(&fs);
	if (!ut_cli_parse("report", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = UT_EXIT_INPUT;
	if (common.json)
		format = "json";
	if (!format && !post)
		format = "json";
	write = ut_cli_report_format(format);
	if (format && !write) {
		ut_errorf("--format: '%s' is not one of github, markdown, sarif, gitlab, json",
			  format);
		goto done;
	}
	if (post && strcmp(post, "github")) {
		ut_errorf("--post: '%s' is not supported (only github)", post);
		goto done;
	}
	exit_code = ut_cli_chdir_project(&common, NULL);
	if (exit_code)
		goto done;
	rc = ut_fs_read(&text, path, FINDINGS_MAX);
	if (rc == UT_ENOTFOUND)
		rc = ut_error_set(UT_EINPUT, "findings file '%s' does not exist", path);
	if (!rc)
		rc = ut_report_json_read(&fs, text.ptr, text.len, path);
	ut_findings_sort(&fs);
	if (!rc && write)
		rc = write(&out, &fs);
	/* the annotations reach the log even when posting fails */
	if (!rc)
		fwrite(out.ptr, 1, out.len, stdout);
	fflush(stdout);
	if (!rc && post)
		rc = ut_cli_post_github(&fs);
	if (rc) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	exit_code = UT_EXIT_OK;
done:
	ut_buf_dispose(&text);
	ut_buf_dispose(&out);
	ut_findings_dispose(&fs);
	return exit_code;
}
