/* internal.h: what the files of the process module share (process.c runs a child,
 * groups.c records the process groups and strays of a run, tree.c walks /proc); not for
 * other modules. */
#ifndef UT_PROC_INTERNAL_H
#define UT_PROC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/vec.h"

/* groups.c, for process.c: the "UNTANGLE_RUN=..." assignment every child gets, or NULL
 * while groups are not tracked; a child's group started and reaped. Thread-safe. */
const char *ut_proc__marker(void);
void ut_proc__group_started(pid_t pgid);
void ut_proc__group_reaped(pid_t pgid);

/* A process that left its runner's group while untangle runs (setsid), as recorded. */
typedef struct {
	pid_t pid, pgid;
	unsigned long long start; /* /proc/PID/stat's start time: pid reuse is told apart */
} ut_proc_stray;
typedef UT_VEC(ut_proc_stray) ut_proc_strays;

/* tree.c: into *out (emptied first), every live descendant of this process, spare's
 * subtree left out, whose group is none of groups (n): what left its runner's group. A
 * stray in untangle's own group is given its pid as pgid. 0, UT_EENV or UT_ENOMEM. */
int ut_proc__find_strays(pid_t spare, const pid_t *groups, size_t n, ut_proc_strays *out);
/* tree.c: the start time of a live process; false when it is gone. */
bool ut_proc__start_time(pid_t pid, unsigned long long *start);
/* groups.c, for process.c's watch loop: records the strays (ut_proc__find_strays) in the
 * file, at most once a second unless now. Thread-safe; nothing while not tracking. */
void ut_proc__note_strays(bool now);

/* tree.c: sends sig to every descendant of root (root itself, and spare with its own
 * descendants, left out); with SIGKILL, lists again until none is left (a process may fork
 * meanwhile) and reaps those that were this process's children. With group, root's
 * process group gets sig too, once the tree is listed and before any descendant does: a
 * descendant that left the group (setsid) is found as root's only while its parent lives.
 * *killed counts the signals sent to descendants; sent (may be NULL) gets each of them
 * (pid, group and start time) as the first listing found it, so that the caller can
 * escalate to SIGKILL after its grace even when their parent died meanwhile and they are
 * root's no more. 0, UT_EENV (/proc cannot be read) or UT_ENOMEM. */
int ut_proc__kill_tree(pid_t root, pid_t spare, int sig, bool group, size_t *killed,
		       ut_proc_strays *sent);
/* tree.c: whether the process s names still runs (the same pid and start time, not a
 * zombie), and its parent then. */
bool ut_proc__still(const ut_proc_stray *s, pid_t *ppid);
/* tree.c, for the supervisor (async-signal-safe): SIGKILLs every process whose environment
 * holds the entry marker ("UNTANGLE_RUN=..."), until none is left. */
void ut_proc__kill_marked(const char *marker);

#endif
