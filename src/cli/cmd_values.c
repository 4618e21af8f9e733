/* cmd_values.c: `untangle values`: string values ranked by how many tests use them, so
 * that the dependency-free ones can be listed in values.ignore (thesis 5.2.2.1). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "extract/extract.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"


static const char *verdict(const ut_value_stat *v)
{
	if (v->dependency_free)
		return "dropped: " UT_VALUE_FREE_WHY;
	if (v->ignored)
		return "dropped: values.ignore";
	if (!v->submitters)
		return "never submitted";
	return "";
}

static int write_json(ut_buf *out, const ut_value_stats *st, size_t limit)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "tests", (long long)st->ntests);
	ut_jsonw_key(&w, "values");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < st->n && i < limit; i++) {
		const ut_value_stat *v = &st->v[i];

		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "value", v->value);
		ut_jsonw_kint(&w, "users", (long long)v->users);
		ut_jsonw_kint(&w, "submitters", (long long)v->submitters);
		ut_jsonw_kint(&w, "setup_only_users", (long long)v->setup_users);
		ut_jsonw_kbool(&w, "dependency_free", v->dependency_free);
		ut_jsonw_kbool(&w, "ignored", v->ignored);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	return ut_jsonw_end(&w, "output");
}

int cmd_values(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	long limit = 30;
	bool all = false;
	ut_opt opts[] = {
		UT_OPT_INT_ROW('n', "limit", "N", "show the N most used values (default 30)", &limit, 1,
			       LONG_MAX),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "all", NULL, "show every value", &all),
		UT_OPT_ROW(UT_OPT_REST, 0, NULL, "PATH", "files or folders with tests", &rest),
		UT_CLI_OPT_SUITE(common),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_value_stats st;
	ut_buf out = UT_BUF_INIT;
	size_t i, shown;
	int rc, exit_code;

	memset(&p, 0, sizeof(p));
	memset(&st, 0, sizeof(st));
	if (!ut_cli_parse("values", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = ut_cli_project_load(&p, &common, &rest);
	if (exit_code)
		goto done;
	rc = ut_value_stats_build(&st, p.suite, p.cfg.values.ignore.items, p.cfg.values.ignore.n);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	shown = all || (size_t)limit > st.n ? st.n : (size_t)limit;
	if (common.json) {
		rc = write_json(&out, &st, shown);
		if (rc < 0) {
			ut_errorf("%s", ut_error_message());
			exit_code = UT_EXIT_ENV;
			goto done;
		}
		fwrite(out.ptr, 1, out.len, stdout);
		goto done;
	}
	printf("%5s %5s  %s\n", "users", "subm", "value");
	for (i = 0; i < shown; i++) {
		const ut_value_stat *v = &st.v[i];
		const char *why = verdict(v);

		printf("%5zu %5zu  ", v->users, v->submitters);
		ut_cli_print_quoted(v->value);
		if (v->setup_users)
			printf("  (setup code only in %zu)", v->setup_users);
		if (*why)
			printf("  %s", why);
		putchar('\n');
	}
	if (st.n > shown)
		printf("... %zu more (--all)\n", st.n - shown);
	ut_infof("%zu values in %zu tests", st.n, st.ntests);
done:
	ut_buf_dispose(&out);
	ut_value_stats_dispose(&st);
	free(rest.items);
	ut_cli_project_dispose(&p);
	return exit_code;
}
