/* groups.c: no orphan runner: the process group of every child is recorded in a file while
 * it lives, a supervisor process kills what is recorded, and every process carrying the
 * run's marker, when untangle dies (even by SIGKILL), and the next untangle kills what a
 * dead one left behind. While untangle lives it is a child subreaper: an orphan of its
 * runners (a setsid(2) daemon's parent gone) stays its descendant, and ut_proc_stop_strays
 * finds it. */
#define _GNU_SOURCE /* pipe2 */
#include "proc/process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "proc/internal.h"
#include "util/clock.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/vec.h"
#include "util/banned.h"

#define MARKER "UNTANGLE_RUN="
#define FILE_MAX ((size_t)1 << 20) /* a file of live groups is a few lines */
#define STRAYS_EVERY_S 1.0          /* how often the watch loops look for strays */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *path;	/* absolute; NULL while not tracking */
static char marker[64]; /* "UNTANGLE_RUN=<pid>-<ns>", given to every child */
static UT_VEC(pid_t) live;
static pid_t supervisor; /* spared by ut_proc_stop_strays */
static ut_proc_strays strays; /* as last found, in the file too */
static double strays_at;      /* when they were looked for */

/* Rewrites the file from `live` and `strays` (temporary file + rename: the supervisor may
 * read it at any moment): "PGID MARKER" per group, "PGID MARKER PID START" per stray.
 * Called with the lock held. Errors are not the child's: they are ignored, the supervisor
 * and the next run then see the previous state. */
static void save(void)
{
	ut_buf b = UT_BUF_INIT;
	size_t i;

	for (i = 0; i < live.n; i++)
		ut_buf_printf(&b, "%ld %s\n", (long)live.v[i], marker + strlen(MARKER));
	for (i = 0; i < strays.n; i++)
		ut_buf_printf(&b, "%ld %s %ld %llu\n", (long)strays.v[i].pgid,
			      marker + strlen(MARKER), (long)strays.v[i].pid, strays.v[i].start);
	if (!b.failed)
		(void)ut_fs_write_atomic(path, b.ptr ? b.ptr : "", b.len);
	ut_buf_dispose(&b);
}

const char *ut_proc__marker(void)
{
	return path ? marker : NULL;
}

void ut_proc__group_started(pid_t pgid)
{
	pthread_mutex_lock(&lock);
	if (path && ut_vec_push(&live, pgid) == 0)
		save();
	pthread_mutex_unlock(&lock);
}

void ut_proc__group_reaped(pid_t pgid)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; path && i < live.n; i++) {
		if (live.v[i] != pgid)
			continue;
		live.v[i] = live.v[--live.n];
		save();
		break;
	}
	pthread_mutex_unlock(&lock);
}

void ut_proc__note_strays(bool now)
{
	UT_VEC(pid_t) groups = {0};
	ut_proc_strays found = {0};
	bool changed = false;
	size_t i;
	int rc = 0;

	pthread_mutex_lock(&lock);
	if (!path || (!now && ut_clock_mono() - strays_at < STRAYS_EVERY_S)) {
		pthread_mutex_unlock(&lock);
		return;
	}
	strays_at = ut_clock_mono();
	for (i = 0; i < live.n && rc == 0; i++)
		rc = ut_vec_push(&groups, live.v[i]);
	pthread_mutex_unlock(&lock);
	if (rc == 0) /* outside the lock: a walk of /proc takes milliseconds */
		rc = ut_proc__find_strays(supervisor, groups.v, groups.n, &found);
	pthread_mutex_lock(&lock);
	changed = rc == 0 && (found.n != strays.n ||
			      (found.n && memcmp(found.v, strays.v, found.n * sizeof(*found.v))));
	if (changed && path) {
		ut_vec_free(&strays);
		strays = found;
		found.v = NULL;
		save();
	}
	pthread_mutex_unlock(&lock);
	ut_vec_free(&found);
	ut_vec_free(&groups);
	ut_error_clear();
}

/* Whether the line's marker field at s is this run's (async-signal-safe): the file may
 * already be the next untangle's when the supervisor reads it (untangle gone, the next
 * one started in the same project), and its groups are not ours to kill. */
static bool own_marker(const char *s)
{
	const char *m = marker + strlen(MARKER);

	while (*m && *s == *m)
		s++, m++;
	return !*m && (*s == ' ' || *s == '\n' || !*s);
}

/* The supervisor, between fork and _exit: async-signal-safe calls only. Waits for the end
 * of the pipe (untangle is gone, however it went), then kills every group in the file. */
static void supervise(int rfd, const char *file)
{
	static char text[64 * 1024];
	struct sigaction ign;
	ssize_t n, got = 0;
	int fd, i;
	char c, *p;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGTERM, &ign, NULL);
	sigaction(SIGHUP, &ign, NULL);
	sigaction(SIGQUIT, &ign, NULL);
	setsid(); /* out of untangle's group and terminal: a kill of the group spares it */
	fd = open("/dev/null", O_RDWR);
	for (i = 0; i < 3 && fd >= 0; i++)
		dup2(fd, i);
	for (i = 3; i < 1024; i++)
		if (i != rfd)
			close(i);
	do
		n = read(rfd, &c, 1);
	while (n < 0 && errno == EINTR);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	while (fd >= 0 && (n = read(fd, text + got, sizeof(text) - 1 - (size_t)got)) > 0)
		got += n;
	text[got] = '\0';
	for (p = text; *p;) {
		long pgid = 0;

		while (*p >= '0' && *p <= '9')
			pgid = pgid * 10 + (*p++ - '0');
		if (pgid > 1 && *p == ' ' && own_marker(p + 1))
			kill((pid_t)-pgid, SIGKILL);
		while (*p && *p != '\n')
			p++;
		if (*p)
			p++;
	}
	/* what left its group (setsid) still carries the marker, unless it cleared its
	 * environment */
	ut_proc__kill_marked(marker);
	_exit(0);
}

/* The whole content of a small file (NUL-terminated; *len excludes it), or NULL. */
static char *slurp(const char *file, size_t max, size_t *len)
{
	ut_buf b = UT_BUF_INIT;

	if (ut_fs_read(&b, file, max) < 0 || !b.ptr) {
		ut_buf_dispose(&b);
		return NULL;
	}
	return ut_buf_detach(&b, len);
}

/* file made absolute through its folder, which must exist (untangle may chdir later). */
static char *absolute(const char *file)
{
	const char *base = ut_path_basename(file);
	char *dir = strndup(file, (size_t)(base - file)), *real, *out;

	real = realpath(*dir ? dir : ".", NULL);
	out = real ? ut_path_join(real, base) : NULL;
	if (!real)
		ut_error_set(UT_EENV, "cannot resolve '%s': %s", file, strerror(errno));
	else if (!out)
		ut_error_set(UT_ENOMEM, "out of memory");
	free(dir);
	free(real);
	return out;
}

int ut_proc_track(const char *file)
{
	char *abs = NULL;
	int fds[2] = {-1, -1}, rc = 0;
	pid_t pid;

	abs = absolute(file);
	if (!abs)
		return ut_error_code();
	pthread_mutex_lock(&lock);
	free(path);
	path = abs;
	live.n = 0;
	snprintf(marker, sizeof(marker), MARKER "%ld-%.9f", (long)getpid(), ut_clock_wall());
	save();
	pthread_mutex_unlock(&lock);
	/* the write end stays in untangle only (close-on-exec): its last close is our death */
	if (pipe2(fds, O_CLOEXEC) < 0)
		return ut_error_set(UT_EENV, "cannot start the supervisor: pipe: %s",
				    strerror(errno));
	pid = fork();
	if (pid < 0) {
		rc =
		    ut_error_set(UT_EENV, "cannot start the supervisor: fork: %s", strerror(errno));
		goto done;
	}
	if (pid == 0)
		supervise(fds[0], abs);
	supervisor = pid;
	/* orphans of the runners are reparented to untangle rather than to init: they stay in
	 * its tree, where ut_proc_stop_strays finds them */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		rc = ut_error_set(UT_EENV, "cannot become a child subreaper: %s", strerror(errno));
done:
	close(fds[0]); /* fds[1] is kept open until untangle exits */
	if (rc < 0)
		close(fds[1]);
	return rc;
}

int ut_proc_stop_strays(size_t *killed)
{
	*killed = 0;
	if (!path)
		return 0;
	return ut_proc__kill_tree(getpid(), supervisor, SIGKILL, false, killed, NULL);
}

/* Whether the process's environment (as it was started) holds one of the markers. */
static bool marked(const char *pid, const char *const *markers, size_t n)
{
	char file[sizeof("/proc//environ") + 256], *env;
	size_t len, off, i;
	bool hit = false;

	if (strlen(pid) > 255)
		return false;
	snprintf(file, sizeof(file), "/proc/%s/environ", pid);
	env = slurp(file, (size_t)1 << 22, &len);
	for (off = 0; env && off < len && !hit; off += strlen(env + off) + 1)
		for (i = 0; i < n && !hit; i++)
			hit = strcmp(env + off, markers[i]) == 0;
	free(env);
	return hit;
}

typedef UT_VEC(char *) marker_list;
typedef UT_VEC(pid_t) pid_list;

/* Reads the orphans file's lines ("PID TOKEN [STRAY_PID START]", text is cut up): each
 * token's environment marker into markers, each stray that is still the same process
 * (its start time) into victims. 0 or UT_ENOMEM. */
static int read_orphans(char *text, marker_list *markers, pid_list *victims)
{
	char *line, *save_p = NULL;

	for (line = strtok_r(text, "\n", &save_p); line; line = strtok_r(NULL, "\n", &save_p)) {
		char *token = strchr(line, ' '), *stray, *m;
		unsigned long long start = 0, now = 0;
		long pid = 0;

		if (!token || !token[1])
			continue;
		stray = strchr(token + 1, ' ');
		if (stray)
			*stray++ = '\0';
		/* a stray left its group and may have cleared its environment: its pid, if it is
		 * still the same process */
		if (stray && sscanf(stray, "%ld %llu", &pid, &start) == 2 && pid > 1 &&
		    pid != (long)getpid() && ut_proc__start_time((pid_t)pid, &now) &&
		    now == start && ut_vec_push(victims, (pid_t)pid) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		m = malloc(strlen(MARKER) + strlen(token + 1) + 1);
		if (!m || ut_vec_push(markers, m) < 0) {
			free(m);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
		memcpy(m, MARKER, strlen(MARKER));
		memcpy(m + strlen(MARKER), token + 1, strlen(token + 1) + 1);
	}
	return 0;
}

/* Adds to victims every process of /proc (but this one and those already there) whose
 * environment holds one of the markers. 0, UT_EENV, UT_ENOMEM. */
static int find_marked(const marker_list *markers, pid_list *victims)
{
	size_t strays_n = victims->n, i;
	struct dirent *de;
	DIR *proc = opendir("/proc");
	int rc = 0;

	if (!proc)
		return ut_error_set(UT_EENV, "cannot list /proc: %s", strerror(errno));
	while (rc == 0 && (de = readdir(proc))) {
		pid_t pid = (pid_t)strtol(de->d_name, NULL, 10);
		bool known = false;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' || pid == getpid())
			continue;
		for (i = 0; i < strays_n && !known; i++)
			known = victims->v[i] == pid;
		if (!known && marked(de->d_name, (const char *const *)markers->v, markers->n) &&
		    ut_vec_push(victims, pid) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	closedir(proc);
	return rc;
}

/* Waits (up to 2 s) until every victim is gone or a zombie: a runner still writing must
 * not meet the next reset. */
static void wait_gone(const pid_list *victims)
{
	for (int round = 0; round < 100; round++) {
		bool alive = false;

		for (size_t i = 0; i < victims->n && !alive; i++) {
			char stat[64], *s;
			size_t n;

			snprintf(stat, sizeof(stat), "/proc/%ld/stat", (long)victims->v[i]);
			s = slurp(stat, 4096, &n);
			alive = s && strstr(s, ") Z ") == NULL;
			free(s);
		}
		if (!alive)
			break;
		usleep(20000);
	}
}

int ut_proc_kill_orphans(const char *file, size_t *killed)
{
	marker_list markers = {0};
	pid_list victims = {0};
	char *text = NULL;
	size_t len = 0, i;
	int rc = 0;

	*killed = 0;
	text = slurp(file, FILE_MAX, &len);
	if (!text)
		return ut_error_code() == UT_ENOTFOUND ? 0 : ut_error_code();
	rc = read_orphans(text, &markers, &victims);
	if (rc < 0 || !markers.n)
		goto done;
	rc = find_marked(&markers, &victims);
	if (rc < 0)
		goto done;
	for (i = 0; i < victims.n; i++)
		if (kill(victims.v[i], SIGKILL) == 0)
			(*killed)++;
	wait_gone(&victims);
	ut_error_clear();
done:
	for (i = 0; i < markers.n; i++)
		free(markers.v[i]);
	ut_vec_free(&markers);
	ut_vec_free(&victims);
	free(text);
	return rc;
}
