/* lock.h: one process at a time on a folder (an flock that names its holder). */
#ifndef UT_LOCK_H
#define UT_LOCK_H

/* Takes an exclusive lock on `path` (created when missing) without waiting, then writes
 * "PID START COMMAND" in it (START: seconds since the epoch). The lock lasts as long as
 * the process (the descriptor, close-on-exec, is kept open on purpose; *out gives it).
 * Returns 0, or UT_EENV when another process holds it, with a message naming it ("pid
 * 1234, `untangle detect`, since 2026-11-23 16:01:28 UTC") or when the file cannot be
 * opened. */
int ut_lock_take(int *out, const char *path, const char *command);

#endif
