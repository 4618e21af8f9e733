/* json.h: reading JSON documents (the cJSON adapter). Writing is util/jsonw.h. */
#ifndef UT_JSON_H
#define UT_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ut_json ut_json;

/* Parses text; on failure returns UT_EINPUT with "PATH:LINE: ..." as the message: a
 * document that is not JSON, or an object with a key twice (the line of the second). */
int ut_json_parse(ut_json **out, const char *text, size_t len, const char *path);
void ut_json_free(ut_json *doc);

const ut_json *ut_json_get(const ut_json *obj, const char *key);
const ut_json *ut_json_first(const ut_json *container);
const ut_json *ut_json_next(const ut_json *item);
const char *ut_json_key(const ut_json *item);
bool ut_json_is_object(const ut_json *v);
bool ut_json_is_array(const ut_json *v);
bool ut_json_is_string(const ut_json *v);
bool ut_json_is_number(const ut_json *v);
bool ut_json_is_null(const ut_json *v);
bool ut_json_is_bool(const ut_json *v);
const char *ut_json_string(const ut_json *v); /* NULL when not a string */
double ut_json_number(const ut_json *v);
/* v as a whole number in [lo, hi] (and within +-2^53, where doubles are exact): true with
 * *out set; false when v is not a number, not whole or out of range (*out untouched). A
 * cast of an arbitrary double is undefined behaviour: every integer read goes through here. */
bool ut_json_whole(const ut_json *v, long lo, long hi, long *out);
bool ut_json_true(const ut_json *v);
/* "cJSON 1.7.15" */
const char *ut_json_version(void);

/* Line of the first occurrence of "key" in text (for messages); 1 when not found. */
unsigned ut_json_key_line(const char *text, size_t len, const char *key);

#endif
