/* diag.h: diagnostics collected by library code (warnings about inputs), printed by the CLI. */
#ifndef UT_DIAG_H
#define UT_DIAG_H

#include <stddef.h>

#include "util/arena.h"
#include "util/vec.h"

typedef enum { UT_DIAG_WARNING, UT_DIAG_ERROR } ut_diag_level;

/* What a diagnostic is about, for code that decides on it (the wording is for people and
 * may change). */
typedef enum {
	UT_DIAG_INPUT = 0, /* anything else about an input */
	UT_DIAG_SYNTAX,	   /* the file does not parse: a syntax error at `line` */
	UT_DIAG_UNREAD	   /* a source file not read at all (unreadable, too large, nested
			      too deep to parse): its tests are missing from the suite */
} ut_diag_kind;

typedef struct {
	ut_diag_level level;
	ut_diag_kind kind;
	const char *file; /* may be NULL */
	unsigned line;    /* 1-based, 0 = whole file */
	const char *message;
} ut_diag;

typedef struct {
	ut_arena arena;
	UT_VEC(ut_diag) items;
	size_t dropped; /* past the limit, only counted */
	size_t limit;   /* 0 = 10,000 */
} ut_diags;

void ut_diags_init(ut_diags *d);
void ut_diags_dispose(ut_diags *d);
/* Records a diagnostic of kind UT_DIAG_INPUT; copies file and message. Never fails
 * loudly: past the limit (except of kind UT_DIAG_UNREAD) or out of memory it only
 * counts. */
void ut_diags_add(ut_diags *d, ut_diag_level level, const char *file, unsigned line,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same with a kind. */
void ut_diags_add_kind(ut_diags *d, ut_diag_level level, ut_diag_kind kind, const char *file,
		       unsigned line, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Records a copy of g (level, kind, file, line, message) in d. */
void ut_diags_copy(ut_diags *d, const ut_diag *g);

#endif
