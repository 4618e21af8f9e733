/* git.c: the libgit2 adapter; the only file that includes libgit2's headers. */
#include "vcs/git.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

struct ut_git {
	git_repository *repo;
	const char *workdir; /* owned by repo */
};

#define UNSHALLOW_HINT                                                                     \
	"fetch with full depth ('git fetch --unshallow', or fetch-depth: 0 in "           \
	"actions/checkout)"

const char *ut_git_version(void)
{
	static char buf[48];
	int major = 0, minor = 0, rev = 0;

	git_libgit2_version(&major, &minor, &rev);
	snprintf(buf, sizeof(buf), "libgit2 %d.%d.%d", major, minor, rev);
	return buf;
}

/* libgit2's own message for the last failure, for the end of ours. */
static const char *git_message(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* Whether the last failure was an object missing from the object database (a shallow
 * clone's cut-off history), rather than an unknown name. */
static bool object_missing(int err)
{
	const git_error *e = git_error_last();

	return err == GIT_ENOTFOUND && e && e->klass == GIT_ERROR_ODB;
}

int ut_git_open(ut_git **out, const char *dir)
{
	ut_git *g = NULL;
	int err, rc = 0;

	*out = NULL;
	if (git_libgit2_init() < 0)
		return ut_error_set(UT_ERROR, "cannot initialise libgit2: %s", git_message());
	g = calloc(1, sizeof(*g));
	if (!g) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	err = git_repository_open_ext(&g->repo, dir, 0, NULL);
	if (err == GIT_ENOTFOUND) {
		rc = ut_error_set(UT_ENOTFOUND, "%s is not inside a git repository", dir);
		goto done;
	}
	if (err < 0) {
		rc = ut_error_set(UT_EINPUT, "cannot open the git repository at '%s': %s", dir,
				  git_message());
		goto done;
	}
	if (git_repository_is_bare(g->repo)) {
		rc = ut_error_set(UT_EINPUT, "the git repository at '%s' is bare: a work tree is "
				  "needed", dir);
		goto done;
	}
	g->workdir = git_repository_workdir(g->repo);
	*out = g;
	g = NULL;
done:
	if (g) {
		git_repository_free(g->repo);
		free(g);
	}
	if (rc < 0)
		git_libgit2_shutdown();
	return rc;
}

void ut_git_close(ut_git *g)
{
	if (!g)
		return;
	git_repository_free(g->repo);
	free(g);
	git_libgit2_shutdown();
}

const char *ut_git_workdir(const ut_git *g)
{
	return g->workdir;
}

bool ut_git_is_shallow(ut_git *g)
{
	return git_repository_is_shallow(g->repo) == 1;
}

static void oid_hex(char out[UT_GIT_OID_HEX + 1], const git_oid *id)
{
	git_oid_tostr(out, UT_GIT_OID_HEX + 1, id);
}

int ut_git_head(ut_git *g, char oid[UT_GIT_OID_HEX + 1], bool *detached, char *branch,
		size_t branch_size)
{
	git_reference *head = NULL;
	const git_oid *target;
	int err, rc = 0;

	err = git_repository_head(&head, g->repo);
	if (err == GIT_EUNBORNBRANCH || err == GIT_ENOTFOUND) {
		rc = ut_error_set(UT_ENOTFOUND, "HEAD has no commit yet in '%s'", g->workdir);
		goto done;
	}
	if (err < 0) {
		rc = ut_error_set(UT_EINPUT, "cannot read HEAD: %s", git_message());
		goto done;
	}
	target = git_reference_target(head);
	if (!target) {
		rc = ut_error_set(UT_EINPUT, "HEAD does not point at a commit");
		goto done;
	}
	oid_hex(oid, target);
	*detached = git_repository_head_detached(g->repo) == 1;
	if (branch && branch_size)
		snprintf(branch, branch_size, "%s", *detached ? "" : git_reference_shorthand(head));
done:
	git_reference_free(head);
	return rc;
}

static bool is_full_id(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return i == UT_GIT_OID_HEX;
}

/* A name git knows (a branch, a tag, "origin/main") whose commit is not in the clone. */
static bool ref_target_missing(ut_git *g, const char *name)
{
	git_reference *ref = NULL, *resolved = NULL;
	git_odb *odb = NULL;
	bool missing = false;

	if (git_reference_dwim(&ref, g->repo, name) < 0 ||
	    git_reference_resolve(&resolved, ref) < 0 || git_repository_odb(&odb, g->repo) < 0)
		goto done;
	missing = !git_odb_exists(odb, git_reference_target(resolved));
done:
	git_odb_free(odb);
	git_reference_free(resolved);
	git_reference_free(ref);
	return missing;
}

static int resolve_oid(ut_git *g, const char *ref, git_oid *out)
{
	git_object *obj = NULL, *commit = NULL;
	int err, rc = 0;

	/* Checked first: libgit2 1.5 leaks the reference when revparse meets a missing commit. */
	if (ut_git_is_shallow(g) && ref_target_missing(g, ref)) {
		rc = ut_error_set(UT_EENV, "the commit of '%s' is missing from this shallow clone: "
				  UNSHALLOW_HINT, ref);
		goto done;
	}
	err = git_revparse_single(&obj, g->repo, ref);
	if (err < 0) {
		if (ut_git_is_shallow(g) && (object_missing(err) || is_full_id(ref)))
			rc = ut_error_set(UT_EENV, "the commit of '%s' is missing from this shallow "
					  "clone: " UNSHALLOW_HINT, ref);
		else if (err == GIT_ENOTFOUND || err == GIT_EAMBIGUOUS || err == GIT_EINVALIDSPEC)
			rc = ut_error_set(UT_EINPUT, "unknown revision '%s'", ref);
		else
			rc = ut_error_set(UT_EINPUT, "cannot resolve '%s': %s", ref, git_message());
		goto done;
	}
	err = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	if (err < 0) {
		rc = ut_error_set(UT_EINPUT, "'%s' does not name a commit", ref);
		goto done;
	}
	git_oid_cpy(out, git_object_id(commit));
done:
	git_object_free(commit);
	git_object_free(obj);
	return rc;
}

int ut_git_resolve(ut_git *g, const char *ref, char oid[UT_GIT_OID_HEX + 1])
{
	git_oid id;
	int rc = resolve_oid(g, ref, &id);

	if (rc == 0)
		oid_hex(oid, &id);
	return rc;
}

static int lookup_commit(ut_git *g, const char *rev, git_commit **out)
{
	git_oid id;
	int rc = resolve_oid(g, rev, &id);

	if (rc == 0 && git_commit_lookup(out, g->repo, &id) < 0)
		rc = ut_error_set(UT_EINPUT, "cannot read commit '%s': %s", rev, git_message());
	return rc;
}

/* The tree of a commit named by any revision. */
static int lookup_tree(ut_git *g, const char *rev, git_tree **out)
{
	git_commit *c = NULL;
	int rc = lookup_commit(g, rev, &c);

	if (rc == 0 && git_commit_tree(out, c) < 0)
		rc = ut_error_set(UT_EINPUT, "cannot read the tree of '%s': %s", rev, git_message());
	git_commit_free(c);
	return rc;
}

int ut_git_merge_base(ut_git *g, const char *a, const char *b, char out[UT_GIT_OID_HEX + 1])
{
	git_oid ia, ib, base;
	int err, rc;

	rc = resolve_oid(g, a, &ia);
	if (rc == 0)
		rc = resolve_oid(g, b, &ib);
	if (rc < 0)
		return rc;
	err = git_merge_base(&base, g->repo, &ia, &ib);
	/* In a shallow clone a missing base is a cut-off history, not unrelated branches. */
	if (err < 0 && ut_git_is_shallow(g))
		return ut_error_set(UT_EENV, "the merge base of '%s' and '%s' is cut off in this "
				    "shallow clone: " UNSHALLOW_HINT, a, b);
	if (err == GIT_ENOTFOUND)
		return ut_error_set(UT_ENOTFOUND, "'%s' and '%s' share no history", a, b);
	if (err < 0)
		return ut_error_set(UT_EINPUT, "cannot find the merge base of '%s' and '%s': %s",
				    a, b, git_message());
	oid_hex(out, &base);
	return 0;
}

int ut_git_commit_summary(ut_git *g, const char *commit, char *buf, size_t size)
{
	git_commit *c = NULL;
	const char *summary;
	int rc = lookup_commit(g, commit, &c);

	if (rc < 0)
		return rc;
	summary = git_commit_summary(c);
	snprintf(buf, size, "%s", summary ? summary : "");
	git_commit_free(c);
	return 0;
}

static ut_git_status change_status(git_delta_t status)
{
	switch (status) {
	case GIT_DELTA_ADDED:
	case GIT_DELTA_UNTRACKED:
	case GIT_DELTA_COPIED:
		return UT_GIT_ADDED;
	case GIT_DELTA_DELETED:
		return UT_GIT_DELETED;
	case GIT_DELTA_RENAMED:
		return UT_GIT_RENAMED;
	default:
		return UT_GIT_MODIFIED;
	}
}

static const char *change_path(const ut_git_change *c)
{
	return c->new_path ? c->new_path : c->old_path;
}

static int change_cmp(const void *a, const void *b)
{
	return strcmp(change_path(a), change_path(b));
}

/* One delta of the diff with its hunks. */
static int fill_change(ut_git_change *c, git_diff *diff, size_t idx)
{
	git_patch *patch = NULL;
	const git_diff_delta *d;
	const git_diff_hunk *h;
	size_t i, lines;
	int rc = 0;

	if (git_patch_from_diff(&patch, diff, idx) < 0) {
		rc = ut_error_set(UT_ERROR, "cannot compute the diff: %s", git_message());
		goto done;
	}
	d = git_diff_get_delta(diff, idx);
	c->status = change_status(d->status);
	if (c->status != UT_GIT_ADDED)
		c->old_path = strdup(d->old_file.path);
	if (c->status != UT_GIT_DELETED)
		c->new_path = strdup(d->new_file.path);
	if ((c->status != UT_GIT_ADDED && !c->old_path) ||
	    (c->status != UT_GIT_DELETED && !c->new_path)) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	c->binary = (d->flags & GIT_DIFF_FLAG_BINARY) != 0;
	c->nhunks = patch ? git_patch_num_hunks(patch) : 0;
	if (!c->nhunks)
		goto done;
	c->hunks = calloc(c->nhunks, sizeof(*c->hunks));
	if (!c->hunks) {
		c->nhunks = 0;
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < c->nhunks; i++) {
		if (git_patch_get_hunk(&h, &lines, patch, i) < 0) {
			rc = ut_error_set(UT_ERROR, "cannot read a hunk of '%s': %s",
					  change_path(c), git_message());
			goto done;
		}
		c->hunks[i] = (ut_git_hunk){h->old_start, h->old_lines, h->new_start, h->new_lines};
	}
done:
	git_patch_free(patch);
	return rc;
}

int ut_git_diff_workdir(ut_git *g, const char *commit, const char *const *prefixes,
			size_t nprefixes, ut_git_change **out, size_t *n)
{
	git_diff_options opts;
	git_diff_find_options find;
	git_tree *tree = NULL;
	git_diff *diff = NULL;
	ut_git_change *changes = NULL;
	size_t i, count = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = lookup_tree(g, commit, &tree);
	if (rc < 0)
		goto done;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	git_diff_find_options_init(&find, GIT_DIFF_FIND_OPTIONS_VERSION);
	opts.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
		     GIT_DIFF_SHOW_UNTRACKED_CONTENT | GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	opts.pathspec.strings = (char **)prefixes;
	opts.pathspec.count = nprefixes;
	find.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_FOR_UNTRACKED;
	find.rename_threshold = 50;
	if (git_diff_tree_to_workdir_with_index(&diff, g->repo, tree, &opts) < 0 ||
	    git_diff_find_similar(diff, &find) < 0) {
		rc = ut_error_set(UT_ERROR, "cannot diff '%s' against the work tree: %s", commit,
				  git_message());
		goto done;
	}
	count = git_diff_num_deltas(diff);
	changes = count ? calloc(count, sizeof(*changes)) : NULL;
	if (count && !changes) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < count && rc == 0; i++)
		rc = fill_change(&changes[i], diff, i);
	if (rc < 0)
		goto done;
	if (count > 1)
		qsort(changes, count, sizeof(*changes), change_cmp);
	*out = changes;
	*n = count;
	changes = NULL;
done:
	ut_git_changes_free(changes, count);
	git_diff_free(diff);
	git_tree_free(tree);
	return rc;
}

void ut_git_changes_free(ut_git_change *c, size_t n)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < n; i++) {
		free(c[i].old_path);
		free(c[i].new_path);
		free(c[i].hunks);
	}
	free(c);
}

static bool regular_file(const git_tree_entry *e)
{
	git_filemode_t mode = git_tree_entry_filemode(e);

	return mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE;
}

/* The blob's bytes, NUL-terminated, into *data. */
static int read_blob(ut_git *g, const git_tree_entry *e, const char *path, char **data,
		     size_t *len)
{
	git_blob *blob = NULL;
	size_t size;
	int rc = 0;

	if (git_blob_lookup(&blob, g->repo, git_tree_entry_id(e)) < 0)
		return ut_error_set(UT_EINPUT, "cannot read '%s': %s", path, git_message());
	size = (size_t)git_blob_rawsize(blob);
	*data = malloc(size + 1);
	if (!*data) {
		rc = ut_error_set(UT_ENOMEM, "out of memory reading '%s'", path);
		goto done;
	}
	memcpy(*data, git_blob_rawcontent(blob), size);
	(*data)[size] = '\0';
	*len = size;
done:
	git_blob_free(blob);
	return rc;
}

int ut_git_read_file(ut_git *g, const char *commit, const char *path, char **data,
		     size_t *len)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	int err, rc;

	*data = NULL;
	*len = 0;
	rc = lookup_tree(g, commit, &tree);
	if (rc < 0)
		goto done;
	err = git_tree_entry_bypath(&e, tree, path);
	if (err == GIT_ENOTFOUND) {
		rc = 1;
		goto done;
	}
	if (err < 0 || !regular_file(e)) {
		rc = ut_error_set(UT_EINPUT, "'%s' is not a regular file in '%s'", path, commit);
		goto done;
	}
	rc = read_blob(g, e, path, data, len);
done:
	git_tree_entry_free(e);
	git_tree_free(tree);
	return rc;
}

typedef struct {
	ut_git *g;
	const char *dest;
	const char *prefix; /* the tree's path in the repository: "" or "a/b/" */
	long files;
	int rc;
} extract_state;

/* Whether the work tree's copy of the entry (root name below the prefix) holds the
 * entry's bytes and is now linked at path: no blob to inflate, no inode to create. */
static bool link_same(const extract_state *st, const char *root, const git_tree_entry *e,
		      const char *path)
{
	ut_buf from = UT_BUF_INIT;
	struct stat sb;
	git_oid id;
	bool linked;

	if (!st->g->workdir)
		return false;
	ut_buf_printf(&from, "%s%s%s%s", st->g->workdir, st->prefix, root,
		      git_tree_entry_name(e));
	linked = !from.failed && lstat(from.ptr, &sb) == 0 && S_ISREG(sb.st_mode) &&
		 git_odb_hashfile(&id, from.ptr, GIT_OBJECT_BLOB) == 0 &&
		 git_oid_equal(&id, git_tree_entry_id(e)) && link(from.ptr, path) == 0;
	ut_buf_dispose(&from);
	return linked;
}

static int write_file(const char *path, const char *data, size_t len, bool exec)
{
	int fd, rc = 0;
	size_t off = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, exec ? 0755 : 0644);
	if (fd < 0)
		return ut_error_set(UT_EENV, "cannot create '%s': %s", path, strerror(errno));
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			rc = ut_error_set(UT_EENV, "cannot write '%s': %s", path, strerror(errno));
			break;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0 && rc == 0)
		rc = ut_error_set(UT_EENV, "cannot write '%s': %s", path, strerror(errno));
	return rc;
}

static int extract_entry(const char *root, const git_tree_entry *e, void *payload)
{
	extract_state *st = payload;
	const char *name = git_tree_entry_name(e);
	ut_buf dir = UT_BUF_INIT, path = UT_BUF_INIT;
	char *data = NULL;
	size_t len = 0;

	/* A crafted tree could hold these; they must not lead outside dest. */
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 1;
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB || !regular_file(e))
		return 0;
	ut_buf_printf(&dir, "%s/%s", st->dest, root);
	ut_buf_printf(&path, "%s/%s%s", st->dest, root, name);
	if (dir.failed || path.failed)
		st->rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (st->rc == 0)
		st->rc = ut_fs_mkdirs(dir.ptr);
	if (st->rc == 0 && link_same(st, root, e, path.ptr)) {
		st->files++;
		goto done;
	}
	if (st->rc == 0)
		st->rc = read_blob(st->g, e, name, &data, &len);
	if (st->rc == 0)
		st->rc = write_file(path.ptr, data, len,
				    git_tree_entry_filemode(e) == GIT_FILEMODE_BLOB_EXECUTABLE);
	if (st->rc == 0)
		st->files++;
done:
	free(data);
	ut_buf_dispose(&dir);
	ut_buf_dispose(&path);
	return st->rc < 0 ? -1 : 0;
}

long ut_git_extract_tree(ut_git *g, const char *commit, const char *prefix, const char *dest)
{
	extract_state st = {g, dest, "", 0, 0};
	git_tree *root = NULL, *sub = NULL;
	git_tree_entry *e = NULL;
	ut_buf below = UT_BUF_INIT;
	int err, rc;

	rc = lookup_tree(g, commit, &root);
	if (rc < 0)
		goto done;
	if (prefix[0]) {
		err = git_tree_entry_bypath(&e, root, prefix);
		if (err == GIT_ENOTFOUND)
			goto done; /* nothing below it in that commit: no files */
		if (err < 0 || git_tree_entry_type(e) != GIT_OBJECT_TREE) {
			rc = ut_error_set(UT_EINPUT, "'%s' is not a folder in '%s'", prefix, commit);
			goto done;
		}
		if (git_tree_lookup(&sub, g->repo, git_tree_entry_id(e)) < 0) {
			rc = ut_error_set(UT_EINPUT, "cannot read '%s' in '%s': %s", prefix, commit,
					  git_message());
			goto done;
		}
	}
	if (prefix[0]) {
		ut_buf_printf(&below, "%s/", prefix);
		st.prefix = below.ptr;
		if (below.failed)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (rc == 0)
		rc = ut_fs_mkdirs(dest);
	if (rc == 0 && git_tree_walk(sub ? sub : root, GIT_TREEWALK_PRE, extract_entry, &st) < 0)
		rc = st.rc < 0 ? st.rc
			       : ut_error_set(UT_EINPUT, "cannot walk the tree of '%s': %s",
					      commit, git_message());
done:
	ut_buf_dispose(&below);
	git_tree_entry_free(e);
	git_tree_free(sub);
	git_tree_free(root);
	return rc < 0 ? rc : st.files;
}

/* 0 with *text, 1 when the commit has no note under notes_ref. */
static int note_read_oid(ut_git *g, const char *notes_ref, const git_oid *id, char **text)
{
	git_note *note = NULL;
	const char *msg;
	int err;

	*text = NULL;
	err = git_note_read(&note, g->repo, notes_ref, id);
	if (err == GIT_ENOTFOUND)
		return 1;
	if (err < 0)
		return ut_error_set(UT_EINPUT, "cannot read the notes in '%s': %s", notes_ref,
				    git_message());
	msg = git_note_message(note);
	*text = strdup(msg ? msg : "");
	git_note_free(note);
	return *text ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

int ut_git_note_read(ut_git *g, const char *notes_ref, const char *commit, char **text)
{
	git_oid id;
	int rc = resolve_oid(g, commit, &id);

	*text = NULL;
	return rc < 0 ? rc : note_read_oid(g, notes_ref, &id, text);
}

int ut_git_note_write(ut_git *g, const char *notes_ref, const char *commit,
		      const char *text)
{
	git_signature *sig = NULL;
	git_oid id, note_id;
	int rc = resolve_oid(g, commit, &id);

	if (rc < 0)
		return rc;
	/* CI machines often have no user.name: the note is then signed by untangle. */
	if (git_signature_default(&sig, g->repo) < 0 &&
	    git_signature_now(&sig, "untangle", "untangle@localhost") < 0)
		return ut_error_set(UT_ERROR, "cannot make a signature: %s", git_message());
	if (git_note_create(&note_id, g->repo, notes_ref, sig, sig, &id, text, 1) < 0)
		rc = ut_error_set(UT_EENV, "cannot write the note in '%s': %s", notes_ref,
				  git_message());
	git_signature_free(sig);
	return rc;
}

int ut_git_note_find(ut_git *g, const char *notes_ref, const char *commit, long max_commits,
		     char found[UT_GIT_OID_HEX + 1], char **text)
{
	git_revwalk *walk = NULL;
	git_oid id;
	long seen;
	int err, rc;

	*text = NULL;
	rc = resolve_oid(g, commit, &id);
	if (rc < 0)
		return rc;
	if (git_revwalk_new(&walk, g->repo) < 0 || git_revwalk_sorting(walk, GIT_SORT_TIME) < 0 ||
	    git_revwalk_push(walk, &id) < 0) {
		rc = ut_error_set(UT_EINPUT, "cannot walk the history of '%s': %s", commit,
				  git_message());
		goto done;
	}
	rc = 1;
	for (seen = 0; seen < max_commits && rc == 1; seen++) {
		err = git_revwalk_next(&id, walk);
		/* A shallow clone's walk ends where its history is cut. */
		if (err == GIT_ITEROVER || (object_missing(err) && ut_git_is_shallow(g)))
			break;
		if (err < 0) {
			rc = ut_error_set(UT_EINPUT, "cannot walk the history of '%s': %s", commit,
					  git_message());
			break;
		}
		rc = note_read_oid(g, notes_ref, &id, text);
		if (rc == 0)
			oid_hex(found, &id);
	}
done:
	git_revwalk_free(walk);
	return rc;
}
