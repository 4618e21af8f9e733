/* base.c: what check takes from git: the project's place in the work tree, the base
 * graph, and the base version of the suite. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */
#include "check/check.h"
#include "check/internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse/config_opts.h"
#include "graph/graph_json.h"
#include "parse/parse.h"
#include "store/store.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

int ut_check_repo_prefix(char **out, const char *workdir, const char *project_dir)
{
	size_t n = strlen(workdir);

	*out = NULL;
	if (strncmp(project_dir, workdir, n) != 0)
		return ut_error_set(UT_EENV, "cannot place the project folder inside the "
				    "repository at %s", workdir);
	*out = strdup(project_dir + n);
	return *out ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

char *ck_repo_path(const char *prefix, const char *path)
{
	size_t n = strlen(prefix);
	char *out;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (!strcmp(path, "."))
		path = "";
	out = malloc(n + strlen(path) + 1);
	if (!out)
		return NULL;
	memcpy(out, prefix, n);
	memcpy(out + n, path, strlen(path) + 1);
	n = strlen(out);
	while (n && out[n - 1] == '/')
		out[--n] = 0;
	return out;
}

/* The current error with words around it (the message is copied first: it is the buffer
 * that ut_error_set writes). */
static int wrap_error(int rc, const char *before, const char *after)
{
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s", ut_error_message());
	return ut_error_set(rc, "%s%s%s", before, msg, after);
}

static int read_graph(ut_check_result *r, const char *text, size_t len, bool note)
{
	int rc = ut_graph_read_json(&r->base_graph_, text, len, r->graph_where);
	char before[200];

	snprintf(before, sizeof(before), "%s is not a graph: ", r->graph_where);
	if (rc < 0 && note)
		return wrap_error(UT_EINPUT, before, "; run 'untangle detect --store notes' on "
				  "that commit again, or remove the note");
	if (rc < 0)
		return wrap_error(UT_EINPUT, "", "");
	r->have_graph = true;
	return 0;
}

int ck_find_graph(ut_check_result *r, ut_git *repo, const ut_config *cfg)
{
	char *text = NULL, *path = NULL;
	size_t len = 0;
	int rc;

	memcpy(r->graph_commit, r->merge_base, sizeof(r->graph_commit));
	rc = ut_git_note_find(repo, cfg->store.notes_ref, r->merge_base, UT_CHECK_NOTE_DEPTH,
			      r->graph_commit, &text);
	if (rc == 0) {
		snprintf(r->graph_where, sizeof(r->graph_where), "the note on %.12s (%s)",
			 r->graph_commit, cfg->store.notes_ref);
		rc = read_graph(r, text, strlen(text), true);
		goto done;
	}
	if (rc < 0)
		goto done;
	path = ck_repo_path(r->prefix_, cfg->store.graph);
	rc = path ? ut_git_read_file(repo, r->merge_base, path, &text, &len)
		  : ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0) {
		snprintf(r->graph_where, sizeof(r->graph_where), "%s at %.12s", path,
			 r->merge_base);
		rc = read_graph(r, text, len, false);
	} else if (rc > 0) {
		rc = 0; /* none: the whole suite is validated */
	}
done:
	free(text);
	free(path);
	return rc;
}

/* The pid in the name of a base folder ("check-base-PID-XXXXXX"), 0 for any other name. */
static long base_dir_pid(const char *name)
{
	return ut_fs_prefixed_pid(name, "check-base-");
}

int ut_check_remove_leftovers(const char *tmp_dir, size_t *removed)
{
	return ut_fs_remove_dead(tmp_dir, base_dir_pid, false, removed);
}

/* A new folder state_dir/tmp/check-base-PID-XXXXXX for the base's files (the pid: the
 * next untangle removes the folder of a check that was killed). */
static int make_tmp(char **out, const char *state_dir)
{
	char *dir = ut_path_join(state_dir, UT_STORE_TMP_NAME);
	int rc = dir ? ut_fs_state_dir(dir) : ut_error_set(UT_ENOMEM, "out of memory");
	char name[64];

	snprintf(name, sizeof(name), "check-base-%ld-XXXXXX", (long)getpid());
	*out = rc == 0 ? ut_path_join(dir, name) : NULL;
	if (rc == 0 && !*out)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && !mkdtemp(*out)) {
		rc = ut_error_set(UT_EENV, "cannot create a folder under %s: %s", dir,
				  strerror(errno));
		free(*out);
		*out = NULL;
	}
	free(dir);
	return rc;
}

int ck_parse_base(ut_check_result *r, ut_git *repo, const ut_check_opts *o)
{
	ut_parse_opts po;
	ut_diags diags;
	ut_arena arena = UT_ARENA_INIT;
	char *sub = ck_repo_path(r->prefix_, ".");
	long files;
	int rc = sub ? make_tmp(&r->base_root_, o->state_dir)
		     : ut_error_set(UT_ENOMEM, "out of memory");

	ut_diags_init(&diags);
	if (rc < 0)
		goto done;
	files = ut_git_extract_tree(repo, r->graph_commit, sub, r->base_root_);
	rc = files < 0 ? (int)files : ut_parse_opts_from_config(&po, o->cfg, r->base_root_, &arena);
	if (rc < 0)
		goto done;
	po.jobs = o->jobs;
	if (po.order_file && !ut_fs_exists(po.order_file))
		po.order_file = NULL; /* not in the base commit */
	rc = ut_parse_suite(&r->base_suite_, &po, &diags);
	if (rc == UT_ENOTFOUND || rc == UT_EINPUT)
		rc = ut_suite_new(&r->base_suite_); /* no suite at the base: every test is new */
	if (rc < 0)
		rc = wrap_error(rc, "the base version of the suite: ", "");
done:
	ut_diags_dispose(&diags); /* the base commit's warnings are not this change's */
	ut_arena_dispose(&arena);
	free(sub);
	return rc;
}
