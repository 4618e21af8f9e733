/* process.h: runs one child process from an argv array (never a shell) in its own process
 * group, with a timeout, an interrupt and a bounded tail of its output. */
#ifndef UT_PROCESS_H
#define UT_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef enum {
	UT_PROC_EXITED,      /* it exited by itself: exit_code */
	UT_PROC_SIGNALED,    /* a signal untangle did not send ended it: signal */
	UT_PROC_TIMEOUT,     /* it ran past timeout_s; its process group was killed */
	UT_PROC_INTERRUPTED, /* ut_proc_interrupt() stopped it, or refused to start it */
	UT_PROC_NOSTART      /* it could not be started: start_errno */
} ut_proc_state;

typedef struct {
	/* argv[0] is looked up like execvpe(3) does, in the PATH of the child's environment
	 * (the overrides included) when it holds no '/'; relative paths, in argv[0] and in
	 * PATH, are relative to cwd. NULL-terminated, at least one element. */
	const char *const *argv;
	const char *cwd;          /* NULL: the caller's working directory */
	const char *const *env;   /* "NAME=VALUE" overrides of the caller's environment,
				   * NULL-terminated; NULL: none */
	double timeout_s;         /* <= 0: none */
	double grace_s;           /* SIGTERM to SIGKILL on timeout or interrupt; 0: 2 s */
	size_t tail_max;          /* output bytes kept (the last ones); 0: 64 KiB */
	/* After the child exits, SIGKILL what is left of its process group (a browser the
	 * tests did not quit). Leave false for commands that start daemons in their own group. */
	bool kill_group_after_exit;
	/* The child's environment: the variables of the caller's on the allow-list
	 * (ut_env_allowed: PATH, HOME, LANG, ... never a name that looks like a secret), those
	 * named by pass (NULL-terminated names or globs, "AWS_*"; NULL: none), then the env
	 * overrides. keep_secrets: the caller's whole environment instead. */
	const char *const *pass;
	bool keep_secrets;
} ut_proc_opts;

typedef struct {
	ut_proc_state state;
	int exit_code;   /* EXITED, or TIMEOUT/INTERRUPTED when it exited during the grace; else -1 */
	int signal;      /* the signal that ended it (also for TIMEOUT/INTERRUPTED), else 0 */
	int start_errno; /* NOSTART: errno of chdir or exec */
	pid_t pid;       /* 0 when it did not start */
	double wall_s;   /* from start to reaped */
	char *tail;      /* the last tail_max bytes of stdout and stderr (interleaved as written),
			  * NUL-terminated, never NULL after ut_proc_run; owned by the result */
	size_t tail_len;
	size_t dropped;  /* output bytes before the tail that were not kept */
} ut_proc_result;

/* Runs opts->argv to its end and fills *out (always; dispose it whatever the return).
 * stdin is /dev/null, stdout and stderr go to one pipe read into out->tail. Once the child
 * has exited, output still held open by its descendants is drained for 0.2 s, then the
 * pipe is closed: a daemon the child leaves running must not write to the inherited
 * stdout or stderr (it would get EPIPE); redirect its output to a file.
 * Returns 0 when the child ran and ended by itself (any exit status, or a signal),
 * UT_ETIMEOUT when it ran past the timeout, UT_EINTR when interrupted (or when
 * ut_proc_interrupt() was called before: nothing starts), UT_EENV when it could not start
 * (a missing program, a bad cwd; the message names it and the errno text), UT_EINPUT for
 * an empty argv, UT_ENOMEM or UT_ERROR when the parent ran out of resources.
 * Thread-safe: any number of runs may go on at once in different threads. */
int ut_proc_run(ut_proc_result *out, const ut_proc_opts *opts);

/* Runs fn(arg) in a forked child, as ut_proc_run runs a program: its own process group,
 * stdin /dev/null, output into out->tail, opts->timeout_s, grace_s, tail_max and the
 * interrupt honoured (argv, cwd and env are not used); the child exits with fn's return
 * value. name stands for the program in messages. For work that may crash or hang on
 * hostile input (treesitter.c's trial parse). The child is a copy of the caller: when
 * other threads run, fn must not take a lock they may hold, allocators' included (glibc's
 * malloc and util/pool.c have fork handlers, the sanitizers' allocators do not); safest
 * is to call it while no other thread runs. Same return codes as ut_proc_run (UT_EENV
 * when fork fails). */
int ut_proc_call(ut_proc_result *out, const ut_proc_opts *opts, const char *name,
		 int (*fn)(void *arg), void *arg);

/* Frees the tail. Accepts NULL. */
void ut_proc_result_dispose(ut_proc_result *res);

/* Async-signal-safe (call it from a SIGINT/SIGTERM handler): every ut_proc_run under way
 * sends its group SIGTERM, then SIGKILL after the grace, and returns UT_EINTR; later calls
 * return UT_EINTR without starting anything. Takes effect within 50 ms. */
void ut_proc_interrupt(void);
bool ut_proc_interrupted(void);
/* Lets runs start again (for a caller that handled the interrupt and goes on). */
void ut_proc_interrupt_clear(void);

/* No orphan child: from now on, the process group of every child is recorded in `path`
 * (one line "PGID MARKER" per live group, rewritten atomically, removed when the child is
 * reaped), and so is, once a second while a child runs, every descendant that left its
 * group ("PGID MARKER PID START", START its start time in /proc/PID/stat: a setsid(2)
 * daemon, which may also clear its environment); every child gets UNTANGLE_RUN=MARKER in
 * its environment; this process becomes a child subreaper (PR_SET_CHILD_SUBREAPER: the
 * orphans of its children are reparented to it); and a supervisor process (in its own session, deaf to SIGINT, SIGTERM, SIGHUP and
 * SIGQUIT) SIGKILLs the groups in the file as soon as this process is gone, whatever ended
 * it, then every process whose environment carries MARKER (a daemon that left its group
 * with setsid(2)). Each child also
 * gets SIGKILL when the thread that started it dies (PR_SET_PDEATHSIG). Call it once,
 * from the thread that lives longest, before any child starts; path's folder must exist.
 * 0, UT_EENV (the folder, the pipe or fork failed) or UT_ENOMEM. */
int ut_proc_track(const char *path);

/* After ut_proc_track, at the end of untangle's work (normal, interrupted or failed): kills
 * with SIGKILL every process still descending from this one but the supervisor, such as a
 * daemon a test started with setsid(2), which its group's kill misses (ut_proc_track made
 * this process a child subreaper: orphans stay its descendants). Call it when no run is
 * under way. *killed counts them. 0, UT_EENV (/proc cannot be read) or UT_ENOMEM. */
int ut_proc_stop_strays(size_t *killed);

/* Kills, with SIGKILL, every process that carries one of the markers recorded in `path`
 * by an earlier untangle (whatever its group now), and every descendant it recorded as
 * having left its group that still runs (same pid and start time) and waits until they are gone (at most
 * 2 s). Call it while holding the project's lock, before ut_proc_track truncates the
 * file. A missing file is nothing to do. *killed counts the processes killed.
 * 0, UT_EENV (/proc cannot be read) or UT_ENOMEM. */
int ut_proc_kill_orphans(const char *path, size_t *killed);

/* "exited", "signaled", "timeout", "interrupted", "could-not-start". */
const char *ut_proc_state_name(ut_proc_state s);

/* One line for a message: "exit status 3", "killed by signal 9 (Killed)", "timed out
 * after 5 s", "interrupted", "could not start: No such file or directory". Into buf,
 * which is returned. */
const char *ut_proc_describe(const ut_proc_result *res, char *buf, size_t size);

#endif
