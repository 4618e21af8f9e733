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

#endif
