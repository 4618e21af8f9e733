/* template.c: the presets and the {tests} {report} {worker} {runners} templates of
 * runner.command, runner.reset and runner.env. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "runner/internal.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/runner.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"

#ifndef UT_RUNNERS_DIR
#define UT_RUNNERS_DIR "ci/runners"
#endif

static const char *const preset_pytest[] = {
	"{python}", "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider",
	"--junitxml={report}", "--", "{tests}", NULL}; /* --: an id may start with '-' */
static const char *const preset_mocha[] = {
	"node", "{runners}/mocha-ordered.js", "--report", "{report}", "--", "{tests}", NULL};
static const char *const preset_junit4[] = {
	"java", "{runners}/OrderedRunner.java", "--report", "{report}", "--", "{tests}", NULL};
static const char *const preset_junit5[] = {
	"java", "{runners}/OrderedPlatformRunner.java", "--report", "{report}", "--", "{tests}",
	NULL};

static const char *const preset_testng[] = {
	"java", "{runners}/OrderedTestNG.java", "--report", "{report}", "--", "{tests}", NULL};

/* The list commands (docs/collection.md): the runner's own tests, ids and order. */
static const char *const list_pytest[] = {
	"{python}", "{runners}/pytest-list.py", "--list", "{list}", "--", "{roots}", NULL};
static const char *const list_mocha[] = {
	"node", "{runners}/mocha-ordered.js", "--list", "{list}", NULL};
static const char *const list_junit4[] = {
	"java", "{runners}/OrderedRunner.java", "--list", "{list}", "--", "{roots}", NULL};
static const char *const list_junit5[] = {
	"java", "{runners}/OrderedPlatformRunner.java", "--list", "{list}", "--", "{roots}", NULL};
static const char *const list_testng[] = {
	"java", "{runners}/OrderedTestNG.java", "--list", "{list}", "--", "{roots}", NULL};

static const struct {
	const char *name;
	const char *const *command, *const *list;
} presets[] = {
	{"pytest", preset_pytest, list_pytest},
	{"mocha", preset_mocha, list_mocha},
	{"junit4", preset_junit4, list_junit4},
	{"junit5", preset_junit5, list_junit5},
	{"testng", preset_testng, list_testng},
};

static int preset_index(const char *preset)
{
	size_t i;

	for (i = 0; preset && i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strcmp(preset, presets[i].name) == 0)
			return (int)i;
	return -1;
}

const char *const *ut_runner_preset(const char *preset)
{
	int i = preset_index(preset);

	return i < 0 ? NULL : presets[i].command;
}

const char *const *ut_runner__dot_dash(ut_arena *a, const char *const *ids, size_t n)
{
	const char **out = ut_arena_alloc(a, (n + 1) * sizeof(char *));
	size_t i;

	for (i = 0; out && i < n; i++) {
		out[i] = ids[i][0] == '-' ? ut_arena_printf(a, "./%s", ids[i]) : ids[i];
		if (!out[i])
			return NULL;
	}
	return out;
}

const char *const *ut_runner__list_preset(const char *preset)
{
	int i = preset_index(preset);

	return i < 0 ? NULL : presets[i].list;
}

/* The helpers of an installed untangle, relative to the folder of its executable
 * (bin/untangle and share/untangle/runners under one prefix, as `cmake --install` and the
 * .deb place them). */
#define UT_INSTALLED_RUNNERS "/../share/untangle/runners"

/* Whether dir holds the helpers (one of them is enough to tell). */
static bool helpers_in(const char *dir)
{
	char probe[PATH_MAX];
	int n = snprintf(probe, sizeof(probe), "%s/OrderedRunner.java", dir);

	return n > 0 && (size_t)n < sizeof(probe) && access(probe, R_OK) == 0;
}

/* Finds the helpers once: $UNTANGLE_RUNNERS, else beside the executable, else the source
 * tree the binary was built from. *how says which. */
static const char *locate(const char **how)
{
	static char installed[PATH_MAX + sizeof(UT_INSTALLED_RUNNERS)];
	static int found; /* 0 not looked yet, 1 installed, -1 not installed */
	const char *env = getenv("UNTANGLE_RUNNERS");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		*how = "$UNTANGLE_RUNNERS";
		return env;
	}
	if (found == 0) {
		found = -1;
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = '\0';
			slash = strrchr(exe, '/');
			if (slash) {
				*slash = '\0';
				n = snprintf(installed, sizeof(installed), "%s%s", exe,
					     UT_INSTALLED_RUNNERS);
				if (n > 0 && (size_t)n < sizeof(installed) &&
				    helpers_in(installed) && realpath(installed, exe)) {
					snprintf(installed, sizeof(installed), "%s", exe);
					found = 1;
				}
			}
		}
	}
	if (found == 1) {
		*how = "installed beside the executable";
		return installed;
	}
	*how = "the source tree it was built from";
	return UT_RUNNERS_DIR;
}

const char *ut_runner_helpers_dir(void)
{
	const char *how;

	return locate(&how);
}

const char *ut_runner_helpers_origin(void)
{
	const char *how;

	locate(&how);
	return how;
}

static const char *const names[] = {"{report}", "{worker}", "{runners}", "{list}", "{python}"};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* The value of names[k]. */
static const char *value_of(const ut_template_vars *v, size_t k, const char *worker)
{
	switch (k) {
	case 0: return v->report ? v->report : "";
	case 1: return worker;
	case 2: return v->runners;
	case 3: return v->list ? v->list : "";
	default: return v->python ? v->python : "python3";
	}
}

const char **ut_template_expand(ut_arena *a, const char *const *tmpl, size_t n,
				const ut_template_vars *v)
{
	ut_buf b = UT_BUF_INIT;
	const char **argv = NULL;
	const char *p, *hit;
	size_t i, k, count = 0, best_k;
	char worker[24];

	for (i = 0; i < n; i++)
		count += strcmp(tmpl[i], "{tests}") == 0   ? v->ntests
			 : strcmp(tmpl[i], "{roots}") == 0 ? v->nroots
							   : 1;
	argv = ut_arena_alloc(a, (count + 1) * sizeof(char *));
	if (!argv)
		goto fail;
	snprintf(worker, sizeof(worker), "%d", v->worker);
	count = 0;
	for (i = 0; i < n; i++) {
		if (strcmp(tmpl[i], "{tests}") == 0) {
			for (k = 0; k < v->ntests; k++)
				argv[count++] = v->tests[k];
			continue;
		}
		if (strcmp(tmpl[i], "{roots}") == 0) {
			for (k = 0; k < v->nroots; k++)
				argv[count++] = v->roots[k];
			continue;
		}
		ut_buf_clear(&b);
		for (p = tmpl[i]; *p;) {
			hit = NULL;
			best_k = 0;
			for (k = 0; k < NNAMES; k++) {
				const char *h = strstr(p, names[k]);

				if (h && (!hit || h < hit)) {
					hit = h;
					best_k = k;
				}
			}
			if (!hit) {
				ut_buf_puts(&b, p);
				break;
			}
			ut_buf_put(&b, p, (size_t)(hit - p));
			ut_buf_puts(&b, value_of(v, best_k, worker));
			p = hit + strlen(names[best_k]);
		}
		if (b.failed)
			goto fail;
		argv[count] = ut_arena_strndup(a, b.ptr, b.len);
		if (!argv[count++])
			goto fail;
	}
	argv[count] = NULL;
	ut_buf_dispose(&b);
	return argv;
fail:
	ut_buf_dispose(&b);
	return NULL;
}

int ut_template_check(const char *const *tmpl, size_t n, const char *key, int tests_rule,
		      size_t *reports)
{
	size_t i, whole = 0;
	const char *p;

	for (i = 0; i < n; i++) {
		for (p = strstr(tmpl[i], "{report}"); p; p = strstr(p + 1, "{report}"))
			(*reports)++;
		if (strcmp(tmpl[i], "{tests}") == 0 && tests_rule != UT_TESTS_FORBIDDEN) {
			whole++;
			continue;
		}
		if (strstr(tmpl[i], "{tests}"))
			return ut_error_set(UT_EINPUT,
					    tests_rule == UT_TESTS_FORBIDDEN
						? "'%s': {tests} is not allowed here ('%s')"
						: "'%s': {tests} must be a whole element, not part "
						  "of '%s' (it becomes one argument per test)",
					    key, tmpl[i]);
	}
	if (tests_rule == UT_TESTS_REQUIRED && whole == 0)
		return ut_error_set(UT_EINPUT, "'%s' has no {tests} element: the command must "
				    "receive the test ids", key);
	return 0;
}
