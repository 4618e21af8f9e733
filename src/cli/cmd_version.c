/* cmd_version.c: `untangle version`: our version and each library's. */
#include <stdio.h>

#include "cli/cli.h"
#include "json/json.h"
#include "minimize/solver.h"
#include "nlp/wordnet.h"
#include "parse/parse.h"
#include "post/http.h"
#include "runner/junit.h"
#include "runner/runner.h"
#include "util/buf.h"
#include "util/jsonw.h"
#include "vcs/git.h"
#include "util/banned.h"

int cmd_version(int argc, char **argv)
{
	ut_cli_common common = {0};
	const char *libs[6];
	size_t i;
	int rc;

	if (!ut_cli_parse("version", NULL, &common, argc, argv, &rc))
		return rc;
	libs[0] = ut_json_version();
	libs[1] = ut_git_version();
	libs[2] = ut_http_version();
	libs[3] = ut_solver_version();
	libs[4] = ut_junit_xml_version();
	libs[5] = ut_wordnet_version();
	if (common.json) {
		ut_buf out = UT_BUF_INIT;
		ut_jsonw w;

		ut_jsonw_init(&w, &out, true);
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "version", UT_VERSION);
		ut_jsonw_key(&w, "libraries");
		ut_jsonw_arr_begin(&w);
		for (i = 0; i < 6; i++)
			ut_jsonw_str(&w, libs[i]);
		ut_jsonw_arr_end(&w);
		ut_jsonw_kbool(&w, "wordnet_data", ut_wordnet_available());
		ut_jsonw_kstr(&w, "runner_helpers", ut_runner_helpers_dir());
		ut_jsonw_kstr(&w, "runner_helpers_from", ut_runner_helpers_origin());
		ut_jsonw_obj_end(&w);
		fwrite(out.ptr, 1, out.len, stdout);
		ut_buf_dispose(&out);
		return 0;
	}
	printf("untangle %s\n", UT_VERSION);
	for (i = 0; i < 6; i++)
		printf("  %s\n", libs[i]);
	printf("  WordNet data: %s\n", ut_wordnet_available() ? "found" : "missing");
	printf("runner helpers: %s (%s)\n", ut_runner_helpers_dir(), ut_runner_helpers_origin());
	return 0;
}
