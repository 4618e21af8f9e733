/* candidates_json.c: `untangle candidates --json`: the graph plus the filter summary. */
#include "filter/candidates.h"

#include "graph/graph_json.h"
#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

/* "listed": which edges "edges" holds, of how many that match. */
static void write_listed(ut_jsonw *w, const ut_candidates_select_opts *o,
			 const ut_candidates_selection *sel)
{
	ut_jsonw_key(w, "listed");
	ut_jsonw_obj_begin(w);
	if (o->test_id)
		ut_jsonw_kstr(w, "test", o->test_id);
	if (o->limit)
		ut_jsonw_kint(w, "limit", (long long)o->limit);
	ut_jsonw_kbool(w, "dropped", o->dropped);
	ut_jsonw_kint(w, "matching", (long long)sel->matching);
	ut_jsonw_kint(w, "edges", (long long)sel->listed);
	ut_jsonw_kint(w, "left_out", (long long)(sel->matching - sel->listed));
	ut_jsonw_obj_end(w);
}

int ut_candidates_write_json(ut_buf *out, const ut_graph *g, const ut_candidates_report *r,
			     const char *extract, const char *filter,
			     const ut_candidates_select_opts *o, const ut_candidates_selection *sel)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "extract", extract);
	ut_jsonw_kstr(&w, "filter", filter);
	ut_graph_write_members(&w, g);
	ut_jsonw_key(&w, "dropped_values");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < r->values.n; i++) {
		const ut_value_stat *v = &r->values.v[i];

		if (!ut_value_dropped(v))
			continue;
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "value", v->value);
		ut_jsonw_kstr(&w, "why", v->dependency_free ? UT_VALUE_FREE_WHY : "values.ignore");
		ut_jsonw_kint(&w, "users", (long long)v->users);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "summary");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "tests", (long long)g->ntests);
	ut_jsonw_kint(&w, "candidates", (long long)r->filter.candidates);
	ut_jsonw_kint(&w, "kept", (long long)r->filter.kept);
	ut_jsonw_kint(&w, "by_values", (long long)r->filter.by_values);
	ut_jsonw_kint(&w, "by_verb", (long long)r->filter.by_verb);
	ut_jsonw_kint(&w, "by_dobj", (long long)r->filter.by_dobj);
	ut_jsonw_kint(&w, "by_noun", (long long)r->filter.by_noun);
	ut_jsonw_kint(&w, "kept_without_nlp_verdict", (long long)r->filter.no_verdict);
	ut_jsonw_kint(&w, "unlisted_value_pairs", (long long)r->unlisted_pairs);
	ut_jsonw_obj_end(&w);
	write_listed(&w, o, sel);
	ut_jsonw_obj_end(&w);
	return ut_jsonw_end(&w, "output");
}
