/* hooks.h: the setup and teardown code a suite's tests share (hooks, fixtures, setUp,
 * @BeforeMethod, beforeEach, with the page-object steps they reach), each distinct block
 * once, and for every test the blocks it runs (`untangle tests`, docs/commands.md).
 *
 * The suite model copies setup actions into every test that runs them. A test's leading
 * setup actions (before its first own action) and its trailing ones (after its last) are
 * cut into blocks at every change of file; equal blocks (same file, and actions equal in
 * kind, line, values, unresolved text and helper) are one hook. A test's actions are its
 * setup hooks' actions, then its own, then its teardown hooks', in that order. */
#ifndef UT_HOOKS_H
#define UT_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "model/suite.h"
#include "util/vec.h"

typedef struct {
	const char *file;	  /* where its code is, relative to the suite root */
	const ut_action *actions; /* borrowed from the first test that runs it */
	size_t nactions;
	unsigned line, end_line; /* its actions' first and last line */
	size_t ntests;		 /* how many tests run it (a test running it twice: once) */
	uint64_t hash;		 /* private */
	size_t last_test_;	 /* private: the last test counted in ntests, + 1 */
} ut_hook;

typedef struct {
	size_t own_at, own_end; /* the test's own actions: actions[own_at, own_end) */
	size_t ref_at;		/* its hooks in ut_suite_hooks.refs: nsetup, then nteardown */
	size_t nsetup, nteardown;
} ut_test_hooks;

typedef struct {
	UT_VEC(ut_hook) hooks; /* in the order of their first use */
	UT_VEC(uint32_t) refs; /* hook indices */
	ut_test_hooks *of;     /* one per test of the suite */
	uint32_t *table;       /* private: hash table of hook index + 1 */
	size_t cap;
} ut_suite_hooks;

/* Finds the hooks of every test of s. The result borrows from s; release it with
 * ut_suite_hooks_dispose (also after a failure). 0 or UT_ENOMEM. */
int ut_suite_hooks_build(ut_suite_hooks *out, const ut_suite *s);
void ut_suite_hooks_dispose(ut_suite_hooks *h);
/* The hook indices test i runs before (setup) or after (teardown) its own actions. */
const uint32_t *ut_suite_hooks_setup(const ut_suite_hooks *h, size_t i);
const uint32_t *ut_suite_hooks_teardown(const ut_suite_hooks *h, size_t i);

#endif
