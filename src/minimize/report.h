/* report.h: what `untangle minimize` reports (the kept, removed and obsolete tests with the
 * elements that justify each) and that report as JSON. */
#ifndef UT_MINIMIZE_REPORT_H
#define UT_MINIMIZE_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "minimize/minimize.h"
#include "util/buf.h"

/* A minimization to report; every pointer is borrowed. */
typedef struct {
	const ut_graph *g;
	const ut_coverage *cov;
	const ut_minimize_result *r;
	const char *coverage_path; /* NULL: features derived from the suite */
} ut_minimize_report;

/* "optimal" or "best-known" (static). */
const char *ut_minimize_status_name(const ut_minimize_result *r);

/* The first test in original order covering element e, other than except, eligible and
 * (when kept) kept by the result; -1 when none. One such test is the evidence for an
 * element: listing every coverer would make the report grow with tests times coverage. */
long ut_minimize_witness(const ut_minimize_report *rep, uint32_t e, long except, bool kept);

/* Appends the report as pretty-printed JSON and a newline: coverage, result, before and
 * after, then kept, removed (each element with the kept test covering it) and obsolete
 * (each element with another test covering it). 0, or UT_ENOMEM. */
int ut_minimize_report_json(ut_buf *out, const ut_minimize_report *rep);

#endif
