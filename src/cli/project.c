/* project.c: what most commands do first: -C, untangle.json, and the parsed suite. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "parse/config_opts.h"
#include "filter/candidates.h"
#include "parse/parse.h"
#include "shard/plan_file.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

static const char *strip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

int ut_cli_chdir_project(const ut_cli_common *common, char **sub)
{
	char up_path[3 * 64 + 1] = "";
	unsigned up = 0, i;
	char *here = NULL;
	int rc, exit_code = ut_cli_chdir(common);

	if (sub)
		*sub = NULL;
	if (exit_code)
		return exit_code;
	rc = ut_fs_find_upward("untangle.json", ".git", &here, &up);
	if (rc == UT_ENOTFOUND || (rc == 0 && up == 0) || up > 64) {
		free(here);
		here = NULL;
		up = 0;
		rc = 0;
	}
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	for (i = 0; i < up; i++)
		memcpy(up_path + 3 * i, "../", 4);
	if (up && chdir(up_path) < 0) {
		ut_errorf("cannot change to '%s': %s", up_path, strerror(errno));
		free(here);
		return UT_EXIT_INPUT;
	}
	if (up)
		ut_infof("untangle.json is in %s: ids and paths are relative to that folder",
			 up_path);
	if (sub)
		*sub = here ? here : strdup("");
	else
		free(here);
	return UT_EXIT_OK;
}

/* The first line of every command that reads the suite: which collection it used. */
static void print_collection(const ut_cli_project *p)
{
	const ut_suite_origin *c = &p->suite->origin, *st = c;
	char pending[96] = "";

	if (!c->runner) {
		ut_infof("%zu test%s read from the sources alone (%s)", p->suite->tests.n,
			 p->suite->tests.n == 1 ? "" : "s", c->why);
		return;
	}
	if (st->pending)
		snprintf(pending, sizeof(pending), ", %zu the runner skips (pending) left out",
			 st->pending);
	ut_infof("%zu tests as the runner lists them (%s): %zu joined with the sources by id, %zu "
		 "by place, %zu found in no source, %zu read but not collected%s",
		 p->suite->tests.n, c->why, st->by_id, st->by_place, st->runner_only,
		 st->static_only, pending);
}

int ut_cli_config_load(ut_cli_project *p, const ut_cli_common *common, char **sub)
{
	int rc, exit_code;

	memset(p, 0, sizeof(*p));
	ut_config_init(&p->cfg);
	ut_diags_init(&p->diags);
	exit_code = ut_cli_chdir_project(common, sub);
	if (exit_code)
		return exit_code;
	rc = ut_config_load(&p->cfg, "untangle.json", true);
	if (rc < 0) {
		if (sub) {
			free(*sub);
			*sub = NULL;
		}
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return UT_EXIT_OK;
}

int ut_cli_project_read(ut_cli_project *p, const ut_cli_common *common, ut_cli_rest *paths,
			char *sub)
{
	ut_parse_opts po;
	ut_arena arena = UT_ARENA_INIT;
	int rc;
	size_t i;

	p->jobs = (unsigned)common->jobs;
	for (i = 0; paths && i < paths->n; i++) {
		paths->items[i] = strip_dot(paths->items[i]);
		if (sub && *sub && paths->items[i][0] != '/')
			paths->items[i] = ut_arena_printf(&p->cfg.arena, "%s%s", sub,
							  paths->items[i]);
		if (!paths->items[i]) {
			free(sub);
			ut_errorf("out of memory");
			return UT_EXIT_ENV;
		}
	}
	free(sub);
	rc = ut_parse_opts_from_config(&po, &p->cfg, ".", &arena);
	po.jobs = p->jobs;
	if (paths && paths->n) {
		po.paths = paths->items;
		po.npaths = paths->n;
	}
	if (rc == 0 && common->collect && strcmp(common->collect, "auto") &&
	    strcmp(common->collect, "runner") && strcmp(common->collect, "static")) {
		ut_arena_dispose(&arena);
		ut_errorf("--collect: '%s' is not one of auto, runner, static", common->collect);
		return UT_EXIT_INPUT;
	}
	if (rc == 0)
		rc = ut_parse_suite(&p->suite, &po, &p->diags);
	if (rc == 0 && !p->cfg.runner.preset && p->cfg.runner.command.n == 0) {
		/* no runner configured: the one the tests' framework implies */
		p->cfg.runner.preset = ut_config_preset_for(ut_suite_main_framework(p->suite));
		p->cfg.runner.preset_inferred = p->cfg.runner.preset != NULL;
	}
	if (rc == 0)
		rc = ut_collect_suite(p->suite, &p->cfg, common->collect, UT_STORE_TMP,
				      po.npaths && paths && paths->n ? po.paths : NULL,
				      paths ? paths->n : 0, &p->diags);
	ut_arena_dispose(&arena);
	if (rc == 0)
		print_collection(p);
	ut_cli_print_diags(&p->diags);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return UT_EXIT_OK;
}

int ut_cli_project_load(ut_cli_project *p, const ut_cli_common *common, ut_cli_rest *paths)
{
	char *sub = NULL;
	int exit_code = ut_cli_config_load(p, common, &sub);

	return exit_code ? exit_code : ut_cli_project_read(p, common, paths, sub);
}

bool ut_cli_sources_hex(const ut_cli_project *p, char hex[17])
{
	const ut_diag *first = NULL;

	/* a source the parse did not read holds tests no list would run: run and shard must
	 * parse and say so (suite.skip_unreadable), so nothing stands for the suite */
	return p->suite && !ut_suite_unread(p->suite, &p->diags, &first) &&
	       ut_fingerprint_sources_hex(&p->cfg, hex);
}

char *ut_cli_project_dir(void)
{
	char *dir = realpath(".", NULL), *out = NULL;
	size_t n;

	if (!dir) {
		ut_error_set(UT_EENV, "cannot read the current folder: %s", strerror(errno));
		return NULL;
	}
	n = strlen(dir);
	out = malloc(n + 2);
	if (out)
		snprintf(out, n + 2, "%s%s", dir, n > 1 ? "/" : ""); /* "/" stays "/" */
	else
		ut_error_set(UT_ENOMEM, "out of memory");
	free(dir);
	return out;
}

char *ut_cli_path_from_start(const ut_cli_common *common, const char *path)
{
	const char *dir = common->dir && *path != '/' ? common->dir : NULL;
	char *cwd = *path == '/' || (dir && *dir == '/') ? NULL : realpath(".", NULL), *out;
	size_t n;

	if (*path != '/' && !(dir && *dir == '/') && !cwd) {
		ut_errorf("cannot read the current folder: %s", strerror(errno));
		return NULL;
	}
	n = (cwd ? strlen(cwd) + 1 : 0) + (dir ? strlen(dir) + 1 : 0) + strlen(path) + 1;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s%s%s%s%s", cwd ? cwd : "", cwd ? "/" : "", dir ? dir : "",
			 dir ? "/" : "", path);
	else
		ut_errorf("out of memory");
	free(cwd);
	return out;
}

void ut_cli_project_dispose(ut_cli_project *p)
{
	ut_suite_free(p->suite);
	p->suite = NULL;
	ut_diags_dispose(&p->diags);
	ut_config_dispose(&p->cfg);
}

int ut_cli_candidates_opts(const ut_cli_project *p, const char **extract, const char **filter,
			   ut_candidates_opts *co)
{
	const char *x = *extract ? *extract : p->cfg.detect.extract;

	memset(co, 0, sizeof(*co));
	if (strcmp(x, "string") && strcmp(x, "order") && strcmp(x, "string-analysis") &&
	    strcmp(x, "original-order")) {
		ut_errorf("--extract: '%s' is not one of string, order", x);
		return UT_EXIT_INPUT;
	}
	co->original_order = !strcmp(x, "order") || !strcmp(x, "original-order");
	*extract = co->original_order ? "original-order" : "string-analysis";
	if (!*filter)
		*filter = p->cfg.detect.filter;
	if (ut_filter_level_parse(*filter, &co->filter) < 0) {
		ut_errorf("--filter: %s", ut_error_message());
		return UT_EXIT_INPUT;
	}
	co->ignore = p->cfg.values.ignore.items;
	co->nignore = p->cfg.values.ignore.n;
	co->read_verbs = p->cfg.nlp.read_verbs.items;
	co->nread = p->cfg.nlp.read_verbs.n;
	co->write_verbs = p->cfg.nlp.write_verbs.items;
	co->nwrite = p->cfg.nlp.write_verbs.n;
	return UT_EXIT_OK;
}

void ut_cli_runner_note(const ut_config *cfg)
{
	if (cfg->runner.preset_inferred && cfg->path)
		ut_infof("'%s' names no runner: running the tests with the '%s' preset, which "
			 "their framework implies (set runner.preset or runner.command to choose)",
			 cfg->path, cfg->runner.preset);
	else if (cfg->runner.preset_inferred)
		ut_infof("no untangle.json: running the tests with the '%s' preset, which their "
			 "framework implies (`untangle init` writes a configuration)",
			 cfg->runner.preset);
}

int ut_cli_runner_new(ut_runner **out, const ut_config *cfg)
{
	int rc;

	*out = NULL;
	rc = ut_cli_guard(); /* creates .untangle */
	if (rc)
		return rc;
	ut_cli_runner_note(cfg);
	rc = ut_runner_new(out, cfg, ".", UT_STORE_TMP);
	if (rc < 0) {
		ut_errorf("%s", ut_error_message());
		return ut_cli_exit_code(rc);
	}
	return UT_EXIT_OK;
}
