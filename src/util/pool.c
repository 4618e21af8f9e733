/* pool.c: per-thread free lists of small blocks, cut from slabs kept until exit. */
#include "util/pool.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

#define UNIT 16            /* size classes are multiples of it; headers take one */
#define CLASSES 16         /* blocks up to 256 bytes come from the pool */
#define SLAB (1u << 20)

/* A freed block is marked: freeing it again aborts, as glibc does, instead of handing it
 * out twice. treesitter.c relies on it: it tells a parse that frees twice (tree-sitter
 * 0.20.7 does at 65,535 levels of nesting) by the crash of a trial run in a child. */
#define FREED ((size_t)0x5eedf1ee)

/* Every block is preceded by its class; 0 marks a block of malloc's, which starts at the
 * header. The header keeps the block 16-byte aligned, like malloc's. */
typedef struct {
	size_t cls;
	size_t state; /* FREED while on a free list */
} header;

typedef struct slab slab;
struct slab {
	slab *next;
	_Alignas(16) unsigned char data[];
};

typedef struct {
	void *free[CLASSES + 1]; /* by class: freed blocks, linked through their first word */
	unsigned char *at;       /* the rest of this thread's current slab */
	size_t left;
} cache;

static _Thread_local cache mine;
/* Every slab, so that they stay reachable (leak checkers) when their thread has ended. */
static slab *slabs;
static pthread_mutex_t slabs_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* The lock is the pool's only shared state. A child forked while another thread held it
 * would wait for it forever at its first new slab (treesitter.c parses in a child while
 * other threads parse): fork takes it first and both sides let it go. The free lists are
 * per thread, so the forking thread's own are consistent in the child. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&slabs_lock);
}

static void fork_release(void)
{
	pthread_mutex_unlock(&slabs_lock);
}

static void fork_handlers(void)
{
	if (pthread_atfork(fork_prepare, fork_release, fork_release) != 0)
		abort(); /* only ENOMEM; the pool aborts when memory runs out */
}

static void *need(void *p)
{
	if (!p)
		abort(); /* what tree-sitter does when its malloc fails */
	return p;
}

static void *cut(size_t bytes)
{
	void *p;

	if (mine.left < bytes) {
		slab *s = need(malloc(sizeof(slab) + SLAB));

		/* registered before the lock is first taken: no fork can find it held
		 * without a handler */
		pthread_once(&fork_once, fork_handlers);
		pthread_mutex_lock(&slabs_lock);
		s->next = slabs;
		slabs = s;
		pthread_mutex_unlock(&slabs_lock);
		mine.at = s->data;
		mine.left = SLAB;
	}
	p = mine.at;
	mine.at += bytes;
	mine.left -= bytes;
	return p;
}

void *ut_pool_malloc(size_t n)
{
	size_t cls = n ? (n + UNIT - 1) / UNIT : 1;
	header *h;

	if (cls > CLASSES) {
		if (n > SIZE_MAX - sizeof(header))
			abort();
		h = need(malloc(sizeof(header) + n));
		h->cls = 0;
		return h + 1;
	}
	if (mine.free[cls]) {
		void *p = mine.free[cls];

		mine.free[cls] = *(void **)p;
		((header *)p - 1)->state = 0;
		return p;
	}
	h = cut(sizeof(header) + cls * UNIT);
	h->cls = cls;
	h->state = 0;
	return h + 1;
}

void ut_pool_free(void *p)
{
	header *h;

	if (!p)
		return;
	h = (header *)p - 1;
	if (!h->cls) {
		free(h);
		return;
	}
	if (h->state == FREED)
		abort();
	h->state = FREED;
	*(void **)p = mine.free[h->cls];
	mine.free[h->cls] = p;
}

void *ut_pool_calloc(size_t count, size_t size)
{
	void *p;

	if (size && count > SIZE_MAX / size)
		abort();
	p = ut_pool_malloc(count * size);
	memset(p, 0, count * size);
	return p;
}

void *ut_pool_realloc(void *p, size_t n)
{
	header *h;
	void *q;

	if (!p)
		return ut_pool_malloc(n);
	h = (header *)p - 1;
	if (!h->cls) {
		if (n > SIZE_MAX - sizeof(header))
			abort();
		h = need(realloc(h, sizeof(header) + n));
		return h + 1;
	}
	if (n && n <= h->cls * UNIT)
		return p;
	q = ut_pool_malloc(n);
	memcpy(q, p, n < h->cls * UNIT ? n : h->cls * UNIT);
	ut_pool_free(p);
	return q;
}
