/* fs.c: whole-file reads, atomic writes and deterministic source-tree walks. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "util/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/banned.h"

int ut_fs_read(ut_buf *out, const char *path, size_t max)
{
	int fd = -1, rc = 0;
	struct stat st;
	ssize_t n;

	ut_buf_clear(out);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = ut_error_set(errno == ENOENT ? UT_ENOTFOUND : UT_ERROR,
				  "unable to open '%s': %s", path, strerror(errno));
		goto done;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = ut_error_set(UT_EINPUT, "'%s' is not a regular file", path);
		goto done;
	}
	if ((size_t)st.st_size > max) {
		rc = ut_error_set(UT_EINPUT, "'%s' is larger than %zu bytes", path, max);
		goto done;
	}
	if (ut_buf_grow(out, (size_t)st.st_size) < 0) {
		rc = ut_error_set(UT_ENOMEM, "out of memory reading '%s'", path);
		goto done;
	}
	for (;;) {
		if (ut_buf_grow(out, 65536) < 0) {
			rc = ut_error_set(UT_EINPUT, "'%s' grew past %zu bytes", path, max);
			goto done;
		}
		n = read(fd, out->ptr + out->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = ut_error_set(UT_ERROR, "unable to read '%s': %s", path, strerror(errno));
			goto done;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
		if (out->len > max) {
			rc = ut_error_set(UT_EINPUT, "'%s' grew past %zu bytes", path, max);
			goto done;
		}
	}
	out->ptr[out->len] = '\0';
done:
	if (fd >= 0)
		close(fd);
	return rc;
}

int ut_fs_open_nofollow(const char *path, int flags, unsigned mode)
{
	int fd;

	do
		fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
	while (fd < 0 && errno == EINTR);
	if (fd >= 0)
		return fd;
	if (errno == ELOOP)
		return ut_error_set(UT_EENV,
				    "'%s' is a symbolic link: untangle does not write "
				    "its files through links; remove it",
				    path);
	if (errno == EEXIST && (flags & O_EXCL))
		return ut_error_set(UT_EENV,
				    "'%s' appeared while untangle was creating it (a "
				    "link or another process): not written",
				    path);
	return ut_error_set(errno == ENOENT && !(flags & O_CREAT) ? UT_ENOTFOUND : UT_EENV,
			    "unable to open '%s': %s", path, strerror(errno));
}

int ut_fs_write_atomic(const char *path, const char *data, size_t len)
{
	ut_buf tmp = UT_BUF_INIT;
	int fd = -1, rc = 0;
	size_t off = 0;

	if (ut_buf_printf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	/* the name is this process's: what is there is a leftover (or a planted link) */
	if (unlink(tmp.ptr) < 0 && errno != ENOENT) {
		rc = ut_error_set(UT_EENV, "unable to remove '%s': %s", tmp.ptr, strerror(errno));
		goto done;
	}
	fd = ut_fs_open_nofollow(tmp.ptr, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		rc = fd;
		fd = -1;
		goto done;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = ut_error_set(UT_ERROR, "unable to write '%s': %s", tmp.ptr, strerror(errno));
			goto done;
		}
		off += (size_t)n;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		rc = ut_error_set(UT_ERROR, "unable to write '%s': %s", tmp.ptr, strerror(errno));
		goto done;
	}
	fd = -1;
	if (rename(tmp.ptr, path) < 0)
		rc = ut_error_set(UT_ERROR, "unable to rename '%s' to '%s': %s", tmp.ptr, path,
				  strerror(errno));
done:
	if (fd >= 0)
		close(fd);
	if (rc < 0 && tmp.len)
		unlink(tmp.ptr);
	ut_buf_dispose(&tmp);
	return rc;
}

bool ut_fs_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool ut_fs_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

bool ut_fs_mtime(const char *path, double *out)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	*out = (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec / 1e9;
	return true;
}

void ut_pathlist_dispose(ut_pathlist *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = l->cap = 0;
}

int ut_pathlist_add(ut_pathlist *l, const char *path)
{
	char *copy;

	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		char **p = realloc(l->paths, cap * sizeof(*p));

		if (!p)
			return UT_ENOMEM;
		l->paths = p;
		l->cap = cap;
	}
	copy = strdup(path);
	if (!copy)
		return UT_ENOMEM;
	l->paths[l->n++] = copy;
	return 0;
}

char *ut_path_join(const char *a, const char *b)
{
	ut_buf out = UT_BUF_INIT;
	size_t alen = strlen(a);

	if (!alen || strcmp(a, ".") == 0 || b[0] == '/')
		ut_buf_puts(&out, b);
	else
		ut_buf_printf(&out, "%s%s%s", a, a[alen - 1] == '/' ? "" : "/", b);
	if (out.failed) {
		ut_buf_dispose(&out);
		return NULL;
	}
	return ut_buf_detach(&out, NULL);
}

const char *ut_path_relative(const char *path, const char *base)
{
	size_t n = strlen(base);

	while (n > 1 && base[n - 1] == '/')
		n--;
	if (n == 1 && base[0] == '.')
		return path[0] == '.' && path[1] == '/' ? path + 2 : path;
	if (strncmp(path, base, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

const char *ut_path_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool skip_dir(const char *name)
{
	static const char *const skipped[] = {"node_modules", "build", "target", "dist", "venv",
					      "__pycache__", "site-packages", NULL};
	size_t i;

	if (name[0] == '.')
		return true;
	for (i = 0; skipped[i]; i++)
		if (strcmp(name, skipped[i]) == 0)
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define UT_WALK_MAX_DEPTH 64

static int walk(ut_pathlist *out, const char *dir, bool (*accept)(const char *), int depth,
		bool everything)
{
	DIR *d = NULL;
	struct dirent *e;
	ut_pathlist names = {0}, subdirs = {0};
	size_t i;
	int rc = 0;

	if (depth > UT_WALK_MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d) {
		rc = ut_error_set(errno == ENOENT ? UT_ENOTFOUND : UT_ERROR,
				  "unable to open folder '%s': %s", dir, strerror(errno));
		goto done;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (ut_pathlist_add(&names, e->d_name) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	if (names.n)
		qsort(names.paths, names.n, sizeof(char *), cmp_str);
	for (i = 0; i < names.n; i++) {
		char *full = ut_path_join(dir, names.paths[i]);
		struct stat st;

		if (!full) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (everything || !skip_dir(names.paths[i]))
				rc = ut_pathlist_add(&subdirs, full);
		} else if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && accept(names.paths[i])) {
			rc = ut_pathlist_add(out, full);
		}
		free(full);
		if (rc < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < subdirs.n; i++) {
		rc = walk(out, subdirs.paths[i], accept, depth + 1, everything);
		if (rc < 0)
			goto done;
	}
done:
	if (d)
		closedir(d);
	ut_pathlist_dispose(&names);
	ut_pathlist_dispose(&subdirs);
	return rc;
}

int ut_fs_walk(ut_pathlist *out, const char *dir, bool (*accept)(const char *name))
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return ut_error_set(UT_ENOTFOUND, "'%s' does not exist", dir);
	if (S_ISREG(st.st_mode))
		return ut_pathlist_add(out, dir) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
	return walk(out, dir, accept, 0, false);
}

int ut_fs_walk_everything(ut_pathlist *out, const char *dir, bool (*accept)(const char *name))
{
	return walk(out, dir, accept, 0, true);
}

int ut_fs_check_writable(const char *path)
{
	ut_buf probe = UT_BUF_INIT;
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	int fd, rc = 0;

	if (slash && dirlen == 0)
		dirlen = 1; /* "/file" */
	if (ut_buf_printf(&probe, "%.*s/.untangle-probe.%ld", (int)(slash ? dirlen : 1),
			  slash ? path : ".", (long)getpid()) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	unlink(probe.ptr); /* this process's name: a leftover, or a planted link */
	fd = open(probe.ptr, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		rc = ut_error_set(UT_EENV, "'%.*s' is not writable: %s", (int)(slash ? dirlen : 1),
				  slash ? path : ".", strerror(errno));
	else
		close(fd), unlink(probe.ptr);
	ut_buf_dispose(&probe);
	return rc;
}

int ut_fs_mkdirs(const char *dir)
{
	ut_buf b = UT_BUF_INIT;
	size_t i;
	int rc = 0;

	if (ut_buf_puts(&b, dir) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 1; i <= b.len; i++) {
		char c = b.ptr[i];

		if (c != '/' && c != '\0')
			continue;
		b.ptr[i] = '\0';
		if (mkdir(b.ptr, 0777) < 0 && errno != EEXIST) {
			rc = ut_error_set(UT_EENV, "cannot create '%s': %s", b.ptr, strerror(errno));
			break;
		}
		b.ptr[i] = c;
	}
	ut_buf_dispose(&b);
	return rc;
}

int ut_fs_state_dir(const char *dir)
{
	ut_buf b = UT_BUF_INIT;
	struct stat st;
	size_t i;
	int rc = ut_fs_mkdirs(dir);

	if (rc < 0)
		return rc;
	if (ut_buf_puts(&b, dir) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	/* an absolute folder is the caller's choice up to its last name */
	for (i = dir[0] == '/' ? b.len : 1; rc == 0 && i <= b.len; i++) {
		char c = b.ptr[i];

		if (c != '/' && c != '\0')
			continue;
		b.ptr[i] = '\0';
		if (lstat(b.ptr, &st) < 0)
			rc = ut_error_set(UT_EENV, "cannot read '%s': %s", b.ptr, strerror(errno));
		else if (S_ISLNK(st.st_mode))
			rc =
			    ut_error_set(UT_EENV,
					 "'%s' is a symbolic link: untangle keeps its files "
					 "in a folder of the project, never through a link; remove "
					 "it",
					 b.ptr);
		else if (!S_ISDIR(st.st_mode))
			rc = ut_error_set(UT_EENV, "'%s' is not a folder", b.ptr);
		b.ptr[i] = c;
	}
	ut_buf_dispose(&b);
	return rc;
}

long ut_fs_tmp_pid(const char *name)
{
	const char *tmp = strstr(name, ".tmp."), *next;
	char *end = NULL;
	long pid;

	/* the last ".tmp.": "a.tmp.b.tmp.12" is b.tmp's temporary file */
	while (tmp && (next = strstr(tmp + 1, ".tmp.")) != NULL)
		tmp = next;
	if (!tmp || tmp == name || tmp[5] < '1' || tmp[5] > '9')
		return 0;
	errno = 0;
	pid = strtol(tmp + 5, &end, 10);
	return errno || *end || pid <= 0 ? 0 : pid;
}

long ut_fs_prefixed_pid(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end = NULL;
	long pid;

	if (strncmp(name, prefix, n) || name[n] < '1' || name[n] > '9')
		return 0;
	pid = strtol(name + n, &end, 10);
	return pid > 0 && (*end == '-' || *end == '.') ? pid : 0;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void ut_fs_remove_tree(const char *path)
{
	if (path && *path)
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int ut_fs_remove_dead(const char *dir, long (*pid_of)(const char *name), bool mine, size_t *removed)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (removed)
		*removed = 0;
	if (!d)
		return errno == ENOENT || errno == ENOTDIR
			   ? 0
			   : ut_error_set(UT_EENV, "unable to open folder '%s': %s", dir,
					  strerror(errno));
	while ((e = readdir(d)) != NULL) {
		long pid = pid_of(e->d_name);
		struct stat st;
		char *full;

		if (pid <= 0)
			continue;
		/* ESRCH only: EPERM is a live process of another user */
		if (pid == (long)getpid() ? !mine : kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		full = ut_path_join(dir, e->d_name);
		if (!full) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) { /* a killed run's folder */
			ut_fs_remove_tree(full);
			if (removed)
				(*removed)++;
		} else if (unlink(full) == 0 && removed)
			(*removed)++;
		else if (errno != ENOENT && errno != EISDIR && errno != EPERM)
			rc = ut_error_set(UT_EENV, "unable to remove '%s': %s", full,
					  strerror(errno));
		free(full);
		if (rc < 0)
			break;
	}
	closedir(d);
	return rc;
}

int ut_fs_find_upward(const char *name, const char *stop, char **sub, unsigned *up)
{
	char *cwd = getcwd(NULL, 0), *probe = NULL, *end;
	size_t len, size;
	int rc = UT_ENOTFOUND;

	*sub = NULL;
	*up = 0;
	if (!cwd)
		return ut_error_set(UT_EENV, "cannot read the current folder: %s", strerror(errno));
	len = strlen(cwd);
	size = len + strlen(name) + strlen(stop) + 3;
	probe = malloc(size);
	if (!probe) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (end = cwd + len;; (*up)++) {
		size_t n = (size_t)(end - cwd);

		snprintf(probe, size, "%.*s/%s", (int)n, cwd, name);
		if (access(probe, F_OK) == 0) {
			*sub = strdup(*end ? end + 1 : "");
			if (*sub && **sub) { /* "a/b" -> "a/b/" */
				size_t m = strlen(*sub) + 2;
				char *with = malloc(m);

				if (with)
					snprintf(with, m, "%s/", *sub);
				free(*sub);
				*sub = with;
			}
			rc = *sub ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		snprintf(probe, size, "%.*s/%s", (int)n, cwd, stop);
		if (n == 0 || access(probe, F_OK) == 0)
			break;
		while (end > cwd && *--end != '/')
			;
	}
	if (rc == UT_ENOTFOUND)
		ut_error_set(UT_ENOTFOUND, "no '%s' in this folder or above", name);
done:
	free(probe);
	free(cwd);
	return rc;
}

bool ut_path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (strcmp(dir, ".") == 0)
		return path[0] != '/' && strncmp(path, "../", 3) != 0;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}
