/* json.c: the cJSON adapter; the only file that includes cJSON's header. */
#include "json/json.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

#define J(v) ((const cJSON *)(v))

/* The line of the n-th key (0-based, in document order) of a well-formed text. */
static unsigned nth_key_line(const char *text, size_t len, size_t n)
{
	unsigned line = 1, start;
	size_t i = 0, k;

	while (i < len) {
		if (text[i] == '\n')
			line++;
		if (text[i++] != '"')
			continue;
		start = line;
		for (; i < len && text[i] != '"'; i++)
			i += text[i] == '\\';
		for (k = i + 1; k < len && strchr(" \t\r\n", text[k]); k++)
			line += text[k] == '\n';
		i = k;
		if (k < len && text[k] == ':' && n-- == 0)
			return start;
	}
	return line;
}

/* Walks v in document order, numbering keys from *key; 0, or UT_EINPUT at the first key
 * that repeats one of its object (the line of each from the text), or UT_ENOMEM. */
static int no_duplicate(const cJSON *v, size_t *key, const char *text, size_t len,
			const char *path)
{
	ut_map seen = UT_MAP_INIT;
	const cJSON *c;
	void *first;
	int rc = 0;

	for (c = v->child; c && rc == 0; c = c->next) {
		if (cJSON_IsObject(v) && c->string) {
			if (ut_map_find(&seen, c->string, strlen(c->string), &first)) {
				rc = ut_error_set(UT_EINPUT, "%s:%u: duplicate key \"%.80s\" (first on line %u)",
						  path, nth_key_line(text, len, *key), c->string,
						  nth_key_line(text, len, (size_t)(uintptr_t)first));
				break;
			}
			if (ut_map_put(&seen, c->string, strlen(c->string), (void *)(uintptr_t)*key) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
			++*key;
		}
		if (rc == 0 && c->child)
			rc = no_duplicate(c, key, text, len, path);
	}
	ut_map_dispose(&seen);
	return rc;
}

/* 0, or UT_EINPUT naming the line of the first NUL a string of the well-formed text holds
 * (\u0000, or the raw byte): cJSON's strings end there, so that "tes\u0000ts" would be
 * read as "tes" and the rest silently lost. */
static int no_nul(const char *text, size_t len, const char *path)
{
	unsigned line = 1;
	bool in_string = false;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n')
			line++;
		else if (text[i] == '\0')
			return ut_error_set(UT_EINPUT, "%s:%u: a NUL byte", path, line);
		else if (text[i] == '"')
			in_string = !in_string;
		else if (in_string && text[i] == '\\' && i + 1 < len) {
			if (len - i >= 6 && memcmp(text + i + 1, "u0000", 5) == 0)
				return ut_error_set(UT_EINPUT,
						    "%s:%u: a string holds a NUL character (\\u0000), "
						    "which untangle cannot keep",
						    path, line);
			i++; /* the escaped character: a quote does not end the string */
		}
	}
	return 0;
}

int ut_json_parse(ut_json **out, const char *text, size_t len, const char *path)
{
	size_t key = 0;
	int rc;

	const char *end = NULL;
	cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	unsigned line = 1;
	const char *p;

	*out = NULL;
	if (doc) {
		/* nothing but white space may follow the document */
		for (p = end; p && p < text + len && strchr(" \t\r\n", *p) && *p; p++)
			;
		if (!end || p == text + len) {
			rc = no_nul(text, len, path);
			if (rc == 0)
				rc = no_duplicate(doc, &key, text, len, path);
			if (rc == 0)
				*out = (ut_json *)doc;
			else
				cJSON_Delete(doc);
			return rc;
		}
		cJSON_Delete(doc);
	}
	if (!end || end < text || end > text + len)
		end = text + len;
	for (p = text; p < end; p++)
		line += *p == '\n';
	return ut_error_set(UT_EINPUT, "%s:%u: invalid JSON", path, line);
}

void ut_json_free(ut_json *doc)
{
	cJSON_Delete((cJSON *)doc);
}

const ut_json *ut_json_get(const ut_json *obj, const char *key)
{
	return obj ? (const ut_json *)cJSON_GetObjectItemCaseSensitive(J(obj), key) : NULL;
}

const ut_json *ut_json_first(const ut_json *c)
{
	return c && (cJSON_IsArray(J(c)) || cJSON_IsObject(J(c))) ? (const ut_json *)J(c)->child
								  : NULL;
}

const ut_json *ut_json_next(const ut_json *item)
{
	return item ? (const ut_json *)J(item)->next : NULL;
}

const char *ut_json_key(const ut_json *item)
{
	return item ? J(item)->string : NULL;
}

bool ut_json_is_object(const ut_json *v) { return v && cJSON_IsObject(J(v)); }
bool ut_json_is_array(const ut_json *v) { return v && cJSON_IsArray(J(v)); }
bool ut_json_is_string(const ut_json *v) { return v && cJSON_IsString(J(v)); }
bool ut_json_is_number(const ut_json *v) { return v && cJSON_IsNumber(J(v)); }
bool ut_json_is_null(const ut_json *v) { return v && cJSON_IsNull(J(v)); }
bool ut_json_is_bool(const ut_json *v) { return v && cJSON_IsBool(J(v)); }

const char *ut_json_string(const ut_json *v)
{
	return v && cJSON_IsString(J(v)) ? J(v)->valuestring : NULL;
}

double ut_json_number(const ut_json *v)
{
	return v && cJSON_IsNumber(J(v)) ? J(v)->valuedouble : 0.0;
}

bool ut_json_whole(const ut_json *v, long lo, long hi, long *out)
{
	double d = ut_json_number(v);

	if (!ut_json_is_number(v) || !(d >= -9007199254740992.0 && d <= 9007199254740992.0) ||
	    d < (double)lo || d > (double)hi || (double)(long)d != d)
		return false;
	*out = (long)d;
	return true;
}

bool ut_json_true(const ut_json *v)
{
	return v && cJSON_IsTrue(J(v));
}

const char *ut_json_version(void)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "cJSON %s", cJSON_Version());
	return buf;
}

unsigned ut_json_key_line(const char *text, size_t len, const char *key)
{
	size_t klen = strlen(key), i;
	unsigned line = 1;

	for (i = 0; i + klen + 2 <= len; i++) {
		if (text[i] == '\n')
			line++;
		else if (text[i] == '"' && memcmp(text + i + 1, key, klen) == 0 &&
			 text[i + 1 + klen] == '"')
			return line;
	}
	return 1;
}
