/* cmd_explain.c: `untangle explain TEST`: why a test depends on others: the values behind
 * each edge, the runs that proved or refuted it (from the journal), and its schedule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "store/journal.h"
#include "graph/graph_json.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"


static void print_run(const ut_journal *j, long run)
{
	const ut_journal_record *r = ut_journal_find(j, run);
	size_t i, fails = 0;

	if (!r) {
		printf("      run %ld (not in the journal)\n", run);
		return;
	}
	printf("      run %ld: %s: ", run, ut_cli_esc(r->purpose));
	for (i = 0; i < r->n; i++) {
		if (r->outcomes[i] != UT_OUT_PASS) {
			const char *id = ut_journal_test_id(j, r->tests[i]);

			printf("%s%s %s", fails++ ? ", " : "", id ? ut_cli_esc(id) : "?",
			       ut_outcome_name(r->outcomes[i]));
		}
	}
	printf("%s (%zu tests)\n", fails ? "" : "all passed", r->n);
}

static void print_edge(const ut_graph *g, const ut_edge *e, uint32_t other, const ut_journal *j)
{
	uint32_t k;
	size_t i;

	printf("  %s  %s, %s", ut_cli_esc(g->tests[other].id),
	       e->filtered_by ? "filtered" : ut_edge_status_name(e->status),
	       ut_edge_origin_name(e->origin));
	for (k = 0; k < e->nvalues; k++)
	{
		printf(k ? ", " : "; values: ");
		ut_cli_print_quoted(e->values[k].value);
		printf("%s", e->values[k].setup ? " (setup)" : "");
	}
	putchar('\n');
	if (e->filtered_by)
		printf("      by %s: %s\n", e->filtered_by, ut_cli_esc(e->reason));
	else if (e->reason)
		printf("      %s\n", ut_cli_esc(e->reason));
	for (i = 0; i < e->evidence.n; i++)
		print_run(j, e->evidence.v[i]);
}

/* Prints the explanation; its schedule is the one shard and run use. The exit code. */
static int explain_text(const ut_graph *g, uint32_t t, const ut_journal *j)
{
	const ut_graph_test *test = &g->tests[t];
	ut_scheduler sched;
	uint32_t *in = NULL;
	size_t i, len = 0, cap = 0;
	bool any;

	printf("%s\n  %s:%u, position %u in the original order%s\n", ut_cli_esc(test->id),
	       ut_cli_esc(test->file),
	       test->line, t + 1, test->flaky ? ", flaky (left out)" : "");
	for (int pass = 0; pass < 3; pass++) {
		static const char *const heads[] = {"depends on", "does not depend on",
						    "needed by"};

		any = false;
		for (i = 0; i < g->edges.n; i++) {
			const ut_edge *e = &g->edges.v[i];
			bool mine = pass < 2 ? e->dependent == t : e->dependee == t;
			bool manifest = e->status == UT_EDGE_MANIFEST;

			if (!mine || (pass == 0 && !manifest) || (pass == 1 && manifest) ||
			    (pass == 2 && !manifest))
				continue;
			if (!any)
				printf("%s:\n", heads[pass]);
			any = true;
			print_edge(g, e, pass < 2 ? e->dependee : e->dependent, j);
		}
		if (!any && pass == 0)
			printf("depends on: nothing (runs alone after a reset)\n");
		if (pass == 1 && test->pass_run > 0) {
			/* graph.json keeps no refuted edge: this run refutes every one of them */
			printf("%s any other earlier test: it passed after its prerequisites alone\n",
			       any ? "nor on" : "does not depend on");
			print_run(j, test->pass_run);
		}
	}
	if (ut_scheduler_init(&sched, g) < 0 || ut_scheduler_of(&sched, t, &in, &len, &cap) < 0) {
		ut_errorf("%s", ut_error_message());
		ut_scheduler_dispose(&sched);
		free(in);
		return UT_EXIT_ENV;
	}
	printf("schedule:");
	for (i = 0; i < len; i++)
		printf("%s %s", i ? "," : "", ut_cli_esc(g->tests[in[i]].id));
	putchar('\n');
	ut_scheduler_dispose(&sched);
	free(in);
	return UT_EXIT_OK;
}

int cmd_explain(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	ut_opt opts[] = {
		{.kind = UT_OPT_REST, .value_name = "TEST", .help = "a test id, name, or the end of an id",
		 .target = &rest, .max = 1, .required = true},
		UT_OPT_END,
	};
	ut_config cfg;
	ut_graph *g = NULL;
	ut_journal *j = NULL;
	bool ambiguous = false;
	long t;
	int rc, exit_code = UT_EXIT_OK;

	ut_config_init(&cfg);
	if (!ut_cli_parse("explain", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = ut_cli_chdir_project(&common, NULL);
	if (exit_code)
		goto done;
	rc = ut_config_load(&cfg, "untangle.json", true);
	if (rc == 0)
		rc = ut_store_graph_load(&g, cfg.store.graph);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	t = ut_graph_find_test(g, rest.items[0], &ambiguous);
	if (t < 0) {
		ut_errorf("'%s' %s in %s", rest.items[0],
			  ambiguous ? "names more than one test" : "is no test", cfg.store.graph);
		exit_code = UT_EXIT_INPUT;
		goto done;
	}
	if (ut_journal_load(&j, UT_STORE_JOURNAL) < 0)
		j = NULL; /* explain what the graph holds; runs are shown when the journal is there */
	exit_code = explain_text(g, (uint32_t)t, j);
done:
	ut_journal_close(j);
	ut_graph_free(g);
	free(rest.items);
	ut_config_dispose(&cfg);
	return exit_code;
}
