/* collect.c: which collection a command uses (the runner's list or static reading), and
 * the list command run and joined with the sources (ut_collect_suite). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "collect/collect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/runner.h"
#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

#define LIST_TIMEOUT_S 300.0 /* a list command that runs longer hangs */

/* Why "auto" reads statically, or NULL when the runner is asked. */
static const char *static_reason(const ut_config *cfg, const char *mode)
{
	if (strcmp(mode, "static") == 0)
		return "--collect static, or suite.collect";
	if (strcmp(mode, "runner") == 0)
		return NULL;
	if (!cfg->path)
		return "no untangle.json, so no runner to ask; untangle init writes one";
	if ((!cfg->runner.preset || cfg->runner.preset_inferred) && cfg->runner.command.n == 0)
		return "untangle.json configures no runner to ask";
	if (!cfg->runner.preset && cfg->runner.list.n == 0)
		return "runner.command is the project's own and runner.list is not set";
	return NULL;
}

/* {roots}: the suite's own; else for Java the classes of its tests in order, for Python
 * suite.paths (what pytest is given to collect); "./" before one that starts with '-'. */
static const char **roots_of(const ut_suite *s, const ut_config *cfg, ut_arena *a, size_t *n)
{
	const char **out = ut_arena_alloc(a, (s->roots.n + s->tests.n + cfg->suite.paths.n + 1) *
						     sizeof(char *));
	const char *lang = ut_suite_main_framework(s);
	ut_map seen = UT_MAP_INIT;
	size_t i;

	*n = 0;
	for (i = 0; out && i < s->roots.n; i++)
		out[(*n)++] = s->roots.v[i];
	for (i = 0; out && *n == 0 && lang && (!strcmp(lang, "pytest") || !strcmp(lang, "unittest")) &&
		    i < cfg->suite.paths.n; i++) {
		const char *p = cfg->suite.paths.items[i];

		out[(*n)++] = p[0] == '-' ? ut_arena_printf(a, "./%s", p) : p;
		if (!out[*n - 1])
			out = NULL;
	}
	for (i = 0; out && s->roots.n == 0 && i < s->tests.n; i++) {
		const ut_test *t = &s->tests.v[i];
		const char *hash = strchr(t->id, '#');
		const char *cls;

		if (t->language != UT_LANG_JAVA || !hash ||
		    ut_map_get(&seen, t->id, (size_t)(hash - t->id)))
			continue;
		cls = ut_arena_strndup(a, t->id, (size_t)(hash - t->id));
		if (!cls || ut_map_put(&seen, cls, strlen(cls), (void *)1) < 0)
			out = NULL;
		else
			out[(*n)++] = cls;
	}
	ut_map_dispose(&seen);
	return out;
}

/* The list command run and its file read into l. */
static int list(ut_listing *l, const ut_suite *s, const ut_config *cfg, const char *work_dir,
		ut_diags *diags, ut_suite_origin *info)
{
	ut_proc_result proc = {0};
	ut_runner *r = NULL;
	ut_arena a = UT_ARENA_INIT;
	char *path = NULL, *root = NULL, *rootslash = NULL;
	const char **roots;
	size_t nroots = 0, n;
	double timeout = cfg->runner.timeout_s < LIST_TIMEOUT_S ? cfg->runner.timeout_s
								 : LIST_TIMEOUT_S;
	int rc;

	rc = ut_runner_new(&r, cfg, ".", work_dir);
	if (rc < 0)
		goto done;
	if (!ut_runner_can_list(r)) {
		rc = ut_error_set(UT_ENOTFOUND, "the runner has no list command (runner.list)");
		goto done;
	}
	roots = roots_of(s, cfg, &a, &nroots);
	root = realpath(".", NULL);
	n = root ? strlen(root) : 0;
	rootslash = root ? malloc(n + 2) : NULL;
	if (!roots || !rootslash) {
		rc = root ? ut_error_set(UT_ENOMEM, "out of memory")
			  : ut_error_set(UT_EENV, "cannot read the current folder: %s",
					 strerror(errno));
		goto done;
	}
	snprintf(rootslash, n + 2, "%s%s", root, n > 1 ? "/" : "");
	rc = ut_runner_list(r, roots, nroots, timeout, &path, &proc);
	snprintf(info->why, sizeof(info->why), "%s", ut_runner_list_program(r));
	if (rc == 0)
		rc = ut_listing_read(l, path, rootslash, diags);
done:
	if (path)
		unlink(path);
	free(path);
	free(root);
	free(rootslash);
	ut_proc_result_dispose(&proc);
	ut_runner_free(r);
	ut_arena_dispose(&a);
	return rc;
}

/* The sources alone: tests whose ids hold what only the run knows ("${...}") are named,
 * since no runner would accept those ids. */
static void name_run_time_titles(const ut_suite *s, ut_diags *diags)
{
	size_t i, n = 0;

	for (i = 0; i < s->tests.n; i++)
		n += strstr(s->tests.v[i].id, "${") != NULL;
	for (i = 0; n && i < s->tests.n; i++)
		if (strstr(s->tests.v[i].id, "${"))
			ut_diags_add(diags, UT_DIAG_WARNING, s->tests.v[i].file, s->tests.v[i].line,
				     "'%s': its title is known only when the tests run (%zu test%s "
				     "so): the runner will not accept this id; configure the runner "
				     "in untangle.json so that untangle asks it (docs/collection.md)",
				     s->tests.v[i].id, n, n == 1 ? "" : "s");
}

int ut_collect_suite(ut_suite *s, const ut_config *cfg, const char *mode, const char *work_dir,
		     const char *const *paths, size_t npaths, ut_diags *diags)
{
	ut_suite_origin *info = &s->origin;
	const char *reason;
	ut_listing l;
	int rc;

	memset(info, 0, sizeof(*info));
	if (!mode)
		mode = cfg->suite.collect ? cfg->suite.collect : "auto";
	reason = static_reason(cfg, mode);
	if (reason) {
		snprintf(info->why, sizeof(info->why), "%s", reason);
		name_run_time_titles(s, diags);
		return 0;
	}
	ut_listing_init(&l);
	rc = list(&l, s, cfg, work_dir, diags, info);
	if (rc == 0 && l.tests.n == 0 && s->tests.n > 0)
		rc = ut_error_set(UT_EENV, "the runner's list command (%s) lists no test, where the "
				  "sources have %zu: its configuration collects none from this folder "
				  "(testpaths, spec, the class path?)",
				  info->why, s->tests.n);
	if (rc == 0) {
		rc = ut_collect_join(s, &l, paths, npaths, diags);
		info->runner = rc == 0;
	}
	if (rc < 0 && rc != UT_ENOMEM && rc != UT_EINTR && strcmp(mode, "auto") == 0) {
		ut_diags_add(diags, UT_DIAG_WARNING, NULL, 0,
			     "the runner could not list its tests, so the sources alone decide "
			     "which tests run and in which order: %s",
			     ut_error_message());
		snprintf(info->why, sizeof(info->why),
			 "the runner's list command failed: see the warning");
		name_run_time_titles(s, diags);
		rc = 0;
	}
	ut_listing_dispose(&l);
	return rc;
}
