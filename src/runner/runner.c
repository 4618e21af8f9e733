/* runner.c: one schedule through the project's own test command (reset, command, report,
 * outcomes per id) with the retries of the runner contract. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "runner/runner.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/internal.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define MESSAGE_TAIL 600 /* bytes of output quoted in an error message */

struct ut_runner {
	ut_arena arena;
	const char **command, **reset, **env; /* templates; env as NAME=VALUE */
	const char **list;                    /* the list command's template, or NULL */
	size_t ncommand, nreset, nenv, nlist;
	size_t nenv_own; /* the entries of env that runner.env gave (the rest are untangle's) */
	const char **pass; /* names runner.env passes through (null values) and the names or
			    * globs of runner.pass_env, NULL-terminated */
	const char *root, *work, *runners, *python;
	double timeout_s, preflight_s;
	bool dot_dash; /* the pytest preset: an id that starts with '-' goes as "./" + id */
	const char **java; /* ut_runner_watch_sources: the suite's Java sources */
	size_t njava;
};

/* Every run's reset, command and list get UNTANGLE_WORKER, the worker's index, as pytest-xdist
 * gives PYTEST_XDIST_WORKER: tests can pick their application instance without a line of
 * configuration. runner.env setting UNTANGLE_WORKER itself wins. r->env has room for it. */
static void add_worker_variable(ut_runner *r)
{
	static const char name[] = "UNTANGLE_WORKER=";

	r->nenv_own = r->nenv;
	for (size_t i = 0; i < r->nenv; i++) {
		if (strncmp(r->env[i], name, sizeof(name) - 1) == 0)
			return;
	}
	r->env[r->nenv++] = "UNTANGLE_WORKER={worker}";
}

static const char **copy_list(ut_arena *a, const char *const *items, size_t n)
{
	const char **out = ut_arena_alloc(a, (n + 1) * sizeof(char *));
	size_t i;

	for (i = 0; out && i < n; i++) {
		out[i] = ut_arena_strdup(a, items[i]);
		if (!out[i])
			return NULL;
	}
	return out;
}

/* An absolute, resolved copy of an existing folder. */
static const char *absolute(ut_arena *a, const char *dir, const char *what)
{
	char *real = realpath(dir, NULL);
	const char *copy;

	if (!real) {
		ut_error_set(UT_EENV, "%s '%s': %s", what, dir, strerror(errno));
		return NULL;
	}
	copy = ut_arena_strdup(a, real);
	free(real);
	if (!copy)
		ut_error_set(UT_ENOMEM, "out of memory");
	return copy;
}

/* A preset's helper (the element with {runners}) must exist. */
static int check_helpers(ut_runner *r, const char *preset)
{
	ut_template_vars v = {NULL, 0, "", 0, r->runners, NULL, r->python, NULL, 0};
	const char **argv = ut_template_expand(&r->arena, r->command, r->ncommand, &v);
	size_t i;

	if (!argv)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < r->ncommand; i++)
		if (strstr(r->command[i], "{runners}") && access(argv[i], R_OK) < 0)
			return ut_error_set(UT_EENV,
					    "runner.preset '%s' needs '%s', which is missing (set "
					    "UNTANGLE_RUNNERS to untangle's ci/runners folder)",
					    preset, argv[i]);
	return 0;
}

/* runner.list, else the preset's list command, else none. */
static int load_list(ut_runner *r, const ut_config *cfg)
{
	const char *const *list = cfg->runner.list.items;
	size_t n = cfg->runner.list.n, i, reports = 0;
	int rc;

	if (n == 0) {
		list = ut_runner__list_preset(cfg->runner.preset);
		while (list && list[n])
			n++;
	}
	if (n == 0)
		return 0;
	rc = ut_template_check(list, n, "runner.list", UT_TESTS_FORBIDDEN, &reports);
	for (i = 0; rc == 0 && i < n; i++)
		if (strstr(list[i], "{list}"))
			break;
	if (rc == 0 && i == n)
		rc = ut_error_set(UT_EINPUT, "'runner.list' has no {list}: the command must be told "
				  "where to write its list of tests");
	if (rc < 0)
		return rc;
	r->list = copy_list(&r->arena, list, n);
	r->nlist = n;
	return r->list ? 0 : ut_error_set(UT_ENOMEM, "out of memory");
}

/* The name of a preset's Java helper in element e ("{runners}/NAME.java"), or NULL. */
static const char *java_helper(ut_arena *a, const char *e)
{
	static const char pre[] = "{runners}/", suf[] = ".java";
	size_t n = strlen(e), np = sizeof(pre) - 1, ns = sizeof(suf) - 1;

	if (n <= np + ns || strncmp(e, pre, np) || strcmp(e + n - ns, suf) ||
	    memchr(e + np, '/', n - np - ns))
		return NULL;
	return ut_arena_strndup(a, e + np, n - np - ns);
}

/* Replaces "{runners}/NAME.java" by "NAME" in a command. */
static void to_class(const char **argv, size_t n, const char *element, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(argv[i], element) == 0)
			argv[i] = name;
	}
}

/* A Java preset's helper compiled once (compiled.c): the command and the list command run
 * its class, with the classes' folder first on the CLASSPATH the runs get. Left as it is
 * when it cannot be compiled. */
static int use_compiled_helper(ut_runner *r)
{
	const char *element = NULL, *name = NULL, *src, *dir, *cp = NULL, **env;
	ut_template_vars v = {0};
	size_t i, k = r->nenv;

	for (i = 0; !name && i < r->ncommand; i++) {
		element = r->command[i];
		name = java_helper(&r->arena, element);
	}
	if (!name)
		return 0;
	v.runners = r->runners;
	v.python = r->python;
	src = ut_arena_printf(&r->arena, "%s/%s.java", r->runners, name);
	env = ut_template_expand(&r->arena, r->env, r->nenv, &v);
	if (!src || !env)
		return ut_error_set(UT_ENOMEM, "out of memory");
	dir = ut_runner__java_classes(&r->arena, src, name, r->root, r->work, env, r->pass);
	if (!dir)
		return 0;
	for (i = 0; i < r->nenv; i++) {
		if (strncmp(r->env[i], "CLASSPATH=", 10) == 0)
			k = i;
	}
	if (k < r->nenv)
		cp = r->env[k] + 10;
	else if (ut_env_allowed("CLASSPATH"))
		cp = getenv("CLASSPATH");
	env = ut_arena_alloc(&r->arena, (r->nenv + 2) * sizeof(*env));
	if (!env)
		return ut_error_set(UT_ENOMEM, "out of memory");
	memcpy(env, r->env, r->nenv * sizeof(*env));
	env[k] = cp && *cp ? ut_arena_printf(&r->arena, "CLASSPATH=%s:%s", dir, cp)
			   : ut_arena_printf(&r->arena, "CLASSPATH=%s", dir);
	if (!env[k])
		return ut_error_set(UT_ENOMEM, "out of memory");
	r->nenv += k == r->nenv;
	env[r->nenv] = NULL;
	r->env = env;
	to_class(r->command, r->ncommand, element, name);
	if (r->list)
		to_class(r->list, r->nlist, element, name);
	return 0;
}

static int load(ut_runner *r, const ut_config *cfg, const char *root_dir, const char *work_dir)
{
	const char *const *cmd = cfg->runner.command.items;
	size_t ncmd = cfg->runner.command.n, reports = 0, npass, i;
	const char *preset = cfg->runner.preset;
	int rc;

	if (ncmd == 0) {
		cmd = ut_runner_preset(preset);
		if (!cmd)
			return ut_error_set(UT_EINPUT, "'runner.command' is empty and "
					    "'runner.preset' is not set: untangle cannot run the tests");
		while (cmd[ncmd])
			ncmd++;
	}
	rc = ut_template_check(cmd, ncmd, "runner.command", UT_TESTS_REQUIRED, &reports);
	if (rc == 0)
		rc = ut_template_check(cfg->runner.reset.items, cfg->runner.reset.n, "runner.reset",
				       UT_TESTS_ALLOWED, &reports);
	r->env = ut_arena_alloc(&r->arena, (cfg->runner.nenv + 2) * sizeof(char *));
	r->pass = ut_arena_alloc(&r->arena,
				 (cfg->runner.nenv + cfg->runner.pass_env.n + 1) * sizeof(char *));
	if (!r->env || !r->pass)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (npass = 0; npass < cfg->runner.pass_env.n; npass++)
		r->pass[npass] = cfg->runner.pass_env.items[npass];
	for (i = 0; rc == 0 && i < cfg->runner.nenv; i++) {
		const ut_envvar *e = &cfg->runner.env[i];

		if (!e->value) { /* null: untangle's own value, a secret included */
			r->pass[npass++] = e->name;
			continue;
		}
		r->env[r->nenv] = ut_arena_printf(&r->arena, "%s=%s", e->name, e->value);
		if (!r->env[r->nenv])
			return ut_error_set(UT_ENOMEM, "out of memory");
		rc = ut_template_check(&r->env[r->nenv++], 1, "runner.env", UT_TESTS_FORBIDDEN,
				       &reports);
	}
	if (rc < 0)
		return rc;
	add_worker_variable(r);
	if (reports == 0)
		return ut_error_set(UT_EINPUT, "neither 'runner.command' nor 'runner.env' has "
				    "{report}: the command must be told where to write its JUnit "
				    "XML report");
	rc = load_list(r, cfg);
	if (rc < 0)
		return rc;
	r->ncommand = ncmd;
	r->nreset = cfg->runner.reset.n;
	r->command = copy_list(&r->arena, cmd, ncmd);
	r->reset = copy_list(&r->arena, cfg->runner.reset.items, r->nreset);
	r->runners = ut_arena_strdup(&r->arena, ut_runner_helpers_dir());
	r->python = ut_arena_strdup(&r->arena, cfg->runner.python ? cfg->runner.python : "python3");
	if (!r->command || !r->reset || !r->runners || !r->python)
		return ut_error_set(UT_ENOMEM, "out of memory");
	/* pytest reads an argument that starts with "-p" as a plugin even after "--" */
	r->dot_dash = cfg->runner.command.n == 0 && preset && strcmp(preset, "pytest") == 0;
	r->timeout_s = cfg->runner.timeout_s;
	r->preflight_s = cfg->runner.preflight_s;
	r->root = absolute(&r->arena, root_dir, "project folder");
	if (!r->root)
		return ut_error_code();
	rc = ut_fs_state_dir(work_dir);
	if (rc < 0)
		return rc;
	r->work = absolute(&r->arena, work_dir, "work folder");
	if (!r->work)
		return ut_error_code();
	if (cfg->runner.command.n)
		return 0;
	rc = check_helpers(r, preset);
	return rc == 0 ? use_compiled_helper(r) : rc;
}

int ut_runner_new(ut_runner **out, const ut_config *cfg, const char *root_dir,
		  const char *work_dir)
{
	ut_runner *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ut_arena_init(&r->arena);
	rc = load(r, cfg, root_dir, work_dir);
	if (rc < 0) {
		ut_runner_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

/* The pid in the name of a file runs put in the work folder ("report-PID-wN.xml",
 * "list-PID.jsonl", "list-report-PID.xml", a Java helper being compiled
 * "java-NAME-HASH.tmp.PID"), 0 for any other name (the compiled helpers stay). */
static long work_file_pid(const char *name)
{
	static const char *const prefixes[] = {"report-", "list-report-", "list-", NULL};
	long pid = 0;

	for (size_t i = 0; prefixes[i] && !pid; i++)
		pid = ut_fs_prefixed_pid(name, prefixes[i]);
	return pid ? pid : ut_fs_tmp_pid(name);
}

int ut_runner_remove_leftovers(const char *work_dir, size_t *removed)
{
	return ut_fs_remove_dead(work_dir, work_file_pid, false, removed);
}

static bool names_worker(const char *const *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strstr(items[i], "{worker}"))
			return true;
	}
	return false;
}

/* Sources and settings a test reads its application's address from. */
static bool worker_file(const char *name)
{
	static const char *const ext[] = {".py", ".js", ".mjs", ".cjs", ".ts", ".tsx",
					  ".java", ".kt", ".groovy", ".properties", ".ini",
					  ".cfg", ".toml", ".json", ".yml", ".yaml", ".xml",
					  ".conf", ".env", ".sh", NULL};
	const char *dot = strrchr(name, '.');

	for (size_t i = 0; dot && ext[i]; i++) {
		if (strcmp(dot, ext[i]) == 0)
			return true;
	}
	return false;
}

/* Whether a source or settings file below root (as ut_fs_walk lists them: no hidden,
 * node_modules or build folders; at most WORKER_SCAN_FILES of them) names
 * UNTANGLE_WORKER: its tests then pick their application without a line of
 * configuration. */
#define WORKER_SCAN_FILES 20000
static bool project_reads_worker(const char *root)
{
	ut_pathlist files = {0};
	ut_buf text = UT_BUF_INIT;
	bool found = false;

	if (ut_fs_walk(&files, root, worker_file) < 0)
		ut_error_clear();
	for (size_t i = 0; i < files.n && i < WORKER_SCAN_FILES && !found; i++) {
		if (ut_fs_read(&text, files.paths[i], 8u * 1024u * 1024u) == 0)
			found = strstr(text.ptr, "UNTANGLE_WORKER") != NULL;
		else
			ut_error_clear();
	}
	ut_buf_dispose(&text);
	ut_pathlist_dispose(&files);
	return found;
}

bool ut_runner_worker_untold(const ut_runner *r)
{
	return names_worker(r->reset, r->nreset) && !names_worker(r->command, r->ncommand) &&
	       !names_worker(r->env, r->nenv_own) && !project_reads_worker(r->root);
}

static bool java_source(const char *file)
{
	size_t n = file ? strlen(file) : 0;

	return n > 5 && strcmp(file + n - 5, ".java") == 0;
}

int ut_runner_watch_sources(ut_runner *r, const ut_suite *s)
{
	UT_VEC(const char *) files = {0};
	ut_map seen = UT_MAP_INIT;
	int rc = 0;

	for (size_t i = 0; i < s->tests.n && rc == 0; i++) {
		const ut_test *t = &s->tests.v[i];

		for (size_t a = 0; a <= t->nactions && rc == 0; a++) {
			const char *f = a < t->nactions ? t->actions[a].file : t->file;

			if (!java_source(f) || ut_map_get(&seen, f, strlen(f)))
				continue;
			if (ut_map_put(&seen, f, strlen(f), (void *)f) < 0 ||
			    ut_vec_push(&files, f) < 0)
				rc = ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	r->java = rc == 0 ? copy_list(&r->arena, files.v, files.n) : NULL;
	if (rc == 0 && !r->java)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	r->njava = rc == 0 ? files.n : 0;
	ut_vec_free(&files);
	ut_map_dispose(&seen);
	return rc;
}

/* The folders and jars the runs' Java loads classes from: CLASSPATH as the runs get it,
 * then the command's -cp / -classpath / --class-path values (templates left out). */
static const char *class_path(const ut_runner *r, ut_buf *out)
{
	const char *cp = NULL;

	ut_buf_clear(out);
	for (size_t i = 0; i < r->nenv; i++) {
		if (strncmp(r->env[i], "CLASSPATH=", 10) == 0)
			cp = r->env[i] + 10;
	}
	if (!cp && ut_env_allowed("CLASSPATH"))
		cp = getenv("CLASSPATH");
	if (cp && !strchr(cp, '{'))
		ut_buf_puts(out, cp);
	for (size_t i = 0; i + 1 < r->ncommand; i++) {
		const char *a = r->command[i];

		if ((strcmp(a, "-cp") == 0 || strcmp(a, "-classpath") == 0 ||
		     strcmp(a, "--class-path") == 0) &&
		    !strchr(r->command[i + 1], '{')) {
			if (out->len)
				ut_buf_putc(out, ':');
			ut_buf_puts(out, r->command[i + 1]);
		}
	}
	return out->len && !out->failed ? out->ptr : NULL;
}

int ut_runner_stale_class(const ut_runner *r, ut_stale_class *out)
{
	ut_buf cp = UT_BUF_INIT;
	int rc;

	memset(out, 0, sizeof(*out));
	if (r->njava == 0)
		return 0;
	rc = ut_runner__stale_class(class_path(r, &cp), r->root, r->java, r->njava, out);
	ut_buf_dispose(&cp);
	return rc;
}

void ut_runner_free(ut_runner *r)
{
	if (!r)
		return;
	if (r->work)
		(void)ut_fs_remove_dead(r->work, work_file_pid, true, NULL);
	ut_arena_dispose(&r->arena);
	free(r);
}

const char *const *ut_runner_command(const ut_runner *r)
{
	return r->command;
}

/* argv as a shell would need it quoted, for messages only. */
static void quote(ut_buf *b, const char *const *argv)
{
	const char *p;
	size_t i;

	for (i = 0; argv[i]; i++) {
		if (i)
			ut_buf_putc(b, ' ');
		if (argv[i][0] && !argv[i][strcspn(argv[i], " \t\n'\"\\$`*?[]{}()<>|&;")]) {
			ut_buf_puts(b, argv[i]);
			continue;
		}
		ut_buf_putc(b, '\'');
		for (p = argv[i]; *p; p++)
			ut_buf_puts(b, *p == '\'' ? "'\\''" : (char[]){*p, 0});
		ut_buf_putc(b, '\'');
	}
}

static const char *tail_end(const ut_proc_result *p)
{
	return p->tail_len > MESSAGE_TAIL ? p->tail + p->tail_len - MESSAGE_TAIL : p->tail;
}

static int reset_failed(const char *const *argv, const ut_proc_result *p)
{
	ut_buf cmd = UT_BUF_INIT;
	char how[300];
	int rc;

	ut_buf_init(&cmd, 300);
	quote(&cmd, argv);
	rc = ut_error_set(UT_EENV, "the reset failed twice: %s%s: %s; its output ends with:\n%s",
			  cmd.ptr, cmd.failed ? "..." : "", ut_proc_describe(p, how, sizeof(how)),
			  p->tail ? tail_end(p) : "");
	ut_buf_dispose(&cmd);
	return rc;
}

/* Runs the reset, again once if it fails. 0, UT_EENV or UT_EINTR. */
static int run_reset(const ut_runner *r, const ut_proc_opts *opts, ut_run_result *out)
{
	int attempt, rc = 0;

	if (r->nreset == 0)
		return 0;
	for (attempt = 0; attempt < 2; attempt++) {
		ut_proc_result_dispose(&out->proc);
		rc = ut_proc_run(&out->proc, opts);
		out->reset_s += out->proc.wall_s;
		if (rc == UT_EINTR || rc == UT_ENOMEM)
			return rc;
		if (out->proc.state == UT_PROC_EXITED && out->proc.exit_code == 0) {
			ut_proc_result_dispose(&out->proc);
			memset(&out->proc, 0, sizeof(out->proc));
			return 0;
		}
	}
	out->status = UT_RUN_RESET_FAILED;
	return reset_failed(opts->argv, &out->proc);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Outcomes from the report; UT_ENOTFOUND, UT_EINPUT or UT_ENOMEM when it cannot be read,
 * UT_EINTR or UT_ETIMEOUT when reading it was stopped. */
static int read_report(ut_run_result *out, const char *const *ids, const char *path,
		       double timeout_s)
{
	/* the report is read within the run's timeout, and never less than 2 s after the run */
	ut_junit_limits lim = {0, timeout_s > 0 ? timeout_s - out->proc.wall_s : 0};

	bool complete = out->proc.state == UT_PROC_EXITED;
	ut_map seen = UT_MAP_INIT;
	ut_junit *j = NULL;
	bool *used = NULL;
	size_t i, k;
	int rc;

	if (timeout_s > 0 && lim.timeout_s < 2)
		lim.timeout_s = 2;
	rc = ut_junit_read_limited(&j, path, &lim);
	if (rc < 0)
		goto done;
	used = calloc(ut_junit_count(j) + 1, sizeof(bool));
	if (!used) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < out->n; i++) /* how often each id is scheduled, against reruns */
		if (ut_map_put(&seen, ids[i], strlen(ids[i]),
			       (void *)((uintptr_t)ut_map_get(&seen, ids[i], strlen(ids[i])) + 1)) < 0) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			goto done;
		}
	for (i = 0; i < out->n; i++) {
		const ut_junit_case *c = ut_junit_match(j, ids[i]);
		ut_test_result *t = &out->tests[i];
		size_t times = (uintptr_t)ut_map_get(&seen, ids[i], strlen(ids[i]));

		if (!c) {
			t->absent = complete;
			continue;
		}
		used[c->index] = true;
		t->outcome = c->outcome;
		t->duration_s = c->time_s;
		t->message = dup_or_null(c->message);
		t->flaky = c->outcome == UT_OUT_PASS &&
			   (c->failed_attempts > 0 || c->records > times);
	}
	for (k = 0; k < ut_junit_count(j); k++) {
		const ut_junit_case *c = ut_junit_case_at(j, k);
		ut_buf b = UT_BUF_INIT;

		if (used[k])
			continue;
		out->unmatched++;
		if (out->unmatched_first || (c->outcome != UT_OUT_FAIL && c->outcome != UT_OUT_ERROR))
			continue;
		ut_buf_init(&b, 1000);
		ut_buf_printf(&b, "%s%s%s: %s", c->classname, *c->classname ? " " : "", c->name,
			      c->message ? c->message : ut_outcome_name(c->outcome));
		out->unmatched_first = ut_buf_detach(&b, NULL);
	}
done:
	free(used);
	ut_map_dispose(&seen);
	ut_junit_free(j);
	return rc;
}

static void clear_outcomes(ut_run_result *out)
{
	size_t i;

	for (i = 0; i < out->n; i++) {
		free(out->tests[i].message);
		memset(&out->tests[i], 0, sizeof(out->tests[i]));
		out->tests[i].outcome = UT_OUT_NOTRUN;
	}
	free(out->unmatched_first);
	free(out->report_error);
	out->unmatched_first = out->report_error = NULL;
	out->unmatched = 0;
}

/* One attempt: reset, command, report. 0 when the command ran (the result says how it
 * went), else an error code. Never repeated here: a run that failed as a whole is run
 * again by detection alone (detect/exec.c, DX_ERROR_RETRIES), so retries never multiply. */
static int attempt(const ut_runner *r, const ut_template_vars *v, const char *const *ids,
		   double timeout_s, ut_arena *a, ut_run_result *out)
{
	ut_proc_opts ropts = {NULL, r->root, NULL, r->timeout_s, 0, 0, false, r->pass, false};
	ut_proc_opts copts = {NULL, r->root, NULL, timeout_s, 0, 0, true, r->pass, false};
	int rc;

	ropts.argv = ut_template_expand(a, r->reset, r->nreset, v);
	copts.argv = ut_template_expand(a, r->command, r->ncommand, v);
	copts.env = ropts.env = ut_template_expand(a, r->env, r->nenv, v);
	if (!ropts.argv || !copts.argv || !copts.env)
		return ut_error_set(UT_ENOMEM, "out of memory");
	clear_outcomes(out);
	rc = run_reset(r, &ropts, out);
	if (rc < 0)
		goto done;
	if (unlink(v->report) < 0 && errno != ENOENT)
		return ut_error_set(UT_EENV, "cannot remove the old report '%s': %s", v->report,
				    strerror(errno));
	ut_proc_result_dispose(&out->proc);
	rc = ut_proc_run(&out->proc, &copts);
	if (out->proc.state == UT_PROC_NOSTART) {
		out->status = UT_RUN_NOSTART;
		goto done;
	}
	if (rc < 0 && rc != UT_ETIMEOUT && rc != UT_EINTR)
		goto done;
	rc = read_report(out, ids, v->report, timeout_s);
	if (rc == UT_EINTR)
		goto done;
	out->status = rc == 0 ? UT_RUN_OK : rc == UT_ENOTFOUND ? UT_RUN_NO_REPORT
							       : UT_RUN_BAD_REPORT;
	if (rc < 0)
		out->report_error = strdup(ut_error_message());
	if (out->proc.state == UT_PROC_INTERRUPTED) {
		rc = UT_EINTR;
		goto done;
	}
	return rc == UT_ENOMEM ? rc : 0;
done:
	if (rc == UT_EINTR) {
		out->status = UT_RUN_INTERRUPTED;
		ut_error_set(UT_EINTR, "interrupted");
	}
	return rc;
}

int ut_runner_run(ut_runner *r, int worker, const char *const *ids, size_t n,
		  ut_run_result *out)
{
	return ut_runner_run_timed(r, worker, ids, n, r->timeout_s, out);
}

int ut_runner_run_timed(ut_runner *r, int worker, const char *const *ids, size_t n,
			double timeout_s, ut_run_result *out)
{
	ut_template_vars v = {ids, n, NULL, worker, r->runners, NULL, r->python, NULL, 0};
	ut_arena a = UT_ARENA_INIT;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->worker = worker;
	out->start = ut_clock_wall();
	out->status = UT_RUN_NO_REPORT;
	if (n == 0 || !ids || worker < 0) {
		rc = ut_error_set(UT_EINPUT, "nothing to run (%zu tests, worker %d)", n, worker);
		goto done;
	}
	out->tests = calloc(n, sizeof(ut_test_result));
	if (!out->tests) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	out->n = n;
	for (i = 0; i < n; i++)
		out->tests[i].outcome = UT_OUT_NOTRUN;
	/* the pid too: another untangle on the same folder must not share the file */
	v.report = ut_arena_printf(&a, "%s/report-%ld-w%d.xml", r->work, (long)getpid(), worker);
	v.tests = r->dot_dash ? ut_runner__dot_dash(&a, ids, n) : ids;
	if (!v.report || !v.tests) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	rc = attempt(r, &v, ids, timeout_s, &a, out);
done:
	if (!out->proc.tail)
		out->proc.tail = calloc(1, 1);
	ut_arena_dispose(&a);
	out->end = ut_clock_wall();
	return rc;
}

void ut_run_result_dispose(ut_run_result *res)
{
	if (!res)
		return;
	clear_outcomes(res);
	free(res->tests);
	res->tests = NULL;
	res->n = 0;
	ut_proc_result_dispose(&res->proc);
}

const char *ut_run_status_name(ut_run_status s)
{
	static const char *const names[] = {"ok",		"no-report",	   "bad-report",
					    "reset-failed", "could-not-start", "interrupted"};

	return (unsigned)s <= UT_RUN_INTERRUPTED ? names[s] : "unknown";
}

double ut_runner_timeout_s(const ut_runner *r)
{
	return r->timeout_s;
}

double ut_runner_preflight_s(const ut_runner *r)
{
	return r->preflight_s < r->timeout_s ? r->preflight_s : r->timeout_s;
}

bool ut_runner_can_list(const ut_runner *r)
{
	return r->nlist > 0;
}

const char *ut_runner_list_program(ut_runner *r)
{
	ut_template_vars v = {NULL, 0, NULL, 0, r->runners, NULL, r->python, NULL, 0};
	const char **argv;

	if (r->nlist == 0)
		return NULL;
	argv = ut_template_expand(&r->arena, r->list, 1, &v);
	return argv ? argv[0] : r->list[0];
}

/* The message of a list command that did not end well. */
static int list_failed(const char *const *argv, const ut_proc_result *p, int rc)
{
	ut_buf cmd = UT_BUF_INIT;
	char how[300];

	if (rc == UT_EINTR || rc == UT_ENOMEM)
		return rc;
	ut_buf_init(&cmd, 300);
	quote(&cmd, argv);
	rc = ut_error_set(UT_EENV, "the runner's list command %s: %s%s: %s; its output ends with:\n%s",
			  p->state == UT_PROC_NOSTART ? "could not start" : "failed", cmd.ptr,
			  cmd.failed ? "..." : "", ut_proc_describe(p, how, sizeof(how)),
			  p->tail ? tail_end(p) : "");
	ut_buf_dispose(&cmd);
	return rc;
}

int ut_runner_list(ut_runner *r, const char *const *roots, size_t nroots, double timeout_s,
		   char **list_path, ut_proc_result *proc)
{
	ut_template_vars v = {NULL, 0, NULL, 0, r->runners, NULL, r->python, roots, nroots};
	ut_proc_opts o = {NULL, r->root, NULL, timeout_s, 0, 0, true, r->pass, false};
	ut_arena a = UT_ARENA_INIT;
	int rc;

	memset(proc, 0, sizeof(*proc));
	*list_path = NULL;
	if (r->nlist == 0)
		return ut_error_set(UT_ENOTFOUND, "no list command (runner.list, or a preset's)");
	v.list = ut_arena_printf(&a, "%s/list-%ld.jsonl", r->work, (long)getpid());
	v.report = ut_arena_printf(&a, "%s/list-report-%ld.xml", r->work, (long)getpid());
	o.argv = v.list && v.report ? ut_template_expand(&a, r->list, r->nlist, &v) : NULL;
	o.env = o.argv ? ut_template_expand(&a, r->env, r->nenv, &v) : NULL;
	if (!o.env) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	if (unlink(v.list) < 0 && errno != ENOENT) {
		rc = ut_error_set(UT_EENV, "cannot remove the old list '%s': %s", v.list,
				  strerror(errno));
		goto done;
	}
	rc = ut_proc_run(proc, &o);
	if (rc == 0 && (proc->state != UT_PROC_EXITED || proc->exit_code != 0))
		rc = UT_EENV;
	if (rc == 0 && access(v.list, R_OK) < 0) {
		rc = ut_error_set(UT_EENV, "the runner's list command exited 0 but wrote no list "
				  "('%s')", v.list);
		goto done;
	}
	if (rc < 0) {
		rc = list_failed(o.argv, proc, rc);
		goto done;
	}
	*list_path = strdup(v.list);
	if (!*list_path)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
done:
	unlink(v.report ? v.report : "");
	ut_arena_dispose(&a);
	return rc;
}
