/* cmd_tests.c: `untangle tests`: the parsed suite in original order, a line a test or
 * with its actions (the hooks they share once). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "extract/extract.h"
#include "model/hooks.h"
#include "model/suite_json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"


static void print_values(const char *label, const char *const *v, size_t n)
{
	size_t i;

	if (!n)
		return;
	if (label)
		printf(" %s", label);
	for (i = 0; i < n; i++) {
		const char *s = v[i];

		putchar(' ');
		ut_cli_print_quoted(s);
	}
}

/* One line a test: position, id, where it is, how many values it submits and uses. */
static int print_lines(const ut_suite *s)
{
	size_t i, submits, uses;
	int rc;

	for (i = 0; i < s->tests.n; i++) {
		const ut_test *t = &s->tests.v[i];

		rc = ut_extract_test_counts(t, &submits, &uses);
		if (rc < 0)
			return rc;
		printf("%3zu  %s  %s:%u  submits %zu, uses %zu values\n", t->index, ut_cli_esc(t->id),
		       t->file, t->line, submits, uses);
	}
	return 0;
}

static void print_action(const ut_action *a, bool in_hook)
{
	printf("    %5u %-8s%s", a->line, ut_action_kind_name(a->kind),
	       a->setup && !in_hook ? " (setup)" : "");
	print_values(NULL, a->values, a->nvalues);
	print_values("unresolved:", a->unresolved, a->nunresolved);
	if (a->via)
		printf("  via %s", ut_cli_esc(a->via));
	if (a->file && !in_hook)
		printf("  in %s", ut_cli_esc(a->file));
	putchar('\n');
}

static void print_refs(const char *label, const uint32_t *refs, size_t n)
{
	size_t i;

	if (!n)
		return;
	printf("    %s:", label);
	for (i = 0; i < n; i++)
		printf(" hook %u", refs[i]);
	putchar('\n');
}

/* The shared setup and teardown blocks once, then each test with its own actions and
 * the hooks it runs before and after them. */
static int print_actions(const ut_suite *s)
{
	ut_suite_hooks h;
	size_t i, j;
	int rc;

	rc = ut_suite_hooks_build(&h, s);
	for (i = 0; rc == 0 && i < h.hooks.n; i++) {
		const ut_hook *k = &h.hooks.v[i];

		printf("hook %zu  %s:%u-%u  run by %zu test%s\n", i, ut_cli_esc(k->file), k->line,
		       k->end_line, k->ntests, k->ntests == 1 ? "" : "s");
		for (j = 0; j < k->nactions; j++)
			print_action(&k->actions[j], true);
	}
	for (i = 0; rc == 0 && i < s->tests.n; i++) {
		const ut_test *t = &s->tests.v[i];
		const ut_test_hooks *th = &h.of[i];

		printf("%zu  %s\n    %s %s  %s:%u-%u\n", t->index, ut_cli_esc(t->id), ut_lang_name(t->language),
		       t->framework, ut_cli_esc(t->file), t->line, t->end_line);
		print_refs("setup", ut_suite_hooks_setup(&h, i), th->nsetup);
		for (j = th->own_at; j < th->own_end; j++)
			print_action(&t->actions[j], false);
		print_refs("teardown", ut_suite_hooks_teardown(&h, i), th->nteardown);
	}
	ut_suite_hooks_dispose(&h);
	return rc;
}

int cmd_tests(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	bool actions = false;
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_FLAG, 0, "actions", NULL,
		 "every action with its values, the hooks' once (default: a line a test; "
		 "with --json: counts and the hooks they run)", &actions),
		UT_OPT_ROW(UT_OPT_REST, 0, NULL, "PATH", "files or folders with tests", &rest),
		UT_CLI_OPT_SUITE(common),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_buf out = UT_BUF_INIT;
	int rc, exit_code;

	memset(&p, 0, sizeof(p));
	if (!ut_cli_parse("tests", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = ut_cli_project_load(&p, &common, &rest);
	if (exit_code)
		goto done;
	if (common.json) {
		out.sink = ut_cli_stdout_sink;
		rc = ut_suite_write_json(&out, p.suite, &p.diags, actions, true);
		if (rc < 0) {
			ut_errorf("%s", ut_error_message());
			exit_code = UT_EXIT_ENV;
			goto done;
		}
	} else if (actions ? print_actions(p.suite) < 0 : print_lines(p.suite) < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = UT_EXIT_ENV;
		goto done;
	}
done:
	free(rest.items);
	ut_buf_dispose(&out);
	ut_cli_project_dispose(&p);
	return exit_code;
}
