/* diag.h: diagnostics collected by library code (warnings about inputs), printed by the CLI. */
#ifndef UT_DIAG_H
#define UT_DIAG_H

#include <stddef.h>

#include "util/arena.h"
#include "util/vec.h"

typedef enum { UT_DIAG_WARNING, UT_DIAG_ERROR } ut_diag_level;

typedef struct {
	ut_diag_level level;
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
/* Records a diagnostic; copies file and message. Never fails loudly: past the limit or
 * out of memory it only counts. */
void ut_diags_add(ut_diags *d, ut_diag_level level, const char *file, unsigned line,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
