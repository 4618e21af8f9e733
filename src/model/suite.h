/* suite.h: the suite model, the parsed tests in their original order with their actions.
 * Everything hangs off one arena and is freed by ut_suite_free. */
#ifndef UT_SUITE_H
#define UT_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/lang.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/vec.h"

typedef enum {
	UT_ACT_SUBMIT,   /* sendKeys, send_keys, setValue, selectBy..., fill, type */
	UT_ACT_LOCATE,   /* By.id(...), find_element(By.ID, ...), $('...') */
	UT_ACT_ASSERT,   /* assertEquals, assert, expect(...) */
	UT_ACT_NAVIGATE, /* get(url), navigate().to(url), url(...) */
	UT_ACT_CLICK,    /* click, submit */
	UT_ACT_OTHER     /* any other call that carries string values */
} ut_action_kind;

const char *ut_action_kind_name(ut_action_kind kind);

typedef struct {
	ut_action_kind kind;
	unsigned line;          /* in `file` */
	const char *file;       /* NULL: the test's own file (setup code may live elsewhere) */
	bool setup;             /* comes from setup or teardown code that applies to the test */
	const char *via;        /* the helper or page-object method it went through, or NULL */
	const char **values;    /* resolved string values */
	size_t nvalues;
	const char **unresolved; /* source text of values that could not be resolved */
	size_t nunresolved;
} ut_action;

typedef struct {
	const char *id;        /* the runner's identifier (DESIGN.md) */
	const char *name;      /* method, function or `it` title */
	const char *file;      /* relative to the suite root */
	unsigned line, end_line;
	size_t index;          /* position in the original order */
	ut_lang language;
	const char *framework; /* junit4, junit5, testng, pytest, unittest, mocha, jasmine, jest */
	ut_action *actions;
	size_t nactions;
	const char **depends_on; /* ids it declares it runs after (TestNG dependsOnMethods,
				    dependsOnGroups) */
	size_t ndepends;
	/* ut_test_body_hash of its lines, computed once when it is parsed (0: no source):
	 * what --resume and check take for "the test changed"; body_unnamed without its name,
	 * for check's renames */
	uint64_t body, body_unnamed;
} ut_test;

/* The fingerprint of a test's source: the bytes of lines [line, end_line] of text (line
 * alone when end_line is 0 or smaller) without white space, and without every occurrence
 * of `unnamed` when it is not NULL or empty (a renamed test hashes as before). 0 when line
 * is 0. The one definition: the parse stores it in ut_test.body, the journal and check
 * compare it. */
uint64_t ut_test_body_hash(const char *text, size_t len, unsigned line, unsigned end_line,
			   const char *unnamed);

/* How the tests were collected (docs/collection.md): the runner's list joined with the
 * sources, or the sources alone. */
typedef struct {
	bool runner;    /* the runner's list; else static reading */
	char why[512];  /* static: why; runner: the list command's program */
	size_t listed;      /* tests the runner listed (after a path filter) */
	size_t by_id;       /* joined to a static test with the same id */
	size_t by_place;    /* joined by file and line, title pattern or position */
	size_t runner_only; /* listed, found in no source: kept, without actions */
	size_t static_only; /* read in the sources, not listed: left out */
	size_t pending;     /* listed as skipped by the runner (it.skip, @Ignore): left out */
} ut_suite_origin;

typedef struct {
	ut_arena arena;
	UT_VEC(ut_test) tests;
	ut_suite_origin origin; /* zero (static, no reason) until collect says */
	/* What the runner is given to run the whole suite, for a list command's {roots}
	 * (docs/collection.md): TestNG suite XML files (relative to the root) or JUnit root
	 * suite classes, in order; none: the classes of the tests, in order (Java), or
	 * nothing (pytest, mocha). Strings in the arena. */
	UT_VEC(const char *) roots;
} ut_suite;

int ut_suite_new(ut_suite **out);
void ut_suite_free(ut_suite *s);
/* The framework most of the tests are written for (the first in the suite's order on a
 * tie), or NULL for an empty suite. Borrowed. */
const char *ut_suite_main_framework(const ut_suite *s);
/* The source files the parse could not read (diagnostics of kind UT_DIAG_UNREAD in d):
 * their tests are missing from s. How many, and the first in *first (borrowed from d;
 * NULL when none). None when the runner listed the suite (s->origin.runner): what it
 * has is in s, whatever the sources say. */
size_t ut_suite_unread(const ut_suite *s, const ut_diags *d, const ut_diag **first);
/* How many distinct files the tests are in (not how often the order changes file). */
size_t ut_suite_count_files(const ut_suite *s);
/* The test with this id, or NULL. Linear; callers that look up often build a map. */
const ut_test *ut_suite_find(const ut_suite *s, const char *id);

#endif
