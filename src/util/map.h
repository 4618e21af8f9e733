/* map.h: string-keyed hash map (open addressing). Keys are borrowed, not copied. */
#ifndef UT_MAP_H
#define UT_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	const char *key;
	size_t klen;
	uint64_t hash;
	void *value;
} ut_map_slot;

typedef struct {
	ut_map_slot *slots;
	size_t cap; /* power of two, 0 when empty */
	size_t n;
} ut_map;

#define UT_MAP_INIT {NULL, 0, 0}

uint64_t ut_hash(const char *s, size_t n);
/* Frees the table, not the keys or values. Accepts NULL. */
void ut_map_dispose(ut_map *m);
/* Sets key -> value (replacing). The key must outlive the map. 0 or UT_ENOMEM. */
int ut_map_put(ut_map *m, const char *key, size_t klen, void *value);
/* The value, or NULL when absent. */
void *ut_map_get(const ut_map *m, const char *key, size_t klen);
/* Like get, but reports presence even for NULL values: 1 found, 0 not. */
int ut_map_find(const ut_map *m, const char *key, size_t klen, void **value_out);

#endif
