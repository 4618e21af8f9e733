/* jsonw.h: streaming JSON writer into a ut_buf; output is always valid UTF-8. */
#ifndef UT_JSONW_H
#define UT_JSONW_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define UT_JSONW_MAX_DEPTH 64

typedef struct {
	ut_buf *out;
	int depth;
	bool pretty;
	bool first[UT_JSONW_MAX_DEPTH]; /* no element written yet at this depth */
	bool after_key;
} ut_jsonw;

void ut_jsonw_init(ut_jsonw *w, ut_buf *out, bool pretty);
void ut_jsonw_obj_begin(ut_jsonw *w);
void ut_jsonw_obj_end(ut_jsonw *w);
void ut_jsonw_arr_begin(ut_jsonw *w);
void ut_jsonw_arr_end(ut_jsonw *w);
void ut_jsonw_key(ut_jsonw *w, const char *key);
/* Bytes that are not valid UTF-8 are written as U+FFFD. NULL writes null. */
void ut_jsonw_str(ut_jsonw *w, const char *s);
void ut_jsonw_strn(ut_jsonw *w, const char *s, size_t n);
/* An array of the n strings of v. */
void ut_jsonw_strs(ut_jsonw *w, const char *const *v, size_t n);
void ut_jsonw_int(ut_jsonw *w, long long v);
void ut_jsonw_double(ut_jsonw *w, double v);
/* v with exactly `decimals` digits after the point (e.g. wall-clock times: %.10g would
 * round seconds since the epoch to whole seconds). */
void ut_jsonw_fixed(ut_jsonw *w, double v, int decimals);
void ut_jsonw_bool(ut_jsonw *w, bool v);
void ut_jsonw_null(ut_jsonw *w);
/* A member of an object: the key, then the value as above. */
void ut_jsonw_kstr(ut_jsonw *w, const char *key, const char *s);
void ut_jsonw_kint(ut_jsonw *w, const char *key, long long v);
void ut_jsonw_kdouble(ut_jsonw *w, const char *key, double v);
void ut_jsonw_kbool(ut_jsonw *w, const char *key, bool v);

/* Ends the document (a newline) and hands it to the buffer's sink, if any: 0, or
 * UT_ENOMEM "could not write the WHAT" (the sink failed) / "WHAT too large to write". */
int ut_jsonw_end(ut_jsonw *w, const char *what);

/* Appends s[0..n) to out as the body of a JSON string (no quotes). */
void ut_json_escape(ut_buf *out, const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
size_t ut_utf8_valid(const unsigned char *s, size_t n);

#endif
