/* arena.c: bump allocator; large requests get a block of their own. */
#include "util/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

struct ut_arena_block {
	ut_arena_block *next;
	size_t size;
	size_t used;
	_Alignas(16) unsigned char data[];
};

#define UT_ARENA_BLOCK (256 * 1024)

void ut_arena_init(ut_arena *a)
{
	a->head = NULL;
	a->used_total = 0;
}

void ut_arena_dispose(ut_arena *a)
{
	ut_arena_block *b, *next;

	if (!a)
		return;
	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	ut_arena_init(a);
}

void *ut_arena_alloc(ut_arena *a, size_t size)
{
	ut_arena_block *b = a->head;
	size_t need = (size + 15) & ~(size_t)15;
	void *p;

	if (size > SIZE_MAX / 2)
		return NULL;
	if (!b || b->size - b->used < need) {
		size_t bsize = need > UT_ARENA_BLOCK / 4 ? need : UT_ARENA_BLOCK;

		b = calloc(1, sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		if (a->head && bsize != UT_ARENA_BLOCK) {
			/* keep the partly used head block current for small requests */
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = a->head;
			a->head = b;
		}
	}
	p = b->data + b->used;
	b->used += need;
	a->used_total += need;
	return p;
}

char *ut_arena_strndup(ut_arena *a, const char *s, size_t n)
{
	char *p = ut_arena_alloc(a, n + 1);

	if (p && n)
		memcpy(p, s, n);
	return p;
}

char *ut_arena_strdup(ut_arena *a, const char *s)
{
	return ut_arena_strndup(a, s, strlen(s));
}

char *ut_arena_printf(ut_arena *a, const char *fmt, ...)
{
	va_list ap, cp;
	int n;
	char *p;

	va_start(ap, fmt);
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	p = n < 0 ? NULL : ut_arena_alloc(a, (size_t)n + 1);
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void ut_arena_adopt(ut_arena *a, ut_arena *from)
{
	ut_arena_block *last;

	if (!from->head)
		return;
	if (!a->head) {
		*a = *from;
		ut_arena_init(from);
		return;
	}
	/* behind a's head, which stays the block small requests are cut from */
	for (last = from->head; last->next; last = last->next)
		;
	last->next = a->head->next;
	a->head->next = from->head;
	a->used_total += from->used_total;
	ut_arena_init(from);
}

ut_arena_mark ut_arena_save(const ut_arena *a)
{
	ut_arena_mark m;

	m.head = a->head;
	m.next = a->head ? a->head->next : NULL;
	m.used = a->head ? a->head->used : 0;
	m.used_total = a->used_total;
	return m;
}

void ut_arena_restore(ut_arena *a, ut_arena_mark m)
{
	ut_arena_block *b, *next;

	/* blocks made since the mark stand before its block, or right after it (large ones) */
	for (b = a->head; b && b != m.head; b = next) {
		next = b->next;
		free(b);
	}
	a->head = b;
	if (b) {
		for (next = b->next; next && next != m.next; next = b->next) {
			b->next = next->next;
			free(next);
		}
		/* memory handed out again must be zero, as from a new block */
		memset(b->data + m.used, 0, b->used - m.used);
		b->used = m.used;
	}
	a->used_total = m.used_total;
}
