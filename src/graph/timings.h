/* timings.h: per-test durations for sharding and minimization (DESIGN.md "Files it
 * writes": .untangle/timings.json, an object test id -> seconds from the latest runs). */
#ifndef UT_TIMINGS_H
#define UT_TIMINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"

/* The duration of a test when none is known for any test. */
#define UT_TIMINGS_DEFAULT_S 1.0

typedef struct {
	size_t from_file;  /* tests whose duration came from timings.json */
	size_t from_graph; /* from the graph's duration_s */
	size_t fallback;   /* neither: fallback_s */
	double fallback_s; /* the median of the known durations, UT_TIMINGS_DEFAULT_S when none is */
	size_t unknown_ids; /* ids in timings.json that are no test of the graph (ignored) */
} ut_timings_info;

/* Fills durations[0..g->ntests) in seconds: timings.json's value for the test, else the
 * graph's duration_s, else the fallback (the median of the durations known either way,
 * or 1 s when none is). A missing file is no error (path NULL: graph durations only).
 * Returns 0, UT_EINPUT ("PATH:LINE: ..." for a file that is not an object of numbers
 * >= 0), UT_ENOMEM. estimated (NULL, or ntests flags) marks the fallbacks; info may
 * be NULL. */
int ut_timings_fill(double *durations, bool *estimated, const ut_graph *g, const char *path,
		    ut_timings_info *info);

#endif
