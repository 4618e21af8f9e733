/* filter.c: the dependency-free value filter and the NLP filter over candidate edges. */
#include "filter/filter.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

static const char *const level_names[] = {"none", "values", "verb", "dobj", "noun"};

const char *ut_filter_level_name(ut_filter_level level)
{
	return (unsigned)level < 5 ? level_names[level] : "?";
}

int ut_filter_level_parse(const char *name, ut_filter_level *out)
{
	int i;

	for (i = 0; name && i < 5; i++) {
		if (!strcmp(name, level_names[i])) {
			*out = (ut_filter_level)i;
			return 0;
		}
	}
	return ut_error_set(UT_EINPUT, "unknown filter '%s' (none, values, verb, dobj, noun)",
			    name ? name : "");
}

int ut_filter_values(ut_graph *g, const ut_value_stats *st, ut_filter_stats *fs)
{
	size_t i;
	uint32_t k, kept;

	for (i = 0; i < g->edges.n; i++) {
		ut_edge *e = &g->edges.v[i];
		const ut_value_stat *first = NULL;
		size_t dropped = 0;

		if (e->filtered_by || e->origin != UT_ORIGIN_STRING)
			continue;
		for (k = 0, kept = 0; k < e->nvalues; k++) {
			const ut_value_stat *v = ut_value_stats_get(st, e->values[k].value);

			if (ut_value_dropped(v)) {
				dropped++;
				if (!first)
					first = v;
			} else {
				e->values[kept++] = e->values[k];
			}
		}
		if (kept) {
			e->nvalues = kept;
			continue;
		}
		e->filtered_by = "values";
		fs->by_values++;
		if (first && first->ignored)
			e->reason = ut_arena_printf(&g->arena, "only ignored values (values.ignore), "
						    "e.g. '%s'", first->value);
		else if (first)
			e->reason = ut_arena_printf(&g->arena,
						    "only dependency-free values, e.g. '%s' "
						    "(used by %zu of %zu tests)",
						    first->value, first->users, st->ntests);
		if (!e->reason)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return 0;
}

static int set_hints(ut_graph *g, size_t i, const ut_name_info *info)
{
	int verb = info->verb_class == UT_VERB_READ    ? UT_NAME_VERB_READ
		   : info->verb_class == UT_VERB_WRITE ? UT_NAME_VERB_WRITE
						       : UT_NAME_VERB_UNKNOWN;

	return ut_graph_set_hints(g, i, info->nouns, info->nnouns, info->dobj, verb);
}

int ut_filter_nlp(ut_graph *g, ut_nlp *nlp, ut_filter_level level, ut_filter_stats *fs)
{
	const ut_name_info **info = NULL;
	const char **names = NULL;
	ut_nlp_config config = level == UT_FILTER_DOBJ ? UT_NLP_DOBJ : UT_NLP_NOUN;
	char reason[512];
	size_t i;
	int rc = 0;

	info = calloc(g->ntests ? g->ntests : 1, sizeof(*info));
	names = calloc(g->ntests ? g->ntests : 1, sizeof(*names));
	if (!info || !names) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < g->ntests; i++)
		names[i] = g->tests[i].name;
	rc = ut_nlp_set_suite_names(nlp, names, g->ntests);
	for (i = 0; rc == 0 && i < g->ntests; i++)
		rc = ut_nlp_analyze(nlp, names[i], &info[i]);
	for (i = 0; rc == 0 && i < g->ntests; i++)
		rc = set_hints(g, i, info[i]);
	if (rc < 0 || level < UT_FILTER_VERB)
		goto done;
	for (i = 0; i < g->edges.n; i++) {
		ut_edge *e = &g->edges.v[i];
		const ut_name_info *a = info[e->dependent], *b = info[e->dependee];
		const char *by = NULL;

		if (e->filtered_by || e->status != UT_EDGE_CANDIDATE)
			continue;
		if (e->origin != UT_ORIGIN_STRING && e->origin != UT_ORIGIN_ORDER)
			continue;
		if (ut_nlp_drops(UT_NLP_VERB, a, b, reason, sizeof(reason))) {
			by = "verb";
			fs->by_verb++;
		} else if (level > UT_FILTER_VERB && ut_nlp_drops(config, a, b, reason,
								  sizeof(reason))) {
			by = ut_filter_level_name(level);
			if (level == UT_FILTER_DOBJ)
				fs->by_dobj++;
			else
				fs->by_noun++;
		} else if (a->verb_class == UT_VERB_UNKNOWN || b->verb_class == UT_VERB_UNKNOWN) {
			fs->no_verdict++;
		}
		if (!by)
			continue;
		e->filtered_by = by;
		/* A verb verdict names the dependee only: one copy per dependee, not per edge. */
		e->reason =
		    by[0] == 'v' ? ut_graph_intern(g, reason) : ut_arena_strdup(&g->arena, reason);
		if (!e->reason) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
done:
	free(info);
	free(names);
	return rc;
}

void ut_filter_count(const ut_graph *g, ut_filter_stats *fs)
{
	size_t i;

	fs->kept = 0;
	for (i = 0; i < g->edges.n; i++)
		fs->kept += ut_edge_active(&g->edges.v[i]);
}
