/* internal.h: what the check's files share. */
#ifndef UT_CHECK_INTERNAL_H
#define UT_CHECK_INTERNAL_H

#include "check/check.h"

/* A file of the head suite as the repository names it (the suite's folder in front);
 * allocated in c->graph's arena. NULL for NULL. */
const char *ck_prefixed(ut_check *c, const char *file);
/* Head test h as a finding names it. */
ut_finding_test ck_head_ref(ut_check *c, size_t h);
/* The root causes (one per loss with dependents) into out, and in folded[] (per head
 * test, zeroed by the caller) the tests folded under them. */
int ck_root_causes(ut_check *c, ut_findings *out, unsigned char *folded);

#endif
