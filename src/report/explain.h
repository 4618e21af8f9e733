/* explain.h: why a test depends on others, as `untangle explain` shows it: its edges with
 * the values behind them, the runs that proved each (from the journal, when there is
 * one), the run that refutes every other earlier test, and its schedule (the one shard
 * and run use). Nothing here prints; the caller chooses where the text goes. */
#ifndef UT_REPORT_EXPLAIN_H
#define UT_REPORT_EXPLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/graph.h"
#include "store/journal.h"
#include "util/buf.h"

/* Appends test t's explanation to out: lines for a person (every name escaped as
 * util/esc.h's ut_esc_text does), or with json one JSON object: {"test", "file", "line",
 * "position", "flaky", "depends_on", "not_depends_on", "needed_by" (each a list of
 * {"test", "status", "origin", "values", "filtered_by", "reason", "runs"}), "passed_in"
 * (a run or null), "schedule"}. j may be NULL (no runs shown). 0, UT_ENOMEM, or what
 * the scheduler returned. */
int ut_report_explain(ut_buf *out, const ut_graph *g, uint32_t t, const ut_journal *j,
		      bool json);

#endif
