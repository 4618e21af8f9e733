/* filter.h: removing likely-false candidate edges (thesis 5.2.2): dependency-free values
 * and the NLP configurations verb, dobj and noun. A filtered edge stays in the graph with
 * `filtered_by` and a reason, so that every verdict can be shown. */
#ifndef UT_FILTER_H
#define UT_FILTER_H

#include <stddef.h>

#include "extract/extract.h"
#include "graph/graph.h"
#include "nlp/nlp.h"

typedef enum {
	UT_FILTER_NONE,   /* keep every candidate */
	UT_FILTER_VALUES, /* drop edges caused only by dependency-free or ignored values */
	UT_FILTER_VERB,   /* values, then read-after-read and write-after-read */
	UT_FILTER_DOBJ,   /* verb, then RaW and WaW whose direct objects differ */
	UT_FILTER_NOUN    /* verb, then RaW and WaW whose names share no noun */
} ut_filter_level;

/* "none", "values", "verb", "dobj", "noun". */
const char *ut_filter_level_name(ut_filter_level level);
/* 0, or UT_EINPUT for an unknown name. */
int ut_filter_level_parse(const char *name, ut_filter_level *out);

typedef struct {
	size_t candidates;  /* edges looked at */
	size_t by_values, by_verb, by_dobj, by_noun;
	size_t kept;
	size_t no_verdict;  /* kept by the NLP configuration for want of a verb on one side */
} ut_filter_stats;

/* Marks the edges whose values are all dropped (ut_value_dropped) as filtered by
 * "values", and removes dropped values from the edges that stay. */
int ut_filter_values(ut_graph *g, const ut_value_stats *st, ut_filter_stats *fs);

/* Analyses the names of the graph's tests with `nlp` and sets their hints (nouns, direct
 * object, verb class: ut_graph_set_hints), then applies an NLP configuration
 * (UT_FILTER_VERB, _DOBJ or _NOUN; a lower level filters nothing) to the edges still kept.
 * An edge the verb rule drops is attributed to "verb", the others to the configuration. */
int ut_filter_nlp(ut_graph *g, ut_nlp *nlp, ut_filter_level level, ut_filter_stats *fs);

/* Counts the kept edges into fs->kept. */
void ut_filter_count(const ut_graph *g, ut_filter_stats *fs);

#endif
