/* project.h: a whole detection as `untangle detect` runs it (the journal opened, resumed or
 * refused, the runs, the graph recorded by store/ and the journal marked finished), the
 * summary it returns, and that summary as JSON. */
#ifndef UT_DETECT_PROJECT_H
#define UT_DETECT_PROJECT_H

#include <stdbool.h>

#include "config/config.h"
#include "detect/detect.h"
#include "store/journal.h"
#include "store/store.h"
#include "util/buf.h"

typedef struct {
	/* The run: strategy, reruns, workers and the progress callback; `revalidate` must
	 * be NULL and `worker` 0. */
	ut_detect_opts run;
	const char *extract, *filter; /* canonical names, recorded in the journal's header */
	ut_journal_mode journal_mode; /* UT_JOURNAL_START, _RESUME or _FRESH */
	const char *journal_path;
	/* Where the graph is recorded (ut_store_record_detection): the graph file, the
	 * timings, and a git note when dest.git is set. */
	ut_store_dest dest;
	const ut_config *cfg;         /* for the journal's fingerprints (ignore, runner) */
	/* With --select: what the selection cost, copied to the summary. NULL: none. */
	const ut_detect_fix_stats *selection;
	/* Called once the journal is open, before the first run (NULL: none): the caller
	 * says what a resume reuses and starts catching signals. */
	void (*started)(void *ctx, const ut_journal *j);
	void *ctx;                    /* for started */
} ut_detect_project_opts;

/* What a detection did. Pointers are borrowed from the graph and the options. */
typedef struct {
	const ut_graph *g;
	ut_detect_stats stats;
	bool selected;                /* --select ran: selection holds its figures */
	ut_detect_fix_stats selection;
	const char *graph_path;
	const char *notes_ref;        /* NULL: no note written */
	unsigned wrote;               /* UT_STORE_WROTE_* bits: what was recorded */
	bool run_failed;              /* the error came from the runs: the journal holds
					 stats.schedules_run of them */
} ut_detect_summary;

/* Validates g (built from the suite, candidates marked) through runner as
 * ut_detect_run does, journaled at o->journal_path in o->journal_mode
 * (ut_store_journal_open), then records it (ut_store_record_detection to o->dest) and
 * marks the journal finished (not when recording failed). *out is filled
 * whatever the result. Returns 0, or ut_journal_open's, ut_detect_run's or a write's
 * code (UT_EINTR when interrupted; out->run_failed tells a run's failure apart). */
int ut_detect_project(ut_graph *g, ut_runner *runner, const ut_detect_project_opts *o,
		      ut_detect_summary *out);

/* Appends the summary as one pretty-printed JSON object (no final newline): graph,
 * notes_ref and commit (with a note), the counts, the strategy, the verification, the
 * selection (with --select), the runner time per phase, flaky and failing tests. 0, or
 * UT_ENOMEM when out ran out of memory. */
int ut_detect_summary_json(ut_buf *out, const ut_detect_summary *s);

#endif
