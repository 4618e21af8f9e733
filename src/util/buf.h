/* buf.h: the one growable string buffer; never NULL, always NUL-terminated, bounded. */
#ifndef UT_BUF_H
#define UT_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Where a draining buffer hands its content: 0, or an error code (the buffer then fails). */
typedef int (*ut_buf_sink)(void *ctx, const char *p, size_t n);

typedef struct {
	char *ptr;   /* points at a static "" until something is written */
	size_t len;
	size_t cap;
	size_t max;  /* 0 = the default limit (1 GiB) */
	bool failed; /* sticky: an append failed (no memory or over max); content is truncated */
	ut_buf_sink sink; /* NULL, or where ut_buf_drain hands the content (streamed output) */
	void *sink_ctx;
} ut_buf;

#define UT_BUF_INIT {(char *)ut_buf__empty, 0, 0, 0, false, NULL, NULL}
extern const char ut_buf__empty[1];

void ut_buf_init(ut_buf *b, size_t max);
/* Frees the storage and leaves an empty buffer behind. Accepts NULL. */
void ut_buf_dispose(ut_buf *b);
void ut_buf_clear(ut_buf *b);
/* Ensures room for `extra` more bytes; 0 or UT_ENOMEM (and marks the buffer failed). */
int ut_buf_grow(ut_buf *b, size_t extra);
int ut_buf_put(ut_buf *b, const char *s, size_t n);
int ut_buf_puts(ut_buf *b, const char *s);
int ut_buf_putc(ut_buf *b, char c);
int ut_buf_printf(ut_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ut_buf_vprintf(ut_buf *b, const char *fmt, va_list ap);
void ut_buf_truncate(ut_buf *b, size_t len);
/* A buffer with a sink streams: writers that emit many records call ut_buf_drain between
 * them, which hands the content to the sink and empties the buffer once it holds
 * UT_BUF_DRAIN_AT bytes; ut_buf_flush hands whatever is left. Without a sink both do
 * nothing. 0, or the sink's error (the buffer is then marked failed). */
#define UT_BUF_DRAIN_AT ((size_t)1 << 20)
int ut_buf_drain(ut_buf *b);
int ut_buf_flush(ut_buf *b);
/* Hands the heap string to the caller (free() it) and leaves the buffer empty.
 * Returns NULL when nothing could be allocated. */
char *ut_buf_detach(ut_buf *b, size_t *len_out);

#endif
