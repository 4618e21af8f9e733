/* record.c: what a validation leaves in .untangle/, the same for detect and check: the
 * journal opened with its header, then the graph, its durations and its note. */
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/timings.h"
#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

/* The test ids in order: a journal is only valid for the suite it was written for. */
static const char *suite_fingerprint(ut_arena *a, const ut_graph *g)
{
	uint64_t h = 0;
	char *out = ut_arena_alloc(a, 32);

	for (size_t i = 0; i < g->ntests; i++)
		h = ut_hash_seq(h, g->tests[i].id);
	if (out)
		snprintf(out, 32, "%zu-%016llx", g->ntests, (unsigned long long)h);
	return out;
}

int ut_store_journal_open(ut_journal **out, ut_arena *a, const ut_graph *g,
			  const ut_store_journal_opts *o)
{
	ut_journal_header jh;
	int rc;

	*out = NULL;
	memset(&jh, 0, sizeof(jh));
	jh.suite = suite_fingerprint(a, g);
	jh.strategy = o->strategy;
	jh.extract = o->extract;
	jh.filter = o->filter;
	jh.reruns = o->reruns;
	jh.ntests = g->ntests;
	rc = jh.suite ? ut_journal_fingerprint(&jh, a, g, o->cfg)
		      : ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		rc = ut_journal_open(out, o->path, &jh, o->mode);
	return rc;
}

/* The graph's durations into timings.json (those measured or carried: >= 0). */
static int write_timings(const ut_graph *g, const char *path, bool keep)
{
	const char **ids = malloc((g->ntests ? g->ntests : 1) * sizeof(*ids));
	double *secs = malloc((g->ntests ? g->ntests : 1) * sizeof(*secs));
	size_t n = 0;
	int rc;

	if (!ids || !secs) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < g->ntests; i++) {
		if (g->tests[i].duration_s < 0)
			continue;
		ids[n] = g->tests[i].id;
		secs[n++] = g->tests[i].duration_s;
	}
	rc = ut_timings_update(path, ids, secs, n, keep);
done:
	free(ids);
	free(secs);
	return rc;
}

int ut_store_record_detection(const ut_graph *g, const ut_store_dest *d, unsigned *wrote)
{
	unsigned w = 0;
	int rc = ut_store_graph_save(g, d->graph);

	if (rc == 0)
		w |= UT_STORE_WROTE_GRAPH;
	if (rc == 0 && d->timings)
		rc = write_timings(g, d->timings, d->keep_timings);
	if (rc == 0 && d->timings)
		w |= UT_STORE_WROTE_TIMINGS;
	if (rc == 0 && d->git)
		rc = ut_store_note_write(d->git, d->notes_ref, d->commit, g);
	if (rc == 0 && d->git)
		w |= UT_STORE_WROTE_NOTE;
	if (wrote)
		*wrote = w;
	return rc;
}
