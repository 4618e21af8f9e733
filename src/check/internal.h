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

/* base.c: PREFIX + PATH in the repository without a trailing '/' ("" for the whole
 * work tree); NULL when out of memory. */
char *ck_repo_path(const char *prefix, const char *path);
/* The base graph into r (have_graph, graph_where, graph_commit, base_graph_); none is
 * not an error. 0 or what git or the graph's reading returned. */
int ck_find_graph(ut_check_result *r, ut_git *repo, const ut_config *cfg);
/* The suite at r->graph_commit, extracted into r->base_root_, into r->base_suite_. */
int ck_parse_base(ut_check_result *r, ut_git *repo, const ut_check_opts *o);
/* rm -r dir; NULL and "" do nothing. */

#endif
