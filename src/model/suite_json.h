/* suite_json.h: the suite model as JSON (`untangle tests --json`). */
#ifndef UT_SUITE_JSON_H
#define UT_SUITE_JSON_H

#include <stdbool.h>

#include "model/suite.h"
#include "util/buf.h"
#include "util/diag.h"

/* Appends {"tests": [...], "warnings": [...]} to out, draining it between tests and
 * flushing it at the end when it has a sink. 0 or UT_ENOMEM. */
int ut_suite_write_json(ut_buf *out, const ut_suite *s, const ut_diags *diags, bool pretty);

#endif
