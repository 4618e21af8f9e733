/* buf.h: the one growable string buffer; never NULL, always NUL-terminated, bounded. */
#ifndef UT_BUF_H
#define UT_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
	char *ptr;   /* points at a static "" until something is written */
	size_t len;
	size_t cap;
	size_t max;  /* 0 = the default limit (1 GiB) */
	bool failed; /* sticky: an append failed (no memory or over max); content is truncated */
} ut_buf;

#define UT_BUF_INIT {(char *)ut_buf__empty, 0, 0, 0, false}
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
/* Hands the heap string to the caller (free() it) and leaves the buffer empty.
 * Returns NULL when nothing could be allocated. */
char *ut_buf_detach(ut_buf *b, size_t *len_out);

#endif
