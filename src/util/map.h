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

/* FNV-1a, the one string hash of untangle. UT_HASH_BASIS starts a hash; ut_hash_more goes on
 * with n more bytes; ut_hash is a whole hash of n bytes, never 0 (a map's "empty"). */
#define UT_HASH_BASIS 1469598103934665603ULL
uint64_t ut_hash_more(uint64_t h, const void *data, size_t n);
uint64_t ut_hash(const char *s, size_t n);
/* h followed by the string s (NULL reads as ""), in an order-dependent way: the hash of a
 * sequence of strings, where ("ab", "c") and ("a", "bc") differ. */
uint64_t ut_hash_seq(uint64_t h, const char *s);
/* Frees the table, not the keys or values. Accepts NULL. */
void ut_map_dispose(ut_map *m);
/* Sets key -> value (replacing). The key must outlive the map. 0 or UT_ENOMEM. */
int ut_map_put(ut_map *m, const char *key, size_t klen, void *value);
/* The value, or NULL when absent. */
void *ut_map_get(const ut_map *m, const char *key, size_t klen);
/* Like get, but reports presence even for NULL values: 1 found, 0 not. */
int ut_map_find(const ut_map *m, const char *key, size_t klen, void **value_out);

#endif
