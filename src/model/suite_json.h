/* suite_json.h: the suite model as JSON (`untangle tests --json`). */
#ifndef UT_SUITE_JSON_H
#define UT_SUITE_JSON_H

#include <stdbool.h>

#include "model/suite.h"
#include "util/buf.h"
#include "util/diag.h"

/* Appends {"collection": ..., "hooks": [...], "tests": [...], "warnings": [...]} to out
 * (docs/commands.md), draining it between tests and flushing it at the end when it has a
 * sink. Each shared setup or teardown block is written once under "hooks" (hooks.h) and
 * named by index in the tests that run it; with `actions`, each hook and each test also
 * lists its actions (a test: its own). 0 or UT_ENOMEM. */
int ut_suite_write_json(ut_buf *out, const ut_suite *s, const ut_diags *diags, bool actions,
			bool pretty);

#endif
