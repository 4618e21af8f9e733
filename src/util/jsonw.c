/* jsonw.c: a small streaming JSON writer (the output side of our JSON; cJSON reads). */
#include "util/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/esc.h"
#include "util/banned.h"

void ut_jsonw_init(ut_jsonw *w, ut_buf *out, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->pretty = pretty;
	w->first[0] = true;
}

static void indent(ut_jsonw *w)
{
	static const char spaces[] = "\n                                ";
	size_t n = 1 + 2 * (size_t)w->depth;

	/* one append for the usual depths */
	if (n <= sizeof(spaces) - 1) {
		ut_buf_put(w->out, spaces, n);
		return;
	}
	ut_buf_put(w->out, spaces, sizeof(spaces) - 1);
	for (n -= sizeof(spaces) - 1; n > 0; n -= 2)
		ut_buf_put(w->out, "  ", 2);
}

/* Separator and indentation before a value or a key. */
static void element(ut_jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		ut_buf_putc(w->out, ',');
	w->first[w->depth] = false;
	if (w->pretty && w->depth > 0)
		indent(w);
}

static void open(ut_jsonw *w, char c)
{
	element(w);
	ut_buf_putc(w->out, c);
	if (w->depth < UT_JSONW_MAX_DEPTH - 1)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_(ut_jsonw *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (w->pretty && !empty)
		indent(w);
	ut_buf_putc(w->out, c);
	if (w->depth == 0 && w->pretty)
		ut_buf_putc(w->out, '\n');
}

void ut_jsonw_obj_begin(ut_jsonw *w) { open(w, '{'); }
void ut_jsonw_obj_end(ut_jsonw *w) { close_(w, '}'); }
void ut_jsonw_arr_begin(ut_jsonw *w) { open(w, '['); }
void ut_jsonw_arr_end(ut_jsonw *w) { close_(w, ']'); }

/* Writes "s" then tail in one append when s needs no escape (keys and most values);
 * false, having written nothing, when it does. */
static bool put_plain(ut_buf *out, const char *s, size_t n, const char *tail, size_t tn)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f)
			return false;
	}
	if (ut_buf_grow(out, n + 2 + tn) < 0)
		return true; /* the buffer is failed now: nothing more is written */
	out->ptr[out->len] = '"';
	memcpy(out->ptr + out->len + 1, s, n);
	out->ptr[out->len + 1 + n] = '"';
	memcpy(out->ptr + out->len + 2 + n, tail, tn);
	out->len += n + 2 + tn;
	out->ptr[out->len] = '\0';
	return true;
}

void ut_jsonw_key(ut_jsonw *w, const char *key)
{
	const char *tail = w->pretty ? ": " : ":";
	size_t n = strlen(key);

	element(w);
	if (!put_plain(w->out, key, n, tail, w->pretty ? 2 : 1)) {
		ut_buf_putc(w->out, '"');
		ut_json_escape(w->out, key, n);
		ut_buf_putc(w->out, '"');
		ut_buf_put(w->out, tail, w->pretty ? 2 : 1);
	}
	w->after_key = true;
}

size_t ut_utf8_valid(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len, i;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

void ut_json_escape(ut_buf *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, start = 0;

	while (i < n) {
		unsigned char c = s[i];
		size_t len;
		char esc[24];

		if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
			i++;
			continue;
		}
		len = c >= 0x80 ? ut_utf8_valid(s + i, n - i) : 0;
		/* C1, separators and bidi controls as \uXXXX: the same string to a reader, and
		 * nothing that drives a terminal or reorders a log where the JSON is shown */
		if (len && !ut_esc_hostile(ut_esc_code_point(s + i, len))) {
			i += len;
			continue;
		}
		if (len) {
			ut_buf_put(out, str + start, i - start);
			snprintf(esc, sizeof(esc), "\\u%04lx", ut_esc_code_point(s + i, len));
			ut_buf_puts(out, esc);
			i += len;
			start = i;
			continue;
		}
		ut_buf_put(out, str + start, i - start);
		switch (c) {
		case '"': ut_buf_put(out, "\\\"", 2); break;
		case '\\': ut_buf_put(out, "\\\\", 2); break;
		case '\n': ut_buf_put(out, "\\n", 2); break;
		case '\t': ut_buf_put(out, "\\t", 2); break;
		case '\r': ut_buf_put(out, "\\r", 2); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				snprintf(esc, sizeof(esc), "\\u%04x", c);
				ut_buf_puts(out, esc);
			} else {
				ut_buf_puts(out, "\xef\xbf\xbd");
			}
		}
		i++;
		start = i;
	}
	ut_buf_put(out, str + start, n - start);
}

void ut_jsonw_strn(ut_jsonw *w, const char *s, size_t n)
{
	element(w);
	if (put_plain(w->out, s, n, "", 0))
		return;
	ut_buf_putc(w->out, '"');
	ut_json_escape(w->out, s, n);
	ut_buf_putc(w->out, '"');
}

void ut_jsonw_str(ut_jsonw *w, const char *s)
{
	if (!s)
		ut_jsonw_null(w);
	else
		ut_jsonw_strn(w, s, strlen(s));
}

void ut_jsonw_int(ut_jsonw *w, long long v)
{
	char digits[24];
	size_t i = sizeof(digits);
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;

	element(w);
	/* printf's %lld without its cost: numbers are most of what a suite writes */
	do {
		digits[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		digits[--i] = '-';
	ut_buf_put(w->out, digits + i, sizeof(digits) - i);
}

void ut_jsonw_double(ut_jsonw *w, double v)
{
	element(w);
	if (!isfinite(v))
		ut_buf_puts(w->out, "null");
	else
		ut_buf_printf(w->out, "%.10g", v);
}

void ut_jsonw_fixed(ut_jsonw *w, double v, int decimals)
{
	element(w);
	if (!isfinite(v))
		ut_buf_puts(w->out, "null");
	else
		ut_buf_printf(w->out, "%.*f", decimals, v);
}

void ut_jsonw_bool(ut_jsonw *w, bool v)
{
	element(w);
	ut_buf_puts(w->out, v ? "true" : "false");
}

void ut_jsonw_null(ut_jsonw *w)
{
	element(w);
	ut_buf_puts(w->out, "null");
}

int ut_jsonw_end(ut_jsonw *w, const char *what)
{
	ut_buf_putc(w->out, '\n');
	if (ut_buf_flush(w->out) == 0 && !w->out->failed)
		return 0;
	return ut_error_set(UT_ENOMEM,
			    w->out->sink ? "could not write the %s" : "%s too large to write", what);
}

void ut_jsonw_kstr(ut_jsonw *w, const char *key, const char *s)
{
	ut_jsonw_key(w, key);
	ut_jsonw_str(w, s);
}

void ut_jsonw_kint(ut_jsonw *w, const char *key, long long v)
{
	ut_jsonw_key(w, key);
	ut_jsonw_int(w, v);
}

void ut_jsonw_kdouble(ut_jsonw *w, const char *key, double v)
{
	ut_jsonw_key(w, key);
	ut_jsonw_double(w, v);
}

void ut_jsonw_kbool(ut_jsonw *w, const char *key, bool v)
{
	ut_jsonw_key(w, key);
	ut_jsonw_bool(w, v);
}

void ut_jsonw_strs(ut_jsonw *w, const char *const *v, size_t n)
{
	size_t i;

	ut_jsonw_arr_begin(w);
	for (i = 0; i < n; i++)
		ut_jsonw_str(w, v[i]);
	ut_jsonw_arr_end(w);
}
