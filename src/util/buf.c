/* buf.c: growable bounded string buffer (the strbuf of git, the dynbuf of curl). */
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

const char ut_buf__empty[1] = "";

#define UT_BUF_DEFAULT_MAX ((size_t)1 << 30)

void ut_buf_init(ut_buf *b, size_t max)
{
	b->ptr = (char *)ut_buf__empty;
	b->len = 0;
	b->cap = 0;
	b->max = max;
	b->failed = false;
	b->sink = NULL;
	b->sink_ctx = NULL;
}

void ut_buf_dispose(ut_buf *b)
{
	if (!b)
		return;
	if (b->cap)
		free(b->ptr);
	ut_buf_init(b, b->max);
}

void ut_buf_clear(ut_buf *b)
{
	b->len = 0;
	if (b->cap)
		b->ptr[0] = '\0';
	b->failed = false;
}

int ut_buf_grow(ut_buf *b, size_t extra)
{
	size_t max = b->max ? b->max : UT_BUF_DEFAULT_MAX;
	size_t need, cap;
	char *p;

	if (b->failed)
		return UT_ENOMEM;
	if (extra > max || b->len + extra > max)
		goto fail;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap / 2 * 3 + 8;
	p = realloc(b->cap ? b->ptr : NULL, cap);
	if (!p)
		goto fail;
	if (!b->cap)
		p[0] = '\0';
	b->ptr = p;
	b->cap = cap;
	return 0;
fail:
	b->failed = true;
	return UT_ENOMEM;
}

/* Room for n more bytes and the NUL without growing (the common case of every append). */
static inline bool has_room(const ut_buf *b, size_t n)
{
	return !b->failed && n < b->cap - b->len &&
	       b->len + n <= (b->max ? b->max : UT_BUF_DEFAULT_MAX);
}

int ut_buf_put(ut_buf *b, const char *s, size_t n)
{
	if (!has_room(b, n) && ut_buf_grow(b, n) < 0)
		return UT_ENOMEM;
	if (n)
		memcpy(b->ptr + b->len, s, n);
	b->len += n;
	b->ptr[b->len] = '\0';
	return 0;
}

int ut_buf_puts(ut_buf *b, const char *s)
{
	return ut_buf_put(b, s, strlen(s));
}

int ut_buf_putc(ut_buf *b, char c)
{
	if (!has_room(b, 1) && ut_buf_grow(b, 1) < 0)
		return UT_ENOMEM;
	b->ptr[b->len++] = c;
	b->ptr[b->len] = '\0';
	return 0;
}

int ut_buf_vprintf(ut_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || ut_buf_grow(b, (size_t)n) < 0)
		return UT_ENOMEM;
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int ut_buf_printf(ut_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = ut_buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

void ut_buf_truncate(ut_buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->ptr[len] = '\0';
	}
}

int ut_buf_flush(ut_buf *b)
{
	int rc;

	if (!b->sink)
		return 0;
	if (b->failed)
		return UT_ENOMEM;
	if (!b->len)
		return 0;
	rc = b->sink(b->sink_ctx, b->ptr, b->len);
	if (rc) {
		b->failed = true;
		return rc;
	}
	ut_buf_clear(b);
	return 0;
}

int ut_buf_drain(ut_buf *b)
{
	return b->sink && b->len >= UT_BUF_DRAIN_AT ? ut_buf_flush(b) : 0;
}

char *ut_buf_detach(ut_buf *b, size_t *len_out)
{
	char *p;

	if (!b->cap && ut_buf_grow(b, 0) < 0)
		return NULL;
	p = b->ptr;
	if (len_out)
		*len_out = b->len;
	b->ptr = (char *)ut_buf__empty;
	b->len = b->cap = 0;
	b->failed = false;
	return p;
}
