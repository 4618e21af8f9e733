/* fs.h: reading files and listing source trees. */
#ifndef UT_FS_H
#define UT_FS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Reads the whole file into out (cleared first). UT_ENOTFOUND when it does not exist,
 * UT_EINPUT when it is larger than max or not a regular file, UT_ERROR otherwise. */
int ut_fs_read(ut_buf *out, const char *path, size_t max);

/* Opens path as open(2) does with flags | O_NOFOLLOW | O_CLOEXEC (mode for O_CREAT):
 * untangle never writes its files through a symbolic link. The descriptor (>= 0, the
 * caller's), or UT_EENV naming path (a link is refused, with a message that says so;
 * with O_EXCL, a file that is there already), UT_ENOTFOUND (none and no O_CREAT). */
int ut_fs_open_nofollow(const char *path, int flags, unsigned mode);

/* Writes data to path atomically: a new temporary file "PATH.tmp.PID" in the same folder
 * (O_EXCL, no link followed; a leftover of that name removed first), fsync, rename. The
 * rename replaces a link at path, never its target. */
int ut_fs_write_atomic(const char *path, const char *data, size_t len);

/* The pid in the name of a temporary file of ut_fs_write_atomic ("NAME.tmp.PID"), 0 for
 * any other name. */
long ut_fs_tmp_pid(const char *name);

/* The pid in a name "PREFIX" PID ("-" or ".") ..., as runs and checks name what they put
 * in .untangle/tmp; 0 for any other name. */
long ut_fs_prefixed_pid(const char *name, const char *prefix);

/* Removes the entries of dir for which pid_of(name) gives the pid (> 0) of a process that
 * no longer exists (the leftovers of a killed untangle), and this process's own when
 * `mine`: a file, or a folder with everything below it; other names are kept. *removed
 * (may be NULL) counts them. 0 (a missing dir too) or UT_EENV. */
int ut_fs_remove_dead(const char *dir, long (*pid_of)(const char *name), bool mine,
		      size_t *removed);

/* Removes path and, when it is a folder, everything below it (links are removed, never
 * followed). What cannot be removed stays. */
void ut_fs_remove_tree(const char *path);

/* Creates dir and its missing parents (mkdir -p); UT_EENV naming the folder that could
 * not be made. */
int ut_fs_mkdirs(const char *dir);

/* Creates dir for untangle's own files (ut_fs_mkdirs) and makes sure that it and each
 * folder of its path is a real folder, not a symbolic link: UT_EENV naming the link. An
 * absolute dir is checked in its last name only (the folders above are the caller's). */
int ut_fs_state_dir(const char *dir);

/* Whether a file can be created in the folder of `path` (tried: a file created and
 * removed there, so that a read-only mount or a root-owned folder is found too). 0, or
 * UT_EENV naming the folder and why. */
int ut_fs_check_writable(const char *path);

bool ut_fs_is_dir(const char *path);
bool ut_fs_exists(const char *path);
/* The modification time of path (seconds since the epoch, with its fraction) into *out:
 * true, or false when it cannot be read (no such file). */
bool ut_fs_mtime(const char *path, double *out);

typedef struct {
	char **paths; /* heap strings, sorted as the walk defines */
	size_t n, cap;
} ut_pathlist;

void ut_pathlist_dispose(ut_pathlist *l);
int ut_pathlist_add(ut_pathlist *l, const char *path);

/* Appends the regular files below `dir` (or `dir` itself when it is a file) for which
 * accept(name) is true. Hidden entries, node_modules, build and virtualenv folders are
 * skipped. Entries are visited in byte order of their names, the files of a folder before
 * its subfolders (pytest's collection order). Symbolic links to folders are not followed. */
int ut_fs_walk(ut_pathlist *out, const char *dir, bool (*accept)(const char *name));
/* The same walk into node_modules, build and virtualenv folders too (only hidden entries
 * are skipped): build outputs and the jars a project keeps. */
int ut_fs_walk_everything(ut_pathlist *out, const char *dir, bool (*accept)(const char *name));

/* The nearest folder, from the working directory up, that holds a file `name`; the search
 * stops after a folder that holds `stop` (a repository's root: ".git"), or at "/". On
 * success *sub (the caller's) is the working directory relative to that folder ("" when
 * it is the working directory itself, else "a/b/") and *up how many levels up it is.
 * Returns 0, UT_ENOTFOUND when no folder has it, UT_EENV when the working directory
 * cannot be read, UT_ENOMEM. */
int ut_fs_find_upward(const char *name, const char *stop, char **sub, unsigned *up);

/* Whether path is dir or inside it, by whole folder names ("a/b" is under "a", not under
 * "a/bc"); every relative path is under "." (none that starts with "../"). */
bool ut_path_under(const char *path, const char *dir);

/* Joins a and b with one '/'; heap string or NULL. */
char *ut_path_join(const char *a, const char *b);
/* path relative to base when path is inside base, else path itself (borrowed pointer into path). */
const char *ut_path_relative(const char *path, const char *base);
/* Pointer to the last component of path. */
const char *ut_path_basename(const char *path);

#endif
