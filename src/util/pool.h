/* pool.h: a malloc for many small blocks of a few sizes that are freed and taken again
 * all the time (tree-sitter's subtrees and parse stack nodes: about a million blocks of
 * 80 to 112 bytes for 60 files). Free lists per 16-byte size class and per thread, cut
 * from 1 MiB slabs that are kept for the life of the process; larger blocks go to malloc.
 *
 * The four functions behave as malloc, calloc, realloc and free, with one difference:
 * when memory runs out they abort, as tree-sitter's own allocator does (its callers do
 * not check). A block may be freed on another thread than the one that took it. Blocks
 * of these functions and of malloc must not be mixed. */
#ifndef UT_POOL_H
#define UT_POOL_H

#include <stddef.h>

void *ut_pool_malloc(size_t n);
void *ut_pool_calloc(size_t count, size_t size);
void *ut_pool_realloc(void *p, size_t n);
void ut_pool_free(void *p);

#endif
