/* collect.h: the runner's own list of tests (docs/collection.md) joined with the static
 * reading, so that each test carries the runner's exact id and order and the sources'
 * actions and values; tests only one side knows are named in warnings, never dropped
 * silently. */
#ifndef UT_COLLECT_H
#define UT_COLLECT_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "model/suite.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/vec.h"

/* One test as the runner lists it. Strings in the listing's arena. */
typedef struct {
	const char *id;   /* exactly as the run command accepts it */
	const char *file; /* relative to the project folder; NULL when the runner did not say */
	const char *name; /* the test's own name as evaluated (title, method, node name) */
	const char *src;  /* where it was registered, when another file than `file`; or NULL */
	unsigned line, src_line; /* 1-based, 0 when unknown */
	bool pending;
} ut_listed;

typedef struct {
	ut_arena arena;
	UT_VEC(ut_listed) tests;
	size_t errors; /* {"error"} records (each also a warning in the diags) */
} ut_listing;

void ut_listing_init(ut_listing *l);
void ut_listing_dispose(ut_listing *l);

/* Reads a list file (JSON Lines, docs/collection.md) into l, in order. `root` is the project
 * folder as an absolute path ending in '/': absolute file names inside it are made
 * relative. {"error"} records and {"note"} records become warnings in diags (naming the
 * file and line the runner gave). Returns UT_EINPUT naming path:line for a line that is
 * not a JSON object, an object without a string "id", or an id listed twice; UT_ENOTFOUND,
 * UT_ENOMEM. */
int ut_listing_read(ut_listing *l, const char *path, const char *root, ut_diags *diags);

/* Replaces s's tests with the listed ones, in the runner's order: each joined with the
 * test the sources have for it (same id; else same file and the line inside the test, or
 * a title whose parts known only at run time ("${...}") match, or the same position among
 * the file's tests that are left), keeping its actions, values, file and line and taking
 * the runner's id, name and index. Declared dependencies follow their tests' new ids.
 * Listed tests no source has are kept with no actions; static tests the runner does not
 * list are left out; both are named in warnings in diags, with why. Listed tests the runner
 * skips (pending) are left out, with the static test of the same id, and counted. When `paths` (npaths)
 * is given, only listed tests whose file or src lies under one of them are kept. The
 * counts go to s->origin (listed, by_id, by_place, runner_only, static_only, pending).
 * Returns 0 or UT_ENOMEM (s is unchanged then). */
int ut_collect_join(ut_suite *s, const ut_listing *l, const char *const *paths, size_t npaths,
		    ut_diags *diags);

/* Collects the suite of the project in the working directory: with mode "static" (or
 * "auto" when cfg->path is NULL or untangle.json configures no runner: no preset, or one
 * only inferred from the tests' framework, and no command), s stays the static reading;
 * otherwise (under "runner", an inferred preset too) the runner's list command runs
 * (work_dir holds its file, removed after) with s->roots and is joined into s
 * (ut_collect_join). When the list command fails, "auto" keeps the static reading and
 * says why in s->origin and in a warning, "runner" fails. mode NULL: cfg->suite.collect.
 * s->origin says which collection was used and why.
 * Returns 0; UT_EENV (the list command failed under "runner", the message quotes it),
 * UT_EINPUT (a bad runner config or list file under "runner"), UT_EINTR, UT_ENOMEM. */
int ut_collect_suite(ut_suite *s, const ut_config *cfg, const char *mode, const char *work_dir,
		     const char *const *paths, size_t npaths, ut_diags *diags);

#endif
