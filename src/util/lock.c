/* lock.c: an exclusive flock on a file that also says who holds it and since when. */
#include "util/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

/* The holder, as written by ut_lock_take, in words. */
static int busy(int fd, const char *path)
{
	char text[512], when[64] = "an unknown time", *command = NULL, *end = NULL;
	long pid = 0;
	long long start = 0;
	struct tm tm;
	time_t t;
	ssize_t n;

	n = pread(fd, text, sizeof(text) - 1, 0);
	text[n > 0 ? n : 0] = '\0';
	text[strcspn(text, "\n")] = '\0';
	pid = strtol(text, &end, 10);
	if (end && *end == ' ') {
		start = strtoll(end + 1, &command, 10);
		if (command && *command == ' ')
			command++;
	}
	t = (time_t)start;
	if (start > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (pid <= 0)
		return ut_error_set(UT_EENV,
				    "'%s' is held by another untangle (it has not said "
				    "who yet): only one may work on a project at a time",
				    path);
	return ut_error_set(UT_EENV,
			    "'%s' is held by another untangle (pid %ld, `untangle %s`, "
			    "since %s): only one may work on a project at a time; wait for it "
			    "to end or stop it",
			    path, pid, command && *command ? command : "?", when);
}

int ut_lock_take(int *out, const char *path, const char *command)
{
	char line[256];
	int fd, n;

	*out = -1;
	fd = ut_fs_open_nofollow(path, O_RDWR | O_CREAT, 0666);
	if (fd < 0) {
		char why[1100];

		snprintf(why, sizeof(why), "%s", ut_error_message());
		return ut_error_set(UT_EENV, "cannot take the lock: %s", why);
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int rc;

		if (errno == EINTR)
			continue;
		rc = errno == EWOULDBLOCK
			 ? busy(fd, path)
			 : ut_error_set(UT_EENV, "cannot lock '%s': %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	n = snprintf(line, sizeof(line), "%ld %lld %s\n", (long)getpid(), (long long)time(NULL),
		     command ? command : "");
	if (n >= (int)sizeof(line))
		n = (int)sizeof(line) - 1;
	if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t)n, 0) != n) {
		int rc =
		    ut_error_set(UT_EENV, "cannot write the lock '%s': %s", path, strerror(errno));

		close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}
