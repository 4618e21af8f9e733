/* candidates.h: the candidate graph of a suite in one call: extraction (string analysis or
 * original order), the value filter and an NLP configuration (DESIGN.md pipeline). */
#ifndef UT_CANDIDATES_H
#define UT_CANDIDATES_H

#include <stdbool.h>
#include <stddef.h>

#include "extract/extract.h"
#include "filter/filter.h"
#include "graph/graph.h"
#include "model/suite.h"
#include "util/buf.h"

/* Above this many (edge, value) pairs of kept values, string analysis refuses (UT_EINPUT)
 * and names the value to ignore (a pair costs up to a few hundred bytes). */
#define UT_CANDIDATES_MAX_PAIRS ((size_t)2000000)

typedef struct {
	bool original_order;         /* --extract order: every later test on every earlier */
	ut_filter_level filter;
	const char *const *ignore;   /* values.ignore */
	size_t nignore;
	const char *const *read_verbs, *const *write_verbs; /* nlp.read_verbs, write_verbs */
	size_t nread, nwrite;
	/* Above this many (edge, value) pairs, dropped values are not paired at all and their
	 * edges are counted in unlisted_pairs instead of being listed as filtered (0: 1M). */
	size_t max_dropped_pairs;
} ut_candidates_opts;

typedef struct {
	ut_value_stats values;       /* every value of the suite, ranked */
	ut_extract_stats extract;
	ut_filter_stats filter;
	size_t unlisted_pairs;       /* upper bound of pairs of dropped values not listed */
} ut_candidates_report;

/* Builds the candidate graph of `s`. *out and report->values belong to the caller
 * (ut_graph_free, ut_candidates_report_dispose). UT_EENV when an NLP filter is asked for
 * and WordNet's data is missing. */
int ut_candidates_build(ut_graph **out, ut_candidates_report *report, const ut_suite *s,
			const ut_candidates_opts *opts);
void ut_candidates_report_dispose(ut_candidates_report *r);
/* Which edges `candidates` lists. */
typedef struct {
	long test;    /* only the edges whose dependent or dependee is this test; -1: all */
	size_t limit; /* at most this many, the strongest; 0: all */
	bool dropped; /* also the edges a filter dropped */
	const char *test_id; /* the test's id, for the output; NULL when test < 0 */
} ut_candidates_select_opts;

typedef struct {
	size_t matching; /* the edges that match test and dropped */
	size_t listed;   /* of those, the ones left in the graph: min(matching, limit) */
} ut_candidates_selection;

/* Leaves in g only the edges o selects, strongest first (docs/commands.md): kept before
 * dropped, declared before found, then more values outside setup code, more values, and
 * the order they were found in. Edge pointers are invalid afterwards. 0 or UT_ENOMEM. */
int ut_candidates_select(ut_graph *g, const ut_candidates_select_opts *o,
			 ut_candidates_selection *out);
/* `untangle candidates --json`: the edges left in g, with what was selected (sel, o) and
 * the counts of the whole candidate graph (r); 0 or UT_ENOMEM. */
int ut_candidates_write_json(ut_buf *out, const ut_graph *g, const ut_candidates_report *r,
			     const char *extract, const char *filter,
			     const ut_candidates_select_opts *o, const ut_candidates_selection *sel);

#endif
