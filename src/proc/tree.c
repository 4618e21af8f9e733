/* tree.c: the processes a run left behind, found in /proc: the descendants of a process
 * (which, untangle being a child subreaper, include every orphan of its runners while it
 * lives), and, for the supervisor once untangle is gone, every process that carries the
 * run's marker in its environment, a setsid(2) daemon's included. */
#define _GNU_SOURCE /* syscall, getdents64's record */
#include "proc/process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc/internal.h"
#include "util/error.h"
#include "util/vec.h"
#include "util/banned.h"

#define ROUNDS 20 /* a process may fork between the listing and the kill: list again */

typedef struct {
	pid_t pid, ppid, pgid;
	char state;               /* 'Z' for a zombie */
	unsigned long long start; /* clock ticks after boot: with pid, names the process */
} plink;
typedef UT_VEC(plink) plinks;

/* A process's /proc/PID/stat: after "PID (comm) " (comm may hold spaces and parentheses,
 * the last ')' ends it) come its state, parent, group, ... start time (the 22nd). false
 * when it is gone. */
static bool read_stat(pid_t pid, plink *l)
{
	char file[64], text[1024];
	const char *paren;
	ssize_t n;
	int fd;

	snprintf(file, sizeof(file), "/proc/%ld/stat", (long)pid);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	paren = strrchr(text, ')');
	l->pid = pid;
	return paren && sscanf(paren + 1,
			       " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
			       "%*d %*d %llu",
			       &l->state, &l->ppid, &l->pgid, &l->start) == 4;
}

/* Every process's parent, group, state and start. */
static int list_links(plinks *out)
{
	struct dirent *de;
	DIR *proc = opendir("/proc");
	int rc = 0;

	out->n = 0;
	if (!proc)
		return ut_error_set(UT_EENV, "cannot list /proc: %s", strerror(errno));
	while (rc == 0 && (de = readdir(proc))) {
		plink l;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' || strlen(de->d_name) > 20)
			continue;
		if (read_stat((pid_t)strtol(de->d_name, NULL, 10), &l) &&
		    ut_vec_push(out, l) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	closedir(proc);
	return rc;
}

static bool zombie(pid_t pid)
{
	plink l;

	return !read_stat(pid, &l) || l.state == 'Z' || l.state == 'X';
}

/* Marks in `in` (one flag per link) the descendants of root, spare's subtree left out. */
static void mark(const plink *l, size_t n, pid_t root, pid_t spare, char *in)
{
	bool grew = true;
	size_t i, j;

	memset(in, 0, n);
	while (grew) {
		grew = false;
		for (i = 0; i < n; i++) {
			if (in[i] || l[i].pid == spare || l[i].pid == root)
				continue;
			if (l[i].ppid == root)
				in[i] = grew = true;
			for (j = 0; j < n && !in[i]; j++)
				if (in[j] && l[j].pid == l[i].ppid)
					in[i] = grew = true;
		}
	}
}

bool ut_proc__start_time(pid_t pid, unsigned long long *start)
{
	plink l;

	if (!read_stat(pid, &l))
		return false;
	*start = l.start;
	return true;
}

int ut_proc__find_strays(pid_t spare, const pid_t *groups, size_t n, ut_proc_strays *out)
{
	plinks links = {0};
	char *in = NULL;
	size_t i, j;
	int rc;

	out->n = 0;
	rc = list_links(&links);
	in = rc == 0 ? malloc(links.n + 1) : NULL;
	if (rc == 0 && !in)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc < 0)
		goto done;
	mark(links.v, links.n, getpid(), spare, in);
	for (i = 0; i < links.n && rc == 0; i++) {
		ut_proc_stray s = {links.v[i].pid, links.v[i].pgid, links.v[i].start};

		for (j = 0; j < n && in[i]; j++)
			if (groups[j] == s.pgid)
				in[i] = 0;
		if (!in[i] || links.v[i].state == 'Z' || links.v[i].state == 'X')
			continue;
		if (s.pgid == getpgrp())
			s.pgid = s.pid; /* never untangle's own group: the shell's pipeline is in it */
		if (ut_vec_push(out, s) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
done:
	free(in);
	ut_vec_free(&links);
	return rc;
}

bool ut_proc__still(const ut_proc_stray *s, pid_t *ppid)
{
	plink l;

	if (!read_stat(s->pid, &l) || l.start != s->start || l.state == 'Z' || l.state == 'X')
		return false;
	*ppid = l.ppid;
	return true;
}

int ut_proc__kill_tree(pid_t root, pid_t spare, int sig, bool group, size_t *killed,
		       ut_proc_strays *sent)
{
	plinks links = {0};
	char *in = NULL;
	size_t i, found = 1;
	int rc = 0, round;

	*killed = 0;
	for (round = 0; round < ROUNDS && found; round++) {
		rc = list_links(&links);
		if (rc < 0)
			break;
		free(in);
		in = malloc(links.n + 1);
		if (!in) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		mark(links.v, links.n, root, spare, in);
		if (group && round == 0)
			kill(-root, sig);
		found = 0;
		for (i = 0; i < links.n; i++) {
			if (!in[i] || zombie(links.v[i].pid))
				continue;
			found++;
			if (kill(links.v[i].pid, sig) != 0)
				continue;
			(*killed)++;
			if (sent && round == 0 &&
			    ut_vec_push(sent, ((ut_proc_stray){links.v[i].pid, links.v[i].pgid,
							       links.v[i].start})) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
		}
		if (sig != SIGKILL)
			break; /* the caller escalates */
		/* the ones adopted by this process are reaped here: nobody else waits for them */
		for (i = 0; i < links.n; i++)
			if (in[i] && links.v[i].ppid == getpid())
				waitpid(links.v[i].pid, NULL, 0);
		if (found)
			usleep(10000);
	}
	free(in);
	ut_vec_free(&links);
	return rc;
}

/* Streams /proc/PID/environ and says whether one of its entries is exactly marker. */
static bool carries(int fd, const char *marker, char *buf, size_t size)
{
	size_t len = strlen(marker), pos = 0;
	bool same = true;
	ssize_t n, i;

	while ((n = read(fd, buf, size)) > 0)
		for (i = 0; i < n; i++) {
			if (buf[i] == '\0') {
				if (same && pos == len)
					return true;
				pos = 0;
				same = true;
			} else if (same && pos < len && buf[i] == marker[pos])
				pos++;
			else
				same = false;
		}
	return false;
}

/* For the supervisor, a forked copy of a process that may have had threads: no allocation,
 * no stdio, getdents64 rather than readdir. */
void ut_proc__kill_marked(const char *marker)
{
	static char dents[32768], env[65536];
	char file[64];
	int round;

	for (round = 0; round < ROUNDS; round++) {
		int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), hits = 0;
		long n;

		if (dir < 0)
			return;
		while ((n = syscall(SYS_getdents64, dir, dents, sizeof(dents))) > 0) {
			long off = 0;

			while (off < n) {
				struct dirent64 *d = (struct dirent64 *)(dents + off);
				const char *name = d->d_name;
				size_t k = 0, j;
				long pid = 0;
				int fd;

				off += d->d_reclen;
				if (name[0] < '1' || name[0] > '9' || strlen(name) > 20)
					continue;
				for (j = 0; name[j] >= '0' && name[j] <= '9'; j++)
					pid = pid * 10 + (name[j] - '0');
				if (pid == (long)getpid())
					continue;
				memcpy(file, "/proc/", 6);
				k = 6;
				memcpy(file + k, name, strlen(name));
				k += strlen(name);
				memcpy(file + k, "/environ", sizeof("/environ"));
				fd = open(file, O_RDONLY | O_CLOEXEC);
				if (fd < 0)
					continue;
				/* a zombie's environ reads empty: the next round skips it */
				if (carries(fd, marker, env, sizeof(env)) &&
				    kill((pid_t)pid, SIGKILL) == 0)
					hits++;
				close(fd);
			}
		}
		close(dir);
		if (!hits)
			return;
		usleep(20000);
	}
}
