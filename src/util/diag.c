/* diag.c: a bounded list of input diagnostics. */
#include "util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

void ut_diags_init(ut_diags *d)
{
	memset(d, 0, sizeof(*d));
	ut_arena_init(&d->arena);
}

void ut_diags_dispose(ut_diags *d)
{
	if (!d)
		return;
	ut_vec_free(&d->items);
	ut_arena_dispose(&d->arena);
}

static void vadd(ut_diags *d, ut_diag_level level, ut_diag_kind kind, const char *file,
		 unsigned line, const char *fmt, va_list ap)
{
	char msg[512];
	ut_diag item;
	size_t limit = d->limit ? d->limit : 10000;

	/* an unread file decides whether shard and run may go on: never dropped */
	if (d->items.n >= limit && kind != UT_DIAG_UNREAD) {
		d->dropped++;
		return;
	}
	vsnprintf(msg, sizeof(msg), fmt, ap);
	item.level = level;
	item.kind = kind;
	item.line = line;
	item.file = file ? ut_arena_strdup(&d->arena, file) : NULL;
	item.message = ut_arena_strdup(&d->arena, msg);
	if (!item.message || (file && !item.file) || ut_vec_push(&d->items, item) < 0)
		d->dropped++;
}

void ut_diags_add(ut_diags *d, ut_diag_level level, const char *file, unsigned line,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, level, UT_DIAG_INPUT, file, line, fmt, ap);
	va_end(ap);
}

void ut_diags_add_kind(ut_diags *d, ut_diag_level level, ut_diag_kind kind, const char *file,
		       unsigned line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, level, kind, file, line, fmt, ap);
	va_end(ap);
}

void ut_diags_copy(ut_diags *d, const ut_diag *g)
{
	ut_diags_add_kind(d, g->level, g->kind, g->file, g->line, "%s", g->message);
}
