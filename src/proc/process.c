/* process.c: fork/exec with a close-on-exec error pipe, so that "could not start" is never
 * mistaken for an exit status, and one poll loop that reads output and watches the
 * deadline and the interrupt flag. */
#define _GNU_SOURCE /* pipe2, strerror_r returning char *, waitid flags */
#include "proc/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc/internal.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/error.h"
#include "util/banned.h"

extern char **environ;

#define TAIL_DEFAULT ((size_t)64 * 1024)
#define GRACE_DEFAULT 2.0
#define DRAIN_S 0.2 /* how long output is read once the child has exited */
#define TICK_MS 50  /* the longest the loop sleeps: the interrupt's latency */

/* Lock-free on every platform we build for, so a signal handler may store to it. */
static atomic_int interrupted;

/* What the parent prepares before fork: the child may not allocate. */
typedef struct {
	char **envp;
	char **paths; /* exec candidates in PATH order */
	size_t npaths;
	pid_t parent;
} launch;

/* The child's report through the error pipe when it cannot exec. */
typedef struct {
	int stage; /* 0 setting up, 1 chdir, 2 exec */
	int err;
} start_error;

/* The last bytes of output, as a ring. */
typedef struct {
	char *data;
	size_t cap, start, len, dropped;
} ring;

void ut_proc_interrupt(void)
{
	atomic_store(&interrupted, 1);
}

bool ut_proc_interrupted(void)
{
	return atomic_load(&interrupted) != 0;
}

void ut_proc_interrupt_clear(void)
{
	atomic_store(&interrupted, 0);
}

static size_t name_len(const char *assignment)
{
	const char *eq = strchr(assignment, '=');

	return eq ? (size_t)(eq - assignment) : strlen(assignment);
}

static bool same_name(const char *a, const char *b)
{
	size_t n = name_len(a);

	return n == name_len(b) && strncmp(a, b, n) == 0;
}

static bool overridden(const char *var, const char *const *env, size_t from)
{
	size_t i;

	for (i = from; env && env[i]; i++)
		if (same_name(var, env[i]))
			return true;
	return false;
}

static void launch_dispose(launch *l)
{
	size_t i;

	free(l->envp);
	for (i = 0; i < l->npaths; i++)
		free(l->paths[i]);
	free(l->paths);
}

/* The allow-list, what the caller passes by name or glob, or everything (keep_secrets). */
static bool kept(const char *var, const ut_proc_opts *o)
{
	return o->keep_secrets || ut_env_allowed(var) || ut_env_named(var, o->pass);
}

/* The caller's environment as allowed (ut_env_allowed) or passed, with the overrides applied
 * (a later override of a name wins) and the marker of the tracked groups. */
static int build_env(launch *l, const ut_proc_opts *o)
{
	const char *const *env = o->env;
	const char *marker = ut_proc__marker();
	size_t n = 1, k = 0, i;

	for (i = 0; environ && environ[i]; i++)
		n++;
	for (i = 0; env && env[i]; i++) {
		if (!strchr(env[i], '=') || env[i][0] == '=')
			return ut_error_set(UT_EINPUT, "'%s' is not NAME=VALUE", env[i]);
		n++;
	}
	l->envp = calloc(n + 1, sizeof(char *));
	if (!l->envp)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; environ && environ[i]; i++)
		if (!overridden(environ[i], env, 0) && (!marker || !same_name(environ[i], marker)) &&
		    kept(environ[i], o))
			l->envp[k++] = environ[i];
	for (i = 0; env && env[i]; i++)
		if (!overridden(env[i], env, i + 1))
			l->envp[k++] = (char *)env[i];
	if (marker)
		l->envp[k++] = (char *)marker;
	return 0;
}

/* execvpe's candidates, looked up in the child's PATH rather than ours. */
static int build_paths(launch *l, const char *file)
{
	const char *path = NULL, *p, *end;
	size_t i, n = 1;

	if (strchr(file, '/'))
		path = NULL;
	else {
		path = "/bin:/usr/bin"; /* execvp's default when PATH is unset */
		for (i = 0; l->envp[i]; i++)
			if (strncmp(l->envp[i], "PATH=", 5) == 0)
				path = l->envp[i] + 5;
	}
	for (p = path; p && *p; p++)
		n += *p == ':';
	l->paths = calloc(n, sizeof(char *));
	if (!l->paths)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (!path) {
		l->paths[l->npaths] = strdup(file);
		if (!l->paths[l->npaths++])
			return ut_error_set(UT_ENOMEM, "out of memory");
		return 0;
	}
	for (p = path;; p = end + 1) {
		size_t len, size;

		end = strchr(p, ':');
		len = end ? (size_t)(end - p) : strlen(p);
		size = len + strlen(file) + 3;
		l->paths[l->npaths] = malloc(size);
		if (!l->paths[l->npaths])
			return ut_error_set(UT_ENOMEM, "out of memory");
		/* an empty entry is the working directory */
		snprintf(l->paths[l->npaths++], size, "%.*s/%s", len ? (int)len : 1,
			 len ? p : ".", file);
		if (!end)
			break;
	}
	return 0;
}

static void child_fail(int fd, int stage, int err)
{
	start_error e = {stage, err};
	ssize_t w;

	w = write(fd, &e, sizeof(e));
	(void)w;
	_exit(127);
}

/* Between fork and exec: async-signal-safe calls only. */
static void child(const launch *l, const ut_proc_opts *o, int out_fd, int err_fd)
{
	struct sigaction dfl;
	sigset_t none;
	int null_fd, e, saw_eacces = 0;
	size_t i;

	setpgid(0, 0);
	/* dies with the thread that forked it, which waits for it: no orphan if untangle is
	 * killed (its descendants are the supervisor's, groups.c) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != l->parent)
		_exit(127);
	/* a fd the parent got as 0, 1 or 2 (its own were closed) must not be overwritten */
	err_fd = fcntl(err_fd, F_DUPFD_CLOEXEC, 10);
	out_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 10);
	if (err_fd < 0)
		_exit(127);
	if (out_fd < 0)
		child_fail(err_fd, 0, errno);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGXFSZ, &dfl, NULL);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		child_fail(err_fd, 0, errno);
	if (null_fd > 2)
		close(null_fd);
	if (o->cwd && chdir(o->cwd) < 0)
		child_fail(err_fd, 1, errno);
	e = ENOENT;
	for (i = 0; i < l->npaths; i++) {
		execve(l->paths[i], (char *const *)o->argv, l->envp);
		e = errno;
		if (e == EACCES)
			saw_eacces = 1;
		else if (e != ENOENT && e != ENOTDIR && e != ESTALE && e != ENODEV &&
			 e != ETIMEDOUT)
			break;
	}
	if (saw_eacces && (e == ENOENT || e == ENOTDIR))
		e = EACCES;
	child_fail(err_fd, 2, e);
}

static int ring_init(ring *r, size_t cap)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
	r->data = malloc(cap);
	return r->data ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

static void ring_put(ring *r, const char *s, size_t n)
{
	size_t w, first, over;

	if (n >= r->cap) {
		r->dropped += r->len + (n - r->cap);
		memcpy(r->data, s + (n - r->cap), r->cap);
		r->start = 0;
		r->len = r->cap;
		return;
	}
	w = (r->start + r->len) % r->cap;
	if (r->len + n > r->cap) {
		over = r->len + n - r->cap;
		r->start = (r->start + over) % r->cap;
		r->len -= over;
		r->dropped += over;
	}
	first = r->cap - w < n ? r->cap - w : n;
	memcpy(r->data + w, s, first);
	memcpy(r->data, s + first, n - first);
	r->len += n;
}

/* The ring as one string; a cut UTF-8 sequence at its start is dropped too. */
static void ring_finish(ring *r, ut_proc_result *out)
{
	size_t i, skip = 0;
	char *s = malloc(r->len + 1);

	if (!s)
		return;
	for (i = 0; i < r->len; i++)
		s[i] = r->data[(r->start + i) % r->cap];
	while (r->dropped && skip < r->len && skip < 3 && ((unsigned char)s[skip] & 0xC0) == 0x80)
		skip++;
	memmove(s, s + skip, r->len - skip);
	s[r->len - skip] = '\0';
	out->tail = s;
	out->tail_len = r->len - skip;
	out->dropped = r->dropped + skip;
}

static bool drain(int fd, ring *r)
{
	char chunk[16384];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n > 0) {
			ring_put(r, chunk, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK); /* true: end */
	}
}

static bool has_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno != EINTR; /* ECHILD: reaped behind our back (SIGCHLD ignored) */
	return si.si_pid == pid;
}

/* The descendants that the SIGTERM reached (sent), once the child is gone: those that
 * still run get until kill_at, then SIGKILL; those this process adopted are reaped. A
 * descendant that left the group (setsid) and ignores SIGTERM is no descendant of the
 * child any more once the child died, so the group's kill and the tree's miss it. */
static void kill_listed(const ut_proc_strays *sent, double kill_at)
{
	size_t i, alive = sent->n;
	pid_t ppid;

	while (alive && ut_clock_mono() < kill_at) {
		for (i = 0, alive = 0; i < sent->n; i++)
			alive += ut_proc__still(&sent->v[i], &ppid);
		if (alive)
			usleep(20000);
	}
	for (i = 0; alive && i < sent->n; i++) {
		if (!ut_proc__still(&sent->v[i], &ppid) || kill(sent->v[i].pid, SIGKILL) < 0)
			continue;
		if (ppid == getpid())
			waitpid(sent->v[i].pid, NULL, 0);
	}
}

/* Reads output until the child is gone; kills its group on timeout or interrupt. The child
 * is left unreaped (a zombie), so its pid, which names the group, cannot be reused. */
static void watch(ut_proc_result *out, const ut_proc_opts *o, int fd, ring *r, double t0)
{
	double grace = o->grace_s > 0 ? o->grace_s : GRACE_DEFAULT, now, exit_at = 0, kill_at = 0;
	bool exited = false, eof = false, killing = false, hard = false;
	pid_t pid = out->pid;
	struct pollfd p;
	ut_proc_strays sent = {0};
	size_t strays;
	int wait_ms;

	for (;;) {
		now = ut_clock_mono();
		ut_proc__note_strays(false);
		if (!exited && has_exited(pid)) {
			exited = true;
			exit_at = now;
			if (o->kill_group_after_exit || killing)
				kill(-pid, SIGKILL);
		}
		if (!exited && !killing) {
			if (atomic_load(&interrupted))
				out->state = UT_PROC_INTERRUPTED;
			else if (o->timeout_s > 0 && now - t0 >= o->timeout_s)
				out->state = UT_PROC_TIMEOUT;
			if (out->state == UT_PROC_INTERRUPTED || out->state == UT_PROC_TIMEOUT) {
				killing = true;
				/* the group and the tree as listed before either is signalled: a
				 * descendant that left the group (setsid) is the child's only while
				 * the child lives */
				if (ut_proc__kill_tree(pid, 0, SIGTERM, true, &strays, &sent) < 0)
					kill(-pid, SIGTERM);
				kill_at = now + grace;
			}
		}
		if (killing && !exited && !hard && now >= kill_at) {
			if (ut_proc__kill_tree(pid, 0, SIGKILL, true, &strays, NULL) < 0)
				kill(-pid, SIGKILL);
			hard = true;
		}
		if (exited && (eof || now - exit_at >= DRAIN_S))
			break;
		wait_ms = eof ? 10 : TICK_MS;
		p.fd = eof ? -1 : fd;
		p.events = POLLIN;
		p.revents = 0;
		if (poll(&p, 1, wait_ms) > 0 && !eof)
			eof = drain(fd, r);
	}
	if (killing) {
		kill(-pid, SIGKILL); /* descendants that outlived the child or ignored SIGTERM */
		kill_listed(&sent, kill_at);
	}
	ut_vec_free(&sent);
}

/* The parent's side once the child runs: its output, its deadline, its status. */
static int wait_child(ut_proc_result *out, const ut_proc_opts *o, const char *name, int fd,
		      ring *r, double t0)
{
	int status = 0;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	out->state = UT_PROC_EXITED;
	watch(out, o, fd, r, t0);
	while (waitpid(out->pid, &status, 0) < 0 && errno == EINTR)
		;
	ut_proc__group_reaped(out->pid);
	if (WIFEXITED(status))
		out->exit_code = WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		out->signal = WTERMSIG(status);
	if (out->state == UT_PROC_EXITED && WIFSIGNALED(status))
		out->state = UT_PROC_SIGNALED;
	if (out->state == UT_PROC_TIMEOUT)
		return ut_error_set(UT_ETIMEOUT, "'%s' ran past its timeout of %g s and was stopped",
				    name, o->timeout_s);
	if (out->state == UT_PROC_INTERRUPTED)
		return ut_error_set(UT_EINTR, "interrupted: '%s' was stopped", name);
	return 0;
}

static int start_failed(ut_proc_result *out, const ut_proc_opts *o, const start_error *e)
{
	char buf[256];
	const char *text = strerror_r(e->err, buf, sizeof(buf));

	out->state = UT_PROC_NOSTART;
	out->start_errno = e->err;
	if (e->stage == 1)
		return ut_error_set(UT_EENV, "cannot run '%s': cannot change to directory '%s': %s",
				    o->argv[0], o->cwd, text);
	return ut_error_set(UT_EENV, "cannot run '%s': %s", o->argv[0], text);
}

/* The result's wall time and tail, whatever happened: rc, or UT_ENOMEM for a lost tail. */
static int finish(ut_proc_result *out, ring *r, int rc, double t0)
{
	out->wall_s = ut_clock_mono() - t0;
	if (r->data)
		ring_finish(r, out);
	free(r->data);
	r->data = NULL;
	if (!out->tail && rc == 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (!out->tail)
		out->tail = calloc(1, 1);
	return rc;
}

int ut_proc_run(ut_proc_result *out, const ut_proc_opts *o)
{
	size_t cap = o->tail_max ? o->tail_max : TAIL_DEFAULT;
	int outp[2] = {-1, -1}, errp[2] = {-1, -1}, status = 0, rc = 0;
	launch l = {NULL, NULL, 0, 0};
	char ebuf[256];
	start_error se;
	double t0 = ut_clock_mono();
	ring r = {NULL, 0, 0, 0, 0};
	ssize_t n;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	if (!o->argv || !o->argv[0] || !o->argv[0][0]) {
		rc = ut_error_set(UT_EINPUT, "empty command");
		goto done;
	}
	rc = ring_init(&r, cap);
	if (rc < 0)
		goto done;
	if (atomic_load(&interrupted)) {
		out->state = UT_PROC_INTERRUPTED;
		rc = ut_error_set(UT_EINTR, "interrupted: '%s' not started", o->argv[0]);
		goto done;
	}
	rc = build_env(&l, o);
	if (rc == 0)
		rc = build_paths(&l, o->argv[0]);
	if (rc < 0)
		goto done;
	/* close-on-exec from the start: children other threads fork must not hold them */
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
		rc = ut_error_set(UT_EENV, "cannot run '%s': pipe: %s", o->argv[0],
				  strerror_r(errno, ebuf, sizeof(ebuf)));
		goto done;
	}
	t0 = ut_clock_mono();
	l.parent = getpid();
	pid = fork();
	if (pid < 0) {
		rc = ut_error_set(UT_EENV, "cannot run '%s': fork: %s", o->argv[0],
				  strerror_r(errno, ebuf, sizeof(ebuf)));
		goto done;
	}
	if (pid == 0)
		child(&l, o, outp[1], errp[1]);
	out->pid = pid;
	setpgid(pid, pid); /* also here, so that the group exists before any kill(-pid) */
	ut_proc__group_started(pid);
	close(outp[1]);
	close(errp[1]);
	outp[1] = errp[1] = -1;
	do
		n = read(errp[0], &se, sizeof(se));
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(se)) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ut_proc__group_reaped(pid);
		out->pid = 0;
		rc = start_failed(out, o, &se);
		goto done;
	}
	rc = wait_child(out, o, o->argv[0], outp[0], &r, t0);
done:
	rc = finish(out, &r, rc, t0);
	launch_dispose(&l);
	if (outp[0] >= 0)
		close(outp[0]);
	if (outp[1] >= 0)
		close(outp[1]);
	if (errp[0] >= 0)
		close(errp[0]);
	if (errp[1] >= 0)
		close(errp[1]);
	return rc;
}

/* The child of ut_proc_call: set up as child() does, then the function instead of exec. */
static void call_child(int (*fn)(void *arg), void *arg, int out_fd)
{
	struct sigaction dfl;
	sigset_t none;
	int null_fd;

	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0)
		_exit(127);
	_exit(fn(arg) & 0xff);
}

int ut_proc_call(ut_proc_result *out, const ut_proc_opts *o, const char *name,
		 int (*fn)(void *arg), void *arg)
{
	int outp[2] = {-1, -1}, rc = 0;
	ring r = {NULL, 0, 0, 0, 0};
	char ebuf[256];
	double t0 = ut_clock_mono();
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->exit_code = -1;
	rc = ring_init(&r, o->tail_max ? o->tail_max : TAIL_DEFAULT);
	if (rc < 0)
		goto done;
	if (atomic_load(&interrupted)) {
		out->state = UT_PROC_INTERRUPTED;
		rc = ut_error_set(UT_EINTR, "interrupted: '%s' not started", name);
		goto done;
	}
	if (pipe2(outp, O_CLOEXEC) < 0) {
		rc = ut_error_set(UT_EENV, "cannot run '%s': pipe: %s", name,
				  strerror_r(errno, ebuf, sizeof(ebuf)));
		goto done;
	}
	pid = fork();
	if (pid < 0) {
		out->state = UT_PROC_NOSTART;
		out->start_errno = errno;
		rc = ut_error_set(UT_EENV, "cannot run '%s': fork: %s", name,
				  strerror_r(errno, ebuf, sizeof(ebuf)));
		goto done;
	}
	if (pid == 0)
		call_child(fn, arg, outp[1]);
	out->pid = pid;
	setpgid(pid, pid);
	close(outp[1]);
	outp[1] = -1;
	rc = wait_child(out, o, name, outp[0], &r, t0);
done:
	rc = finish(out, &r, rc, t0);
	if (outp[0] >= 0)
		close(outp[0]);
	if (outp[1] >= 0)
		close(outp[1]);
	return rc;
}

void ut_proc_result_dispose(ut_proc_result *res)
{
	if (!res)
		return;
	free(res->tail);
	res->tail = NULL;
	res->tail_len = 0;
}

const char *ut_proc_state_name(ut_proc_state s)
{
	switch (s) {
	case UT_PROC_EXITED:
		return "exited";
	case UT_PROC_SIGNALED:
		return "signaled";
	case UT_PROC_TIMEOUT:
		return "timeout";
	case UT_PROC_INTERRUPTED:
		return "interrupted";
	case UT_PROC_NOSTART:
		return "could-not-start";
	}
	return "unknown";
}

const char *ut_proc_describe(const ut_proc_result *res, char *buf, size_t size)
{
	char err[256];

	switch (res->state) {
	case UT_PROC_EXITED:
		snprintf(buf, size, "exit status %d", res->exit_code);
		break;
	case UT_PROC_SIGNALED:
		snprintf(buf, size, "killed by signal %d (%s)", res->signal,
			 sigdescr_np(res->signal) ? sigdescr_np(res->signal) : "unknown");
		break;
	case UT_PROC_TIMEOUT:
		snprintf(buf, size, "timed out after %.1f s", res->wall_s);
		break;
	case UT_PROC_INTERRUPTED:
		snprintf(buf, size, "interrupted");
		break;
	case UT_PROC_NOSTART:
		snprintf(buf, size, "could not start: %s",
			 strerror_r(res->start_errno, err, sizeof(err)));
		break;
	}
	return buf;
}
