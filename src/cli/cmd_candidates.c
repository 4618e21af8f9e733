/* cmd_candidates.c: `untangle candidates`: the candidate graph, each edge with the values
 * behind it and, for filtered edges, the filter that removed it and why. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "filter/candidates.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"


static void explain_json(const ut_name_info *info)
{
	ut_buf out = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, &out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "name", info->name);
	ut_jsonw_key(&w, "tokens");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < info->ntokens; i++) {
		const ut_nlp_token *t = &info->tokens[i];

		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "text", t->text);
		ut_jsonw_kstr(&w, "lemma", t->lemma);
		ut_jsonw_kstr(&w, "tag", ut_nlp_tag_name(t->tag));
		ut_jsonw_kstr(&w, "stop", t->stop);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_kstr(&w, "verb", info->verb);
	ut_jsonw_kstr(&w, "class", ut_verb_class_name(info->verb_class));
	ut_jsonw_kstr(&w, "why", info->verb_reason);
	ut_jsonw_kstr(&w, "dobj", info->dobj);
	ut_jsonw_key(&w, "nouns");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < info->nnouns; i++)
		ut_jsonw_str(&w, info->nouns[i]);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_buf_putc(&out, '\n');
	fwrite(out.ptr, 1, out.len, stdout);
	ut_buf_dispose(&out);
}

/* --explain-name: the analysis of one name in the context of the suite's names. */
static int explain_name(const ut_cli_project *p, const char *name, bool json)
{
	const char **names = NULL;
	const ut_name_info *info = NULL;
	ut_nlp *nlp = NULL;
	ut_buf out = UT_BUF_INIT;
	size_t i, n = p->suite->tests.n;
	int rc;

	rc = ut_nlp_new(&nlp, p->cfg.nlp.read_verbs.items, p->cfg.nlp.read_verbs.n,
			p->cfg.nlp.write_verbs.items, p->cfg.nlp.write_verbs.n);
	names = calloc(n ? n : 1, sizeof(*names));
	if (rc == 0 && !names)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && i < n; i++)
		names[i] = p->suite->tests.v[i].name;
	if (rc == 0)
		rc = ut_nlp_set_suite_names(nlp, names, n);
	if (rc == 0)
		rc = ut_nlp_analyze(nlp, name, &info);
	if (rc == 0 && json)
		explain_json(info);
	else if (rc == 0)
		rc = ut_nlp_explain(info, &out);
	if (rc < 0)
		ut_errorf("%s", ut_error_message());
	else
		fwrite(out.ptr, 1, out.len, stdout);
	ut_buf_dispose(&out);
	free(names);
	ut_nlp_free(nlp);
	return rc < 0 ? ut_cli_exit_code(rc) : UT_EXIT_OK;
}

static void print_text(const ut_graph *g, const ut_candidates_report *r, const char *extract,
		       const char *filter, const ut_candidates_select_opts *o,
		       const ut_candidates_selection *sel)
{
	bool dropped = o->dropped;
	size_t i;
	uint32_t k;

	for (i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (e->filtered_by && !dropped)
			continue;
		printf("%-8s %s -> %s", e->filtered_by ? "dropped" : "kept",
		       ut_cli_esc(g->tests[e->dependent].id), ut_cli_esc(g->tests[e->dependee].id));
		if (e->origin == UT_ORIGIN_DECLARED)
			printf("  (declared)");
		for (k = 0; k < e->nvalues; k++) {
			printf(k ? ", " : "  values: ");
			ut_cli_print_quoted(e->values[k].value);
			if (e->values[k].setup)
				printf(" (setup)");
		}
		putchar('\n');
		if (e->filtered_by)
			printf("         by %s: %s\n", e->filtered_by, ut_cli_esc(e->reason));
	}
	printf("%zu tests, %s, filter %s: %zu candidate edges, %zu kept, dropped by values %zu, "
	       "verb %zu, dobj %zu, noun %zu\n",
	       g->ntests, extract, filter, r->filter.candidates, r->filter.kept,
	       r->filter.by_values, r->filter.by_verb, r->filter.by_dobj, r->filter.by_noun);
	if (!dropped && r->filter.candidates > r->filter.kept)
		printf("the %zu dropped edges, each with the filter and the reason: --dropped\n",
		       r->filter.candidates - r->filter.kept);
	if (r->unlisted_pairs)
		printf("not listed: edges caused only by dependency-free values (up to %zu pairs)\n",
		       r->unlisted_pairs);
	if (o->test_id)
		printf("%zu edge%s with %s (--test)\n", sel->matching, sel->matching == 1 ? "" : "s",
		       ut_cli_esc(o->test_id));
	if (sel->matching > sel->listed)
		printf("... and %zu more (--limit %zu)\n", sel->matching - sel->listed, o->limit);
}

/* --test, --limit and --dropped: the edges left in g. An unknown test is exit 2. */
static int select_edges(ut_graph *g, const char *test, long limit, bool dropped,
			ut_candidates_select_opts *so, ut_candidates_selection *sel)
{
	bool ambiguous = false;

	so->dropped = dropped;
	so->limit = (size_t)limit;
	if (test) {
		so->test = ut_graph_find_test(g, test, &ambiguous);
		if (so->test < 0) {
			ut_errorf("--test: '%s' %s", test,
				  ambiguous ? "names more than one test" : "is no test of the suite");
			return UT_EXIT_INPUT;
		}
		so->test_id = g->tests[so->test].id;
	}
	if (ut_candidates_select(g, so, sel) < 0) {
		ut_errorf("%s", ut_error_message());
		return UT_EXIT_ENV;
	}
	return UT_EXIT_OK;
}

static bool candidate_style(const ut_edge *e, void *ctx, char *attrs, size_t size)
{
	(void)ctx;
	if (e->filtered_by)
		snprintf(attrs, size, "style=dashed, color=gray, label=\"%s\"", e->filtered_by);
	return true;
}

int cmd_candidates(int argc, char **argv)
{
	ut_cli_common common = {0};
	ut_cli_rest rest = {0};
	const char *extract = NULL, *filter = NULL, *explain = NULL, *test = NULL;
	bool dot = false, dropped = false;
	long limit = 0;
	ut_opt opts[] = {
		UT_OPT_ROW(UT_OPT_VALUE, 0, "extract", "string|order",
		 "string analysis (default) or every later test on every earlier one", &extract),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "filter", "none|values|verb|dobj|noun",
		 "filter configuration (default: detect.filter of untangle.json)", &filter),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "dot", NULL, "print the graph for Graphviz", &dot),
		UT_OPT_ROW(UT_OPT_FLAG, 0, "dropped", NULL,
		 "also the edges a filter dropped, with the filter and why (text and --json)",
		 &dropped),
		UT_OPT_INT_ROW('n', "limit", "N",
			       "at most N edges, the strongest first (kept before dropped, then by "
			       "shared values)", &limit, 1, LONG_MAX),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "test", "TEST",
		 "only the edges whose dependent or dependee is TEST (an id, a name or the end "
		 "of an id)", &test),
		UT_OPT_ROW(UT_OPT_VALUE, 0, "explain-name", "NAME",
		 "show how one test name is tokenized, tagged and classified", &explain),
		UT_OPT_ROW(UT_OPT_REST, 0, NULL, "PATH", "files or folders with tests", &rest),
		UT_CLI_OPT_SUITE(common),
		UT_OPT_END,
	};
	ut_cli_project p;
	ut_candidates_opts co;
	ut_candidates_report report;
	ut_candidates_select_opts so = {-1, 0, false, NULL};
	ut_candidates_selection sel = {0, 0};
	ut_graph *g = NULL;
	ut_buf out = UT_BUF_INIT;
	int rc, exit_code;

	memset(&p, 0, sizeof(p));
	memset(&report, 0, sizeof(report));
	memset(&co, 0, sizeof(co));
	if (!ut_cli_parse("candidates", opts, &common, argc, argv, &exit_code))
		goto done;
	exit_code = ut_cli_project_load(&p, &common, &rest);
	if (exit_code)
		goto done;
	if (explain) {
		exit_code = explain_name(&p, explain, common.json);
		goto done;
	}
	exit_code = ut_cli_candidates_opts(&p, &extract, &filter, &co);
	if (exit_code)
		goto done;
	rc = ut_candidates_build(&g, &report, p.suite, &co);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		exit_code = ut_cli_exit_code(rc);
		goto done;
	}
	exit_code = select_edges(g, test, limit, dropped || dot, &so, &sel);
	if (exit_code)
		goto done;
	if (common.json) {
		out.sink = ut_cli_stdout_sink; /* 1.5 million edges are half a gigabyte of JSON */
		if (ut_candidates_write_json(&out, g, &report, extract, filter, &so, &sel) < 0) {
			ut_errorf("%s", ut_error_message());
			exit_code = UT_EXIT_ENV;
		}
	} else if (dot) {
		ut_cli_print_dot(g, "candidates", candidate_style, NULL);
	} else {
		print_text(g, &report, extract, filter, &so, &sel);
	}
done:
	ut_buf_dispose(&out);
	ut_graph_free(g);
	ut_candidates_report_dispose(&report);
	free(rest.items);
	ut_cli_project_dispose(&p);
	return exit_code;
}
