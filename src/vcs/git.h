/* git.h: the version-control stage (libgit2): the repository around the suite, the base
 * commit of a check, the files a change touched, old versions of files, and the graph
 * kept in git notes. Nothing here runs the `git` binary.
 *
 * Commits are named by their full hexadecimal id (UT_GIT_OID_HEX characters and a NUL).
 * Paths are relative to the repository's work tree, with '/' separators. */
#ifndef UT_GIT_H
#define UT_GIT_H

#include <stdbool.h>
#include <stddef.h>

/* "libgit2 1.5.1" */
const char *ut_git_version(void);

#define UT_GIT_OID_HEX 40

typedef struct ut_git ut_git;

/* Opens the repository holding `dir` (searching upwards). UT_ENOTFOUND with "DIR is not
 * inside a git repository" when there is none; UT_EINPUT for a repository libgit2
 * cannot read; UT_EINPUT for a bare repository (a check needs a work tree). */
int ut_git_open(ut_git **out, const char *dir);
void ut_git_close(ut_git *g);

/* The work tree's absolute path, ending in '/'. Borrowed. */
const char *ut_git_workdir(const ut_git *g);

/* Whether the clone is shallow (.git/shallow exists). */
bool ut_git_is_shallow(ut_git *g);

/* HEAD's commit. *detached is set when HEAD points at a commit, not a branch; branch (may
 * be NULL) receives the short branch name ("main") or "" when detached. UT_ENOTFOUND
 * when HEAD has no commit yet (an empty repository). */
int ut_git_head(ut_git *g, char oid[UT_GIT_OID_HEX + 1], bool *detached, char *branch,
		size_t branch_size);

/* Resolves a revision (a branch, "origin/main", a tag, a full or abbreviated id, "HEAD~2")
 * to a commit. UT_EINPUT with "unknown revision 'REF'" when git does not know it; UT_EENV
 * saying to fetch with full depth when the name is known but its commit is missing from a
 * shallow clone. */
int ut_git_resolve(ut_git *g, const char *ref, char oid[UT_GIT_OID_HEX + 1]);

/* The merge base of two commits. UT_ENOTFOUND when they share no history; UT_EENV saying
 * to fetch with full depth when the clone is shallow and the history needed is cut off. */
int ut_git_merge_base(ut_git *g, const char *a, const char *b, char out[UT_GIT_OID_HEX + 1]);

/* The first line of a commit's message, into buf. */
int ut_git_commit_summary(ut_git *g, const char *commit, char *buf, size_t size);

typedef enum {
	UT_GIT_ADDED,
	UT_GIT_DELETED,
	UT_GIT_MODIFIED,
	UT_GIT_RENAMED /* possibly modified as well: see the hunks */
} ut_git_status;

/* A range of changed lines: old_start/old_lines in the commit's version, new_start/
 * new_lines in the work tree's (lines 1-based; a count of 0 means the hunk only adds or
 * only removes lines, and its start is the line before the change). */
typedef struct {
	int old_start, old_lines, new_start, new_lines;
} ut_git_hunk;

typedef struct {
	ut_git_status status;
	char *old_path; /* NULL when added */
	char *new_path; /* NULL when deleted */
	bool binary;
	ut_git_hunk *hunks;
	size_t nhunks;
} ut_git_change;

/* The files that differ between a commit's tree and the work tree (staged, unstaged and
 * untracked files alike; ignored files are not looked at), restricted to the given path
 * prefixes (folders or files; none: every file), with renames found (50% similarity) and
 * each file's hunks (no context lines). Sorted by path. Free with ut_git_changes_free. */
int ut_git_diff_workdir(ut_git *g, const char *commit, const char *const *prefixes,
			size_t nprefixes, ut_git_change **out, size_t *n);
void ut_git_changes_free(ut_git_change *c, size_t n);

/* A file's content in a commit: 0 with *data (NUL-terminated, malloc'd) and *len; 1 when
 * the commit has no such file; UT_EINPUT when the path is not a regular file. */
int ut_git_read_file(ut_git *g, const char *commit, const char *path, char **data,
		     size_t *len);

/* Writes every regular file of the commit's tree below `prefix` ("" for all; a folder,
 * without a trailing '/') into `dest`, keeping the layout below the prefix:
 * PREFIX/a/b.py becomes DEST/a/b.py. Creates folders as needed. A file whose work tree
 * copy holds the same bytes is a hard link to that copy (no blob inflated, no file
 * created: dest is for reading), when the file system allows it. Returns the number of
 * files written, or an error. */
long ut_git_extract_tree(ut_git *g, const char *commit, const char *prefix, const char *dest);

/* Git notes under `notes_ref` (e.g. "refs/notes/untangle").
 * read: 0 with *text (malloc'd), 1 when the commit has no note.
 * write: replaces the commit's note (a new notes commit by "untangle").
 * find: the nearest commit, starting at `commit` and walking its ancestors by date, at
 * most max_commits of them, that has a note: 0 with found and *text, 1 when none has. */
int ut_git_note_read(ut_git *g, const char *notes_ref, const char *commit, char **text);
int ut_git_note_write(ut_git *g, const char *notes_ref, const char *commit,
		      const char *text);
int ut_git_note_find(ut_git *g, const char *notes_ref, const char *commit, long max_commits,
		     char found[UT_GIT_OID_HEX + 1], char **text);

#endif
