/* check_git.c: the libgit2 adapter against real repositories made by the git binary in a
 * temporary folder: open, HEAD, revisions, merge bases, work-tree diffs with hunks and
 * renames, old files and trees, notes, and shallow clones whose history is cut off; and
 * ut_check_run (the check's git orchestration) on a project in such a repository. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "parse/config_opts.h"
#include "graph/graph_json.h"
#include "store/store.h"
#include "parse/parse.h"
#include "proc/process.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "vcs/git.h"

Suite *git_suite(void);

static char tmp[64];
static ut_git *repo;
static int commit_time = 1700000000;

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/ut-check-git-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	/* libgit2 reads the user's config from HOME: none, so notes fall back to untangle. */
	ck_assert_int_eq(setenv("HOME", tmp, 1), 0);
	unsetenv("XDG_CONFIG_HOME");
	repo = NULL;
}

static void teardown(void)
{
	const char *argv[] = {"rm", "-rf", tmp, NULL};
	ut_proc_opts o = {argv, NULL, NULL, 60, 0, 0, false, NULL, false};
	ut_proc_result res;

	ut_git_close(repo);
	ut_proc_run(&res, &o);
	ut_proc_result_dispose(&res);
}

/* "TMP/rel" into a static buffer (one of four, so that calls can be nested). */
static const char *at(const char *rel)
{
	static char bufs[4][512];
	static int next;
	char *b = bufs[next++ % 4];

	snprintf(b, sizeof(bufs[0]), "%s/%s", tmp, rel);
	return b;
}

/* Runs git with the arguments (NULL-terminated) in TMP/dir; fails the test unless it
 * exits 0. Each commit gets a date one minute after the last. Returns git's output. */
static const char *git(const char *dir, ...)
{
	static char out[4096];
	const char *argv[16] = {"git"};
	char date[64], adate[64], home[600];
	const char *env[] = {"GIT_AUTHOR_NAME=Check", "GIT_AUTHOR_EMAIL=check@example.com",
			     "GIT_COMMITTER_NAME=Check", "GIT_COMMITTER_EMAIL=check@example.com",
			     "GIT_CONFIG_NOSYSTEM=1", date, adate, home, NULL};
	ut_proc_opts o = {argv, at(dir), env, 60, 0, 0, false, NULL, false};
	ut_proc_result res;
	size_t n = 1;
	va_list ap;

	commit_time += 60;
	snprintf(date, sizeof(date), "GIT_COMMITTER_DATE=%d +0000", commit_time);
	snprintf(adate, sizeof(adate), "GIT_AUTHOR_DATE=%d +0000", commit_time);
	snprintf(home, sizeof(home), "HOME=%s", tmp);
	va_start(ap, dir);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_msg(res.state == UT_PROC_EXITED && res.exit_code == 0, "git %s: %s", argv[1],
		      res.tail);
	snprintf(out, sizeof(out), "%s", res.tail);
	ut_proc_result_dispose(&res);
	return out;
}

static void put(const char *rel, const char *content)
{
	const char *path = at(rel);
	char dir[512];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	ck_assert_int_eq(ut_fs_mkdirs(dir), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	fclose(f);
}

/* Commits everything in TMP/dir and returns the new commit's id. */
static void commit_all(const char *dir, const char *msg, char id[UT_GIT_OID_HEX + 1])
{
	const char *out;

	git(dir, "add", "-A", NULL);
	git(dir, "commit", "-q", "-m", msg, NULL);
	out = git(dir, "rev-parse", "HEAD", NULL);
	ck_assert_uint_ge(strlen(out), UT_GIT_OID_HEX);
	memcpy(id, out, UT_GIT_OID_HEX);
	id[UT_GIT_OID_HEX] = '\0';
}

static void init_repo(const char *dir)
{
	ck_assert_int_eq(ut_fs_mkdirs(at(dir)), 0);
	git(dir, "init", "-q", "-b", "main", NULL);
}

/* A new repository TMP/dir with n commits, each rewriting a.txt; their ids into ids. */
static void linear_history(const char *dir, size_t n, char (*ids)[UT_GIT_OID_HEX + 1])
{
	char rel[64], text[32];
	size_t i;

	init_repo(dir);
	snprintf(rel, sizeof(rel), "%s/a.txt", dir);
	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text), "%zu\n", i + 1);
		put(rel, text);
		snprintf(text, sizeof(text), "commit %zu", i + 1);
		commit_all(dir, text, ids[i]);
	}
}

static void open_repo(const char *dir)
{
	ut_git_close(repo);
	repo = NULL;
	ck_assert_msg(ut_git_open(&repo, at(dir)) == 0, "%s", ut_error_message());
}

static void assert_message_has(const char *word)
{
	ck_assert_msg(strstr(ut_error_message(), word), "'%s' not in: %s", word,
		      ut_error_message());
}

/* Lines "line N\n" for N in 1..n. */
static const char *numbered(int n)
{
	static char buf[1024];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; i <= n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "line %d\n", i);
	return buf;
}

START_TEST(open_outside_a_repository_and_workdir)
{
	char expect[600];

	ck_assert_int_eq(ut_git_open(&repo, tmp), UT_ENOTFOUND);
	ck_assert_ptr_null(repo);
	assert_message_has("is not inside a git repository");
	init_repo("r");
	ck_assert_int_eq(ut_fs_mkdirs(at("r/sub/dir")), 0);
	open_repo("r/sub/dir"); /* found by searching upwards */
	snprintf(expect, sizeof(expect), "%s/", at("r"));
	ck_assert_str_eq(ut_git_workdir(repo), expect);
	ck_assert(!ut_git_is_shallow(repo));
}
END_TEST

START_TEST(head_on_a_branch_detached_and_unborn)
{
	char c1[41], c2[41], oid[41], branch[64];
	bool detached = true;

	init_repo("r");
	open_repo("r");
	ck_assert_int_eq(ut_git_head(repo, oid, &detached, branch, sizeof(branch)), UT_ENOTFOUND);
	put("r/a.txt", "a\n");
	commit_all("r", "first", c1);
	put("r/a.txt", "b\n");
	commit_all("r", "second\n\nbody", c2);
	ck_assert_int_eq(ut_git_head(repo, oid, &detached, branch, sizeof(branch)), 0);
	ck_assert_str_eq(oid, c2);
	ck_assert(!detached);
	ck_assert_str_eq(branch, "main");
	git("r", "checkout", "-q", "--detach", "HEAD~1", NULL);
	ck_assert_int_eq(ut_git_head(repo, oid, &detached, branch, sizeof(branch)), 0);
	ck_assert_str_eq(oid, c1);
	ck_assert(detached);
	ck_assert_str_eq(branch, "");
	ck_assert_int_eq(ut_git_head(repo, oid, &detached, NULL, 0), 0);
	ck_assert_int_eq(ut_git_commit_summary(repo, c2, branch, sizeof(branch)), 0);
	ck_assert_str_eq(branch, "second");
}
END_TEST

START_TEST(resolve_names_ids_and_unknown)
{
	char c[2][41], oid[41], abbrev[8], missing[41];
	const char *c1 = c[0], *c2 = c[1];

	linear_history("r", 2, c);
	git("r", "tag", "-a", "-m", "release", "v1", c1, NULL);
	git("r", "branch", "feature", c1, NULL);
	open_repo("r");
	ck_assert_int_eq(ut_git_resolve(repo, "main", oid), 0);
	ck_assert_str_eq(oid, c2);
	ck_assert_int_eq(ut_git_resolve(repo, "feature", oid), 0);
	ck_assert_str_eq(oid, c1);
	ck_assert_int_eq(ut_git_resolve(repo, "v1", oid), 0); /* annotated: peeled */
	ck_assert_str_eq(oid, c1);
	ck_assert_int_eq(ut_git_resolve(repo, "HEAD~1", oid), 0);
	ck_assert_str_eq(oid, c1);
	memcpy(abbrev, c2, 7);
	abbrev[7] = '\0';
	ck_assert_int_eq(ut_git_resolve(repo, abbrev, oid), 0);
	ck_assert_str_eq(oid, c2);
	ck_assert_int_eq(ut_git_resolve(repo, "nope", oid), UT_EINPUT);
	assert_message_has("unknown revision 'nope'");
	ck_assert_int_eq(ut_git_resolve(repo, "HEAD~5", oid), UT_EINPUT);
	/* A well-formed id that is not here is unknown, not a shallow clone's missing commit. */
	snprintf(missing, sizeof(missing), "%s", "0123456789abcdef0123456789abcdef01234567");
	ck_assert_int_eq(ut_git_resolve(repo, missing, oid), UT_EINPUT);
	assert_message_has("unknown revision");
}
END_TEST

START_TEST(merge_base_and_unrelated_history)
{
	char c1[41], c2[41], c3[41], c4[41], base[41];

	init_repo("r");
	put("r/a.txt", "a\n");
	commit_all("r", "first", c1);
	git("r", "checkout", "-q", "-b", "feature", NULL);
	put("r/b.txt", "b\n");
	commit_all("r", "on feature", c2);
	git("r", "checkout", "-q", "main", NULL);
	put("r/c.txt", "c\n");
	commit_all("r", "on main", c3);
	open_repo("r");
	ck_assert_int_eq(ut_git_merge_base(repo, "main", "feature", base), 0);
	ck_assert_str_eq(base, c1);
	ck_assert_int_eq(ut_git_merge_base(repo, c3, c2, base), 0);
	ck_assert_str_eq(base, c1);
	git("r", "checkout", "-q", "--orphan", "other", NULL);
	commit_all("r", "unrelated", c4);
	ck_assert_int_eq(ut_git_merge_base(repo, "main", "other", base), UT_ENOTFOUND);
	assert_message_has("share no history");
	ck_assert_int_eq(ut_git_merge_base(repo, "main", "nope", base), UT_EINPUT);
}
END_TEST

static const ut_git_change *change_at(const ut_git_change *c, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].new_path ? c[i].new_path : c[i].old_path, path))
			return &c[i];
	return NULL;
}

/* Ten numbered lines for a rename to recognise; other/x.py outside the prefix. */
static void diff_fixture(char base[UT_GIT_OID_HEX + 1])
{
	init_repo("r");
	put("r/.gitignore", "*.log\n");
	put("r/tests/a.py", numbered(10));
	put("r/tests/b.py", "gone\n");
	put("r/tests/c.py", "c 1\nc 2\nc 3\nc 4\nc 5\nc 6\nc 7\nc 8\nc 9\nc 10\n");
	put("r/other/x.py", "x\n");
	commit_all("r", "base", base);
	/* a.py: line 3 replaced, two lines inserted after line 7. */
	put("r/tests/a.py", "line 1\nline 2\nLINE 3\nline 4\nline 5\nline 6\nline 7\nnew a\n"
			    "new b\nline 8\nline 9\nline 10\n");
	ck_assert_int_eq(unlink(at("r/tests/b.py")), 0);
	ck_assert_int_eq(rename(at("r/tests/c.py"), at("r/tests/d.py")), 0);
	put("r/tests/d.py", "c 1\nc 2\nc 3\nc 4\nc 5\nc 6\nc 7\nc 8\nc 9\nc ten\n");
	put("r/tests/new.py", "one\ntwo\n");
	put("r/tests/debug.log", "ignored\n");
	put("r/other/x.py", "changed\n");
}

static void assert_hunk(const ut_git_hunk *h, int old_start, int old_lines, int new_start,
			int new_lines)
{
	ck_assert_msg(h->old_start == old_start && h->old_lines == old_lines &&
			      h->new_start == new_start && h->new_lines == new_lines,
		      "hunk -%d,%d +%d,%d, expected -%d,%d +%d,%d", h->old_start, h->old_lines,
		      h->new_start, h->new_lines, old_start, old_lines, new_start, new_lines);
}

/* The change at path, with that status, old path (NULL: none) and number of hunks. */
static const ut_git_change *assert_change(const ut_git_change *c, size_t n, const char *path,
					  ut_git_status status, const char *old_path,
					  size_t nhunks)
{
	const ut_git_change *x = change_at(c, n, path);

	ck_assert_msg(x, "no change at %s", path);
	ck_assert_int_eq(x->status, status);
	if (old_path)
		ck_assert_str_eq(x->old_path, old_path);
	else
		ck_assert_ptr_null(x->old_path);
	ck_assert(status == UT_GIT_DELETED ? !x->new_path : x->new_path != NULL);
	ck_assert(!x->binary);
	ck_assert_uint_eq(x->nhunks, nhunks);
	return x;
}

START_TEST(diff_workdir_statuses_hunks_and_renames)
{
	char base[41];
	const char *prefixes[] = {"tests"};
	const ut_git_change *a, *b, *d, *n;
	ut_git_change *c = NULL;
	size_t count = 0;

	diff_fixture(base);
	open_repo("r");
	ck_assert_msg(ut_git_diff_workdir(repo, base, prefixes, 1, &c, &count) == 0, "%s",
		      ut_error_message());
	ck_assert_uint_eq(count, 4);
	/* Sorted by path. */
	ck_assert_str_eq(c[0].new_path, "tests/a.py");
	ck_assert_str_eq(c[1].old_path, "tests/b.py");
	ck_assert_str_eq(c[2].new_path, "tests/d.py");
	ck_assert_str_eq(c[3].new_path, "tests/new.py");
	a = assert_change(c, count, "tests/a.py", UT_GIT_MODIFIED, "tests/a.py", 2);
	assert_hunk(&a->hunks[0], 3, 1, 3, 1);
	assert_hunk(&a->hunks[1], 7, 0, 8, 2);
	b = assert_change(c, count, "tests/b.py", UT_GIT_DELETED, "tests/b.py", 1);
	assert_hunk(&b->hunks[0], 1, 1, 0, 0);
	d = assert_change(c, count, "tests/d.py", UT_GIT_RENAMED, "tests/c.py", 1);
	assert_hunk(&d->hunks[0], 10, 1, 10, 1);
	n = assert_change(c, count, "tests/new.py", UT_GIT_ADDED, NULL, 1);
	assert_hunk(&n->hunks[0], 0, 0, 1, 2);
	ck_assert_ptr_null(change_at(c, count, "tests/debug.log"));
	ck_assert_ptr_null(change_at(c, count, "other/x.py"));
	ut_git_changes_free(c, count);

	/* No prefix: every file, the other folder's as well; a staged file counts too. */
	git("r", "add", "tests/new.py", NULL);
	ck_assert_int_eq(ut_git_diff_workdir(repo, "HEAD", NULL, 0, &c, &count), 0);
	ck_assert_uint_eq(count, 5);
	ck_assert_ptr_nonnull(change_at(c, count, "other/x.py"));
	ck_assert_int_eq(change_at(c, count, "tests/new.py")->status, UT_GIT_ADDED);
	ck_assert_ptr_null(change_at(c, count, "tests/debug.log"));
	ut_git_changes_free(c, count);

	/* A prefix names a folder, not the start of a name. */
	prefixes[0] = "test";
	ck_assert_int_eq(ut_git_diff_workdir(repo, base, prefixes, 1, &c, &count), 0);
	ck_assert_uint_eq(count, 0);
	ut_git_changes_free(c, count);
}
END_TEST

START_TEST(read_file_present_absent_and_folder)
{
	char c1[41], c2[41];
	char *data = NULL;
	size_t len = 0;

	init_repo("r");
	put("r/tests/a.py", "old\n");
	commit_all("r", "first", c1);
	put("r/tests/a.py", "new text\n");
	commit_all("r", "second", c2);
	open_repo("r");
	ck_assert_int_eq(ut_git_read_file(repo, c1, "tests/a.py", &data, &len), 0);
	ck_assert_str_eq(data, "old\n");
	ck_assert_uint_eq(len, 4);
	free(data);
	ck_assert_int_eq(ut_git_read_file(repo, c2, "tests/a.py", &data, &len), 0);
	ck_assert_str_eq(data, "new text\n");
	free(data);
	ck_assert_int_eq(ut_git_read_file(repo, c1, "tests/none.py", &data, &len), 1);
	ck_assert_ptr_null(data);
	ck_assert_int_eq(ut_git_read_file(repo, c1, "nodir/none.py", &data, &len), 1);
	ck_assert_int_eq(ut_git_read_file(repo, c1, "tests", &data, &len), UT_EINPUT);
	ck_assert_int_eq(ut_git_read_file(repo, "nope", "tests/a.py", &data, &len), UT_EINPUT);
}
END_TEST

static void assert_file(const char *rel, const char *content)
{
	ut_buf b = UT_BUF_INIT;

	ck_assert_msg(ut_fs_read(&b, at(rel), 1 << 20) == 0, "%s", ut_error_message());
	ck_assert_str_eq(b.ptr, content);
	ut_buf_dispose(&b);
}

START_TEST(extract_tree_keeps_the_layout_below_the_prefix)
{
	struct stat sb;
	char c1[41];

	init_repo("r");
	put("r/tests/a.py", "a\n");
	put("r/tests/sub/b.py", "b\n");
	put("r/other/x.py", "x\n");
	put("r/top.txt", "top\n");
	commit_all("r", "first", c1);
	put("r/tests/a.py", "changed in the work tree\n");
	open_repo("r");
	ck_assert_int_eq(ut_git_extract_tree(repo, c1, "tests", at("out/t")), 2);
	assert_file("out/t/a.py", "a\n");
	assert_file("out/t/sub/b.py", "b\n");
	/* the work tree's copy holds b's bytes: linked, not written; a.py's does not */
	ck_assert(stat(at("out/t/sub/b.py"), &sb) == 0 && sb.st_nlink == 2);
	ck_assert(stat(at("out/t/a.py"), &sb) == 0 && sb.st_nlink == 1);
	ck_assert(!ut_fs_exists(at("out/t/x.py")));
	ck_assert(!ut_fs_exists(at("out/t/tests")));
	ck_assert_int_eq(ut_git_extract_tree(repo, c1, "", at("out/all")), 4);
	assert_file("out/all/top.txt", "top\n");
	assert_file("out/all/other/x.py", "x\n");
	assert_file("out/all/tests/sub/b.py", "b\n");
	ck_assert_int_eq(ut_git_extract_tree(repo, c1, "missing", at("out/m")), 0);
	ck_assert_int_eq(ut_git_extract_tree(repo, c1, "top.txt", at("out/f")), UT_EINPUT);
}
END_TEST

START_TEST(notes_write_read_overwrite_and_find)
{
	const char *ref = "refs/notes/untangle";
	char c[3][41], found[41];
	const char *c1 = c[0], *c2 = c[1], *c3 = c[2];
	char *text = NULL;

	linear_history("r", 3, c);
	open_repo("r");
	ck_assert_int_eq(ut_git_note_read(repo, ref, c1, &text), 1); /* no notes ref yet */
	ck_assert_ptr_null(text);
	ck_assert_int_eq(ut_git_note_find(repo, ref, c3, 10, found, &text), 1);
	ck_assert_msg(ut_git_note_write(repo, ref, c1, "{\"version\": 1}\n") == 0, "%s",
		      ut_error_message());
	ck_assert_int_eq(ut_git_note_read(repo, ref, c1, &text), 0);
	ck_assert_str_eq(text, "{\"version\": 1}\n");
	free(text);
	ck_assert_int_eq(ut_git_note_write(repo, ref, c1, "second version"), 0);
	ck_assert_int_eq(ut_git_note_read(repo, ref, c1, &text), 0);
	ck_assert_str_eq(text, "second version");
	free(text);
	ck_assert_int_eq(ut_git_note_read(repo, ref, c2, &text), 1);
	ck_assert_int_eq(ut_git_note_read(repo, "refs/notes/other", c1, &text), 1);
	/* git sees it, and with no user in any config the notes commit is untangle's. */
	ck_assert_str_eq(git("r", "notes", "--ref", "untangle", "show", c1, NULL),
			 "second version");
	ck_assert_str_eq(git("r", "log", "-1", "--format=%an <%ae>", ref, NULL),
			 "untangle <untangle@localhost>\n");
	/* c1 is two commits back from c3: three commits to look at. */
	ck_assert_int_eq(ut_git_note_find(repo, ref, c3, 3, found, &text), 0);
	ck_assert_str_eq(found, c1);
	ck_assert_str_eq(text, "second version");
	free(text);
	ck_assert_int_eq(ut_git_note_find(repo, ref, c3, 2, found, &text), 1);
	ck_assert_ptr_null(text);
	ck_assert_int_eq(ut_git_note_find(repo, ref, c1, 1, found, &text), 0);
	ck_assert_str_eq(found, c1);
	free(text);
}
END_TEST

START_TEST(shallow_clone_asks_for_full_depth)
{
	char c[2][41], c3[41], c4[41], oid[41], url[600], line[64];
	const char *c1 = c[0];
	char *text = NULL;

	linear_history("src", 2, c);
	git("src", "branch", "feature", NULL);
	put("src/a.txt", "3\n");
	commit_all("src", "third", c3);
	git("src", "checkout", "-q", "feature", NULL);
	put("src/b.txt", "b\n");
	commit_all("src", "on feature", c4);
	git("src", "checkout", "-q", "main", NULL);
	snprintf(url, sizeof(url), "file://%s", at("src"));
	git("", "clone", "-q", "--depth", "1", "--no-single-branch", url, "shallow", NULL);
	open_repo("shallow");
	ck_assert(ut_git_is_shallow(repo));
	ck_assert_int_eq(ut_git_resolve(repo, "HEAD", oid), 0);
	ck_assert_str_eq(oid, c3);
	ck_assert_int_eq(ut_git_resolve(repo, "origin/feature", oid), 0);
	ck_assert_str_eq(oid, c4);

	ck_assert_int_eq(ut_git_resolve(repo, "HEAD~1", oid), UT_EENV);
	assert_message_has("shallow");
	assert_message_has("full depth");
	assert_message_has("git fetch --unshallow");
	ck_assert_int_eq(ut_git_resolve(repo, c1, oid), UT_EENV);
	assert_message_has("full depth");
	/* A branch git knows whose commit was cut off. */
	snprintf(line, sizeof(line), "%s\n", c1);
	put("shallow/.git/refs/heads/old", line);
	ck_assert_int_eq(ut_git_resolve(repo, "old", oid), UT_EENV);
	assert_message_has("'old'");
	assert_message_has("full depth");
	ck_assert_int_eq(ut_git_resolve(repo, "nope", oid), UT_EINPUT);

	ck_assert_int_eq(ut_git_merge_base(repo, "HEAD", "origin/feature", oid), UT_EENV);
	assert_message_has("shallow");
	assert_message_has("full depth");
	/* A walk for notes stops where the history is cut. */
	ck_assert_int_eq(ut_git_note_find(repo, "refs/notes/untangle", "HEAD", 10, oid, &text),
			 1);
}
END_TEST

/* ---- ut_check_run in a real repository, the project in a subfolder ---- */

static const char SUITE_PY[] =
	"from selenium.webdriver.common.by import By\n\n\n"
	"def test_add_user(driver):\n"
	"    driver.find_element(By.ID, \"email\").send_keys(\"jane@x.test\")\n\n\n"
	"def test_login_user(driver):\n"
	"    driver.find_element(By.ID, \"login\").send_keys(\"jane@x.test\")\n";

typedef struct {
	ut_config cfg;
	ut_diags diags;
	ut_suite *head;
	ut_candidates_opts co;
	ut_check_opts o;
	char dir[512];
	char events[16];
	size_t nevents;
} run_fixture;

static void on_check_event(void *ctx, const ut_check_event *ev)
{
	run_fixture *f = ctx;

	if (f->nevents < sizeof(f->events) - 1)
		f->events[f->nevents++] = (char)('0' + ev->kind);
}

/* The project e2e/ of repository TMP/r, its graph (login -> add_user) committed in
 * e2e/.untangle/graph.json; the work tree's suite parsed from there (the working
 * directory becomes the project). */
static void run_setup(run_fixture *f, const char *worktree_py)
{
	ut_graph *g = NULL;
	ut_parse_opts po;
	ut_arena a = UT_ARENA_INIT;
	ut_edge *e;
	char id[UT_GIT_OID_HEX + 1];

	memset(f, 0, sizeof(*f));
	init_repo("r");
	put("r/e2e/tests/test_s.py", SUITE_PY);
	put("r/README", "the app\n");
	ck_assert_int_eq(chdir(at("r/e2e")), 0);
	ut_config_init(&f->cfg);
	ut_diags_init(&f->diags);
	ck_assert_int_eq(ut_parse_opts_from_config(&po, &f->cfg, ".", &a), 0);
	ck_assert_int_eq(ut_parse_suite(&f->head, &po, &f->diags), 0);
	ck_assert_uint_eq(f->head->tests.n, 2);
	ck_assert_int_eq(ut_graph_new(&g, 2), 0);
	for (size_t i = 0; i < 2; i++) {
		const ut_test *t = &f->head->tests.v[i];

		ck_assert_int_eq(ut_graph_set_test(g, i, t->id, t->name, t->file, t->line,
						   t->end_line), 0);
		g->tests[i].duration_s = 1.5 + (double)i; /* carried into the head's graph */
	}
	ck_assert_int_eq(ut_graph_add(g, 1, 0, UT_ORIGIN_STRING, &e), 0);
	e->status = UT_EDGE_MANIFEST;
	ck_assert_int_eq(ut_fs_mkdirs(".untangle"), 0);
	ck_assert_int_eq(ut_store_graph_save(g, f->cfg.store.graph), 0);
	ut_graph_free(g);
	commit_all("r", "suite and graph", id);
	git("r", "checkout", "-q", "-b", "feature", NULL);
	if (worktree_py) {
		ut_suite_free(f->head);
		f->head = NULL;
		put("r/e2e/tests/test_s.py", worktree_py);
		ck_assert_int_eq(ut_parse_suite(&f->head, &po, &f->diags), 0);
	}
	ut_arena_dispose(&a);
	snprintf(f->dir, sizeof(f->dir), "%s/", at("r/e2e"));
	f->o.base_ref = "main";
	f->o.project_dir = f->dir;
	f->o.state_dir = ".untangle";
	f->o.cfg = &f->cfg;
	f->o.head = f->head;
	f->o.head_diags = &f->diags;
	f->o.candidates = &f->co;
	f->o.workers = 1;
}

static void run_teardown(run_fixture *f)
{
	ut_suite_free(f->head);
	ut_diags_dispose(&f->diags);
	ut_config_dispose(&f->cfg);
}

/* Nothing changed in the suite: the graph is found in the merge base's tree, nothing
 * runs (no runner is made: none is configured), and the head's graph is written. */
START_TEST(check_run_unchanged_writes_the_head_graph)
{
	run_fixture f;
	ut_check_result r;
	ut_graph *g = NULL;

	run_setup(&f, NULL);
	put("r/README", "the app, changed outside the suite\n");
	ck_assert_msg(ut_check_run(&r, &f.o, on_check_event, &f) == 0, "%s", ut_error_message());
	ck_assert_str_eq(f.events, "123"); /* base, changed, compared */
	ck_assert(r.have_graph);
	ck_assert_ptr_nonnull(strstr(r.graph_where, "e2e/.untangle/graph.json at "));
	ck_assert_str_eq(r.graph_commit, r.merge_base);
	ck_assert_uint_eq(r.files_changed, 0);
	ck_assert_uint_eq(ut_check_affected(&r.check), 0);
	ck_assert_int_eq(r.stats.schedules_run, 0);
	ck_assert_uint_eq(r.findings.v.n, 0);
	ck_assert_int_eq(ut_store_graph_load(&g, f.cfg.store.graph), 0);
	ck_assert_str_eq(g->commit, r.head);
	ck_assert_ptr_nonnull(ut_graph_find(g, 1, 0));
	ut_graph_free(g);
	ut_check_result_dispose(&r);
	run_teardown(&f);
}
END_TEST

/* A changed file of the suite: the base version is extracted and parsed from a folder
 * under .untangle/tmp that lives as long as the result; a test file that no longer
 * parses is the change's error, found by the diagnostic's kind. */
START_TEST(check_run_base_copy_and_broken_file)
{
	static const char more[] = "\n\ndef helper():\n    return 1\n";
	char py[1024], base_root[600];
	struct stat st;
	run_fixture f;
	ut_check_result r;

	snprintf(py, sizeof(py), "%s%s", SUITE_PY, more);
	run_setup(&f, py);
	ck_assert_msg(ut_check_run(&r, &f.o, on_check_event, &f) == 0, "%s", ut_error_message());
	ck_assert_uint_eq(r.files_changed, 1);
	ck_assert_uint_eq(r.check.count[UT_CHANGE_SAME], 2);
	ck_assert_ptr_nonnull(r.in_.base.suite);
	ck_assert_uint_eq(r.in_.base.suite->tests.n, 2);
	ck_assert_ptr_nonnull(strstr(r.in_.base.root, ".untangle/tmp/check-base-"));
	snprintf(base_root, sizeof(base_root), "%s/tests/test_s.py", r.in_.base.root);
	ck_assert_int_eq(stat(base_root, &st), 0);
	ut_check_result_dispose(&r);
	ck_assert_int_ne(stat(base_root, &st), 0); /* removed with the result */
	run_teardown(&f);

	snprintf(py, sizeof(py), "%s\n\ndef test_broken(:\n    x = (\n", SUITE_PY);
	teardown();
	setup();
	run_setup(&f, py);
	ck_assert_int_eq(ut_check_run(&r, &f.o, on_check_event, &f), UT_EINPUT);
	ck_assert_str_eq(f.events, "1"); /* the base only */
	ck_assert_uint_eq(r.broken.items.n, 1);
	ck_assert_str_eq(r.broken.items.v[0].file, "tests/test_s.py");
	ck_assert_int_eq(r.broken.items.v[0].kind, UT_DIAG_SYNTAX);
	ut_check_result_dispose(&r);
	run_teardown(&f);
}
END_TEST

/* check records the head's graph as detect records its own, through
 * ut_store_record_detection: the graph file, the durations in timings.json (here the
 * base graph's, carried over: nothing ran) and, asked as `detect --store notes` is, the
 * note on HEAD. The same bits as detect's (tests/check_project.c, and tests/check/run
 * compares the files the two commands leave). */
START_TEST(check_run_records_as_detect_does)
{
	run_fixture f;
	ut_check_result r;
	ut_buf b = UT_BUF_INIT;
	ut_graph *g = NULL;
	char *note = NULL;

	run_setup(&f, NULL);
	ck_assert(!ut_fs_exists(".untangle/timings.json"));
	ck_assert_msg(ut_check_run(&r, &f.o, NULL, NULL) == 0, "%s", ut_error_message());
	ck_assert_uint_eq(r.wrote, UT_STORE_WROTE_GRAPH | UT_STORE_WROTE_TIMINGS);
	ck_assert_int_eq(ut_fs_read(&b, ".untangle/timings.json", 1 << 16), 0);
	ck_assert_msg(strstr(b.ptr, "\"tests/test_s.py::test_add_user\": 1.5") &&
			      strstr(b.ptr, "\"tests/test_s.py::test_login_user\": 2.5"),
		      "%s", b.ptr);
	ut_buf_dispose(&b);
	ut_check_result_dispose(&r);

	f.o.note = true;
	ck_assert_msg(ut_check_run(&r, &f.o, NULL, NULL) == 0, "%s", ut_error_message());
	ck_assert_uint_eq(r.wrote,
			  UT_STORE_WROTE_GRAPH | UT_STORE_WROTE_TIMINGS | UT_STORE_WROTE_NOTE);
	open_repo("r");
	ck_assert_int_eq(ut_git_note_read(repo, f.cfg.store.notes_ref, r.head, &note), 0);
	ck_assert_int_eq(ut_graph_read_json(&g, note, strlen(note), "note"), 0);
	ck_assert_str_eq(g->commit, r.head);
	ck_assert_ptr_nonnull(ut_graph_find(g, 1, 0));
	ut_graph_free(g);
	free(note);
	ut_check_result_dispose(&r);
	run_teardown(&f);
}
END_TEST

/* An unknown base and a project outside the repository's work tree. */
START_TEST(check_run_bad_base_and_outside)
{
	run_fixture f;
	ut_check_result r;
	char *prefix = NULL;

	run_setup(&f, NULL);
	f.o.base_ref = "no-such-branch";
	ck_assert_int_eq(ut_check_run(&r, &f.o, NULL, NULL), UT_EINPUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "no-such-branch"));
	ck_assert(!r.have_graph);
	ut_check_result_dispose(&r);
	ck_assert_int_eq(ut_check_repo_prefix(&prefix, "/w/r/", "/w/r/"), 0);
	ck_assert_str_eq(prefix, "");
	free(prefix);
	ck_assert_int_eq(ut_check_repo_prefix(&prefix, "/w/r/", "/w/r/e2e/ui/"), 0);
	ck_assert_str_eq(prefix, "e2e/ui/");
	free(prefix);
	ck_assert_int_eq(ut_check_repo_prefix(&prefix, "/w/r/", "/w/rx/"), UT_EENV);
	ck_assert_ptr_null(prefix);
	ck_assert_int_eq(ut_check_repo_prefix(&prefix, "/w/r/", "/w/"), UT_EENV);
	run_teardown(&f);
}
END_TEST

Suite *git_suite(void)
{
	Suite *s = suite_create("git");
	TCase *tc = tcase_create("git");

	tcase_set_tags(tc, "git"); /* ctest runs it as unit-git (tests/CMakeLists.txt) */
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, open_outside_a_repository_and_workdir);
	tcase_add_test(tc, head_on_a_branch_detached_and_unborn);
	tcase_add_test(tc, resolve_names_ids_and_unknown);
	tcase_add_test(tc, merge_base_and_unrelated_history);
	tcase_add_test(tc, diff_workdir_statuses_hunks_and_renames);
	tcase_add_test(tc, read_file_present_absent_and_folder);
	tcase_add_test(tc, extract_tree_keeps_the_layout_below_the_prefix);
	tcase_add_test(tc, notes_write_read_overwrite_and_find);
	tcase_add_test(tc, shallow_clone_asks_for_full_depth);
	tcase_add_test(tc, check_run_unchanged_writes_the_head_graph);
	tcase_add_test(tc, check_run_base_copy_and_broken_file);
	tcase_add_test(tc, check_run_records_as_detect_does);
	tcase_add_test(tc, check_run_bad_base_and_outside);
	suite_add_tcase(s, tc);
	return s;
}
