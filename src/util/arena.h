/* arena.h: bump allocator for per-run data (suite model, syntax trees); freed in one call. */
#ifndef UT_ARENA_H
#define UT_ARENA_H

#include <stddef.h>

typedef struct ut_arena_block ut_arena_block;

typedef struct {
	ut_arena_block *head;
	size_t used_total; /* bytes handed out, for statistics */
} ut_arena;

#define UT_ARENA_INIT {NULL, 0}

void ut_arena_init(ut_arena *a);
/* Frees every block. Accepts NULL. */
void ut_arena_dispose(ut_arena *a);
/* Zeroed, 16-byte aligned memory owned by the arena; NULL when out of memory. */
void *ut_arena_alloc(ut_arena *a, size_t size);
/* A NUL-terminated copy of s[0..n); NULL when out of memory. */
char *ut_arena_strndup(ut_arena *a, const char *s, size_t n);
char *ut_arena_strdup(ut_arena *a, const char *s);
char *ut_arena_printf(ut_arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Moves every block of `from` into a, which frees them from then on; `from` is left empty.
 * What was allocated in either stays where it is. A mark saved on a before no longer
 * holds: restoring it would free the moved blocks. */
void ut_arena_adopt(ut_arena *a, ut_arena *from);

/* A point to roll the arena back to: scratch data of one step of a loop can live in an
 * arena that keeps what was there before the step. */
typedef struct {
	ut_arena_block *head, *next; /* the current block then, and the one after it */
	size_t used, used_total;
} ut_arena_mark;

ut_arena_mark ut_arena_save(const ut_arena *a);
/* Frees everything allocated since the mark was saved; what was there before stays. */
void ut_arena_restore(ut_arena *a, ut_arena_mark m);

#endif
