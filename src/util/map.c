/* map.c: FNV-1a hashed open-addressing table with linear probing. */
#include "util/map.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

#define FNV_PRIME 1099511628211ULL

uint64_t ut_hash_more(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= FNV_PRIME;
	}
	return h;
}

uint64_t ut_hash(const char *s, size_t n)
{
	uint64_t h = ut_hash_more(UT_HASH_BASIS, s, n);

	return h ? h : 1;
}

uint64_t ut_hash_seq(uint64_t h, const char *s)
{
	s = s ? s : "";
	return (h * FNV_PRIME) ^ ut_hash(s, strlen(s) + 1);
}

void ut_map_dispose(ut_map *m)
{
	if (!m)
		return;
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}

static ut_map_slot *lookup(ut_map_slot *slots, size_t cap, const char *key, size_t klen, uint64_t h)
{
	size_t i = (size_t)h & (cap - 1);

	for (;;) {
		ut_map_slot *s = &slots[i];

		if (!s->hash)
			return s;
		if (s->hash == h && s->klen == klen && memcmp(s->key, key, klen) == 0)
			return s;
		i = (i + 1) & (cap - 1);
	}
}

static int rehash(ut_map *m, size_t cap)
{
	ut_map_slot *slots = calloc(cap, sizeof(*slots));
	size_t i;

	if (!slots)
		return UT_ENOMEM;
	for (i = 0; i < m->cap; i++) {
		ut_map_slot *s = &m->slots[i];

		if (s->hash)
			*lookup(slots, cap, s->key, s->klen, s->hash) = *s;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int ut_map_put(ut_map *m, const char *key, size_t klen, void *value)
{
	uint64_t h = ut_hash(key, klen);
	ut_map_slot *s;

	if ((m->n + 1) * 4 >= m->cap * 3 && rehash(m, m->cap ? m->cap * 2 : 16) < 0)
		return UT_ENOMEM;
	s = lookup(m->slots, m->cap, key, klen, h);
	if (!s->hash) {
		s->hash = h;
		s->key = key;
		s->klen = klen;
		m->n++;
	}
	s->value = value;
	return 0;
}

int ut_map_find(const ut_map *m, const char *key, size_t klen, void **value_out)
{
	ut_map_slot *s;

	if (!m->cap)
		return 0;
	s = lookup(m->slots, m->cap, key, klen, ut_hash(key, klen));
	if (!s->hash)
		return 0;
	if (value_out)
		*value_out = s->value;
	return 1;
}

void *ut_map_get(const ut_map *m, const char *key, size_t klen)
{
	void *v = NULL;

	ut_map_find(m, key, klen, &v);
	return v;
}
