/* internal.h: what the report writers share (not part of report.h's contract). */
#ifndef UT_REPORT_INTERNAL_H
#define UT_REPORT_INTERNAL_H

#include "report/findings.h"
#include "util/buf.h"
#include "util/jsonw.h"

/* Writes the finding's run ids as a JSON array (after a key or in an array). */
void ut_report__evidence(ut_jsonw *w, const ut_finding *f);

/* A writer's return code: 0, or UT_ENOMEM (with the message set) when out or the scratch
 * buffer failed. Disposes of scratch (may be NULL). */
int ut_report__finish(const ut_buf *out, ut_buf *scratch);

#endif
