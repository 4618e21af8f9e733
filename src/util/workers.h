/* workers.h: one task run on several threads at once, the calling thread among them. */
#ifndef UT_WORKERS_H
#define UT_WORKERS_H

#include <stddef.h>

/* The most threads ut_workers_run starts (detect.workers allows no more). */
#define UT_MAX_WORKERS 256

/* How many threads `requested` means for `tasks` tasks: 0 asks for one per CPU this
 * process may run on (its affinity mask: taskset, a container's cpuset), at most
 * UT_MAX_WORKERS and no more than the tasks; never less than 1. */
unsigned ut_workers_count(unsigned requested, size_t tasks);

/* Calls fn(arg, k) on `threads` threads at once, k = 0 on the calling thread and 1 to
 * threads - 1 on threads started for it, and returns when every call has returned. A
 * thread that cannot be started makes no call: fn shares its work out through arg (a
 * queue the calls take from until it is empty), so that fewer calls still do all of it.
 * Returns how many calls were made (at least 1). */
unsigned ut_workers_run(unsigned threads, void (*fn)(void *arg, unsigned k), void *arg);

#endif
