/* check_runner.c: schedules through a scripted runner (tests/fixtures/runner/bin): templates,
 * outcomes, missing or corrupt reports (tried once; detection's retries counted), the retry
 * of failing resets, timeouts, interrupts and configuration errors; and the fixture folder
 * the runner suites share. */
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_runner.h"
#include "detect/internal.h"
#include "store/journal.h"
#include "json/json.h"
#include "proc/process.h"
#include "runner/internal.h"
#include "runner/runner.h"
#include "runner/tally.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"

/* The package a Java source declares, as the folders of its class (stale.c). */
START_TEST(java_package_as_a_path)
{
	static const struct {
		const char *text;
		int rc;
		const char *want;
	} cases[] = {
		{"package boards;\nimport x;", 1, "boards"},
		{"/* Licence\n * package no.such; */\n// package nor.this;\npackage  a . b.c ;", 1,
		 "a/b/c"},
		{"import org.junit.Test;\npublic class T {}", 0, ""},
		{"packages.Util x;", 0, ""},
		{"package ;", -1, ""},
		{"package a..b;", -1, ""},
		{"package a.b", -1, ""},
	};
	char out[64], tiny[4];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = ut_runner__java_package(cases[i].text, strlen(cases[i].text), out,
						 sizeof(out));

		ck_assert_msg(rc == cases[i].rc, "case %zu: %d", i, rc);
		if (rc >= 0)
			ck_assert_str_eq(out, cases[i].want);
	}
	ck_assert_int_eq(ut_runner__java_package("package abcd;", 13, tiny, sizeof(tiny)), -1);
}
END_TEST

Suite *runner_suite(void);

static char tmpdir[256];

void runner_fixture_setup(void)
{
	const char *argv[] = {"cp", "-R", UT_FIXTURES "/runner/.", tmpdir, NULL};
	ut_proc_opts o = {argv, NULL, NULL, 60, 0, 0, false, NULL, false};
	ut_proc_result r;

	snprintf(tmpdir, sizeof(tmpdir), "%s/untangle-runner-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	ck_assert_int_eq(ut_proc_run(&r, &o), 0);
	ck_assert_msg(r.exit_code == 0, "cp: %s", r.tail);
	ut_proc_result_dispose(&r);
}

void runner_fixture_teardown(void)
{
	const char *argv[] = {"rm", "-rf", tmpdir, NULL};
	ut_proc_opts o = {argv, NULL, NULL, 60, 0, 0, false, NULL, false};
	ut_proc_result r;

	ut_proc_interrupt_clear();
	if (tmpdir[0] && getenv("UT_KEEP_FIXTURES") == NULL)
		ut_proc_run(&r, &o);
	ut_proc_result_dispose(&r);
}

const char *fixture_dir(void)
{
	return tmpdir;
}

const char *fixture(int slot, const char *rel)
{
	static char paths[4][4096];

	snprintf(paths[slot], sizeof(paths[slot]), "%s/%s", tmpdir, rel);
	return paths[slot];
}

void msleep(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0)
		;
}

int pid_alive(int pid)
{
	char path[64], stat[512];
	ut_buf b = UT_BUF_INIT;
	const char *paren;
	int alive;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (pid <= 0 || ut_fs_read(&b, path, sizeof(stat)) < 0) {
		ut_buf_dispose(&b);
		return 0;
	}
	paren = strrchr(b.ptr, ')');
	alive = paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
	ut_buf_dispose(&b);
	return alive;
}

static void *interrupt_later(void *ms)
{
	msleep((int)(intptr_t)ms);
	ut_proc_interrupt();
	return NULL;
}

void interrupt_after(pthread_t *thread, int ms)
{
	ck_assert_int_eq(pthread_create(thread, NULL, interrupt_later, (void *)(intptr_t)ms), 0);
}

int pid_dies(int pid)
{
	int i;

	for (i = 0; i < 200 && pid_alive(pid); i++)
		msleep(10);
	return !pid_alive(pid);
}

int pid_from(const char *path)
{
	ut_buf b = UT_BUF_INIT;
	int i, pid = -1;

	for (i = 0; i < 200 && pid < 0; i++) {
		if (ut_fs_read(&b, path, 64) == 0 && b.len > 1)
			pid = (int)strtol(b.ptr, NULL, 10);
		else
			msleep(10);
	}
	ut_buf_dispose(&b);
	return pid;
}

/* --- runs through bin/fake-runner.py -------------------------------------------------- */

static const char *fake_command[] = {"/usr/bin/python3", "bin/fake-runner.py", "--tag=w{worker}",
				     "--report",	 "{report}",		"--",
				     "{tests}"};
static const char *reset_command[] = {"/bin/sh", "bin/reset.sh", "{worker}"};
static const char *ids[] = {"t.py::a", "t.py::it's \"b\" [x y]", "t.py::c"};
static ut_envvar env[2] = {{"APP_WORKER", "{worker}"}, {"FAKE_LOG", NULL}};
/* the fixtures' switches reach the runner by name or glob (runner.pass_env) */
static const char *pass_env[] = {"FAKE_*", "FAIL_RESETS"};
static ut_config cfg;
static ut_runner *runner;
static ut_run_result result;

static void setup(void)
{
	runner_fixture_setup();
	ut_config_init(&cfg);
	cfg.runner.command.items = fake_command;
	cfg.runner.command.n = sizeof(fake_command) / sizeof(fake_command[0]);
	cfg.runner.reset.items = reset_command;
	cfg.runner.reset.n = 3;
	env[1].value = strdup(fixture(3, "fake.log"));
	cfg.runner.env = env;
	cfg.runner.nenv = 2;
	cfg.runner.pass_env.items = pass_env;
	cfg.runner.pass_env.n = 2;
	cfg.runner.timeout_s = 30;
}

static void teardown(void)
{
	ut_run_result_dispose(&result);
	ut_runner_free(runner);
	runner = NULL;
	ut_config_dispose(&cfg);
	free((char *)env[1].value);
	runner_fixture_teardown();
}

static void make_runner(void)
{
	if (!runner)
		ck_assert_msg(ut_runner_new(&runner, &cfg, fixture_dir(), fixture(0, "work/tmp")) == 0,
			      "%s", ut_error_message());
}

static int run(int worker, size_t n)
{
	ut_run_result_dispose(&result);
	make_runner();
	return ut_runner_run(runner, worker, ids, n, &result);
}

/* Lines in a file of the fixture folder (0 when it is missing). */
static int lines(const char *rel)
{
	ut_buf b = UT_BUF_INIT;
	size_t i;
	int n = 0;

	if (ut_fs_read(&b, fixture(0, rel), 1 << 20) == 0)
		for (i = 0; i < b.len; i++)
			n += b.ptr[i] == '\n';
	ut_buf_dispose(&b);
	return n;
}

static int log_has(const char *text)
{
	ut_buf b = UT_BUF_INIT;
	int found;

	found = ut_fs_read(&b, fixture(0, "fake.log"), 1 << 20) == 0 && strstr(b.ptr, text);
	ut_buf_dispose(&b);
	return found;
}

START_TEST(templates_reach_the_command)
{
	char text[4200];

	ck_assert_int_eq(run(3, 3), 0);
	ck_assert_int_eq(result.status, UT_RUN_OK);
	ck_assert_int_eq(result.worker, 3);
	/* one argument per id, in order, whatever characters they hold; no shell */
	ck_assert(log_has("\"ids\": [\"t.py::a\", \"t.py::it's \\\"b\\\" [x y]\", \"t.py::c\"]"));
	ck_assert(log_has("\"worker\": \"3\""));
	ck_assert(log_has("\"untangle_worker\": \"3\"")); /* every run is told its worker */
	ck_assert(log_has("\"--tag=w3\""));
	snprintf(text, sizeof(text), "\"report\": \"%s/work/tmp/report-%ld-w3.xml\"", fixture_dir(),
		 (long)getpid());
	ck_assert_msg(log_has(text), "no %s", text);
	ck_assert_int_eq(lines("resets.log"), 1);
	ck_assert_ptr_nonnull(strstr(result.proc.tail, "fake-runner: 3 tests"));
	ck_assert_str_eq(ut_runner_command(runner)[0], "/usr/bin/python3");
}
END_TEST

START_TEST(outcomes_come_from_the_report)
{
	setenv("FAKE_FAIL", "t.py::it's \"b\" [x y]", 1);
	setenv("FAKE_OMIT", "t.py::c", 1);
	ck_assert_int_eq(run(0, 3), 0);
	ck_assert_int_eq(result.status, UT_RUN_OK);
	ck_assert_uint_eq(result.n, 3);
	ck_assert_int_eq(result.tests[0].outcome, UT_OUT_PASS);
	ck_assert(result.tests[0].duration_s > 0.24 && result.tests[0].duration_s < 0.26);
	ck_assert_ptr_null(result.tests[0].message);
	ck_assert_int_eq(result.tests[1].outcome, UT_OUT_FAIL);
	ck_assert_str_eq(result.tests[1].message, "AssertionError: it's \"b\" [x y] failed");
	ck_assert_int_eq(result.tests[2].outcome, UT_OUT_NOTRUN);
	ck_assert(result.tests[2].absent); /* the runner ended and did not report it */
	ck_assert(!result.tests[0].flaky && !result.tests[0].absent);
	ck_assert_int_eq(result.proc.state, UT_PROC_EXITED);
	ck_assert_int_eq(result.proc.exit_code, 1); /* recorded, not used */
	ck_assert_int_eq(lines("fake.log"), 1);
	ck_assert(result.reset_s > 0);
	ck_assert(result.start > 1e9 && result.end >= result.start);
	ck_assert_uint_eq(result.unmatched, 0);
}
END_TEST

/* The runner tries a schedule once: a run without a usable report is classified and left to
 * the caller (detection alone runs it again: see detect_retries_a_run_a_fixed_number_of_times). */
START_TEST(missing_report_is_not_retried)
{
	setenv("FAKE_MODE", "noreport", 1);
	ck_assert_int_eq(run(1, 2), 0);
	ck_assert_int_eq(result.status, UT_RUN_NO_REPORT);
	ck_assert_str_eq(ut_run_status_name(result.status), "no-report");
	ck_assert_int_eq(lines("resets.log"), 1);
	ck_assert_int_eq(lines("fake.log"), 1);
	ck_assert_ptr_nonnull(strstr(result.report_error, "-w1.xml"));
	ck_assert_int_eq(result.tests[0].outcome, UT_OUT_NOTRUN);
	ck_assert(!result.tests[0].absent);
	ck_assert_int_eq(result.proc.exit_code, 4);

	setenv("FAKE_MODE", "noreport-once", 1);
	ck_assert_int_eq(run(1, 2), 0);
	ck_assert_int_eq(result.status, UT_RUN_NO_REPORT);
	ck_assert_int_eq(run(1, 2), 0);
	ck_assert_int_eq(result.status, UT_RUN_OK);
	ck_assert_int_eq(result.tests[1].outcome, UT_OUT_PASS);
	ck_assert_int_eq(lines("fake.log"), 3);
}
END_TEST

START_TEST(corrupt_report_is_not_retried)
{
	setenv("FAKE_MODE", "corrupt", 1);
	ck_assert_int_eq(run(0, 3), 0);
	ck_assert_int_eq(result.status, UT_RUN_BAD_REPORT);
	ck_assert_int_eq(lines("fake.log"), 1);
	ck_assert_ptr_nonnull(strstr(result.report_error, "invalid JUnit XML"));
}
END_TEST

/* Issue 31: the runner once repeated a run without a report and detection repeated that
 * again, 6 invocations of a runner that writes no report. Through the real runner and
 * detection, a runner that never writes one is invoked exactly DX_ERROR_RETRIES + 1 times
 * for a suite of one test (one run a round), and the message says how many and why. */
START_TEST(detect_retries_a_run_a_fixed_number_of_times)
{
	ut_graph *g = NULL;
	ut_journal *j = NULL;
	ut_detect_opts opts;
	ut_detect_stats stats;
	ut_journal_header h = {.suite = "s", .strategy = "fast", .extract = "x", .filter = "y",
			       .ntests = 1, .ids = ids};
	char times[64];
	int rc;

	memset(&opts, 0, sizeof(opts));
	memset(&stats, 0, sizeof(stats));
	setenv("FAKE_MODE", "noreport", 1);
	ck_assert_int_eq(ut_graph_new(&g, 1), 0);
	ck_assert_int_eq(ut_graph_set_test(g, 0, ids[0], ids[0], "t.py", 1, 1), 0);
	cfg.runner.preflight_s = 0; /* the preflight's own try is not the point here */
	make_runner();
	ck_assert_int_eq(ut_journal_open(&j, fixture(1, "journal.jsonl"), &h, UT_JOURNAL_NEW), 0);
	rc = ut_detect_run(g, runner, j, &opts, &stats);
	ut_journal_close(j);
	ut_graph_free(g);
	ck_assert_int_eq(rc, UT_EENV);
	ck_assert_int_eq(lines("fake.log"), DX_ERROR_RETRIES + 1);
	snprintf(times, sizeof(times), "no usable outcomes %d times in a row", DX_ERROR_RETRIES + 1);
	ck_assert_msg(strstr(ut_error_message(), times), "%s", ut_error_message());
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "no-report: exit status 4"));
}
END_TEST

START_TEST(failing_reset_is_retried_once)
{
	setenv("FAIL_RESETS", "1", 1);
	ck_assert_int_eq(run(2, 1), 0);
	ck_assert_int_eq(result.status, UT_RUN_OK);
	ck_assert_int_eq(lines("resets.log"), 2);
	ck_assert_int_eq(result.tests[0].outcome, UT_OUT_PASS);
}
END_TEST

START_TEST(reset_that_keeps_failing)
{
	char message[1024];

	setenv("FAIL_RESETS", "9", 1);
	ck_assert_int_eq(run(2, 1), UT_EENV);
	snprintf(message, sizeof(message), "%s", ut_error_message());
	ck_assert_int_eq(result.status, UT_RUN_RESET_FAILED);
	ck_assert_int_eq(lines("resets.log"), 2);
	ck_assert_int_eq(lines("fake.log"), 0);
	ck_assert_ptr_nonnull(strstr(message, "/bin/sh bin/reset.sh 2: exit status 1"));
	ck_assert_ptr_nonnull(strstr(message, "resetting worker 2: database is locked"));
	ck_assert_ptr_nonnull(strstr(result.proc.tail, "database is locked"));
	ck_assert_int_eq(result.tests[0].outcome, UT_OUT_NOTRUN);
}
END_TEST

START_TEST(timeout_is_not_retried)
{
	setenv("FAKE_MODE", "hang", 1);
	cfg.runner.timeout_s = 1;
	ck_assert_int_eq(run(0, 2), 0);
	ck_assert_int_eq(result.status, UT_RUN_NO_REPORT);
	ck_assert_int_eq(result.proc.state, UT_PROC_TIMEOUT);
	ck_assert_int_eq(lines("fake.log"), 1);
	ck_assert(result.end - result.start < 6);

	/* what a killed run reported before it hung still counts */
	setenv("FAKE_MODE", "partial-hang", 1);
	ck_assert_int_eq(run(0, 3), 0);
	ck_assert_int_eq(result.status, UT_RUN_OK);
	ck_assert_int_eq(result.proc.state, UT_PROC_TIMEOUT);
	ck_assert_int_eq(result.tests[0].outcome, UT_OUT_PASS);
	ck_assert_int_eq(result.tests[1].outcome, UT_OUT_NOTRUN);
	ck_assert(!result.tests[1].absent);
}
END_TEST

START_TEST(interrupt_stops_the_run)
{
	pthread_t t;

	setenv("FAKE_MODE", "hang", 1);
	interrupt_after(&t, 500);
	ck_assert_int_eq(run(0, 2), UT_EINTR);
	pthread_join(t, NULL);
	ck_assert_int_eq(result.status, UT_RUN_INTERRUPTED);
	ck_assert(result.end - result.start < 5);
	ck_assert_int_eq(run(0, 2), UT_EINTR); /* nothing new starts */
	ck_assert_int_eq(lines("resets.log"), 1);
}
END_TEST

START_TEST(command_that_cannot_start)
{
	static const char *missing[] = {"bin/no-such-runner", "{report}", "{tests}"};

	cfg.runner.command.items = missing;
	cfg.runner.command.n = 3;
	ck_assert_int_eq(run(0, 1), UT_EENV);
	ck_assert_int_eq(result.status, UT_RUN_NOSTART);
	ck_assert_int_eq(result.proc.state, UT_PROC_NOSTART);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "bin/no-such-runner"));
	ut_run_result_dispose(&result);
	ck_assert_int_eq(ut_runner_run(runner, 0, ids, 0, &result), UT_EINPUT);
}
END_TEST

static int new_error(const char *needle)
{
	int rc;

	ut_runner_free(runner);
	runner = NULL;
	rc = ut_runner_new(&runner, &cfg, fixture_dir(), fixture(0, "work"));
	if (needle)
		ck_assert_msg(strstr(ut_error_message(), needle) != NULL, "'%s' not in '%s'", needle,
			      ut_error_message());
	return rc;
}

START_TEST(configuration_errors)
{
	static const char *embedded[] = {"run", "--report={report}", "--ids={tests}"};
	static const char *no_tests[] = {"run", "--report={report}"};
	static const char *no_report[] = {"run", "{tests}"};
	static ut_envvar bad_env[] = {{"IDS", "{tests}"}};

	cfg.runner.command.n = 0;
	ck_assert_int_eq(new_error("'runner.preset' is not set"), UT_EINPUT);
	cfg.runner.command.items = embedded;
	cfg.runner.command.n = 3;
	ck_assert_int_eq(new_error("must be a whole element"), UT_EINPUT);
	cfg.runner.command.items = no_tests;
	cfg.runner.command.n = 2;
	ck_assert_int_eq(new_error("has no {tests}"), UT_EINPUT);
	cfg.runner.command.items = no_report;
	ck_assert_int_eq(new_error("{report}"), UT_EINPUT);
	cfg.runner.env = bad_env;
	cfg.runner.nenv = 1;
	ck_assert_int_eq(new_error("'runner.env': {tests} is not allowed"), UT_EINPUT);
	cfg.runner.env = env;
	cfg.runner.nenv = 2;
	cfg.runner.reset.items = embedded + 2;
	cfg.runner.reset.n = 1;
	ck_assert_int_eq(new_error("'runner.reset'"), UT_EINPUT);
	cfg.runner.reset.n = 0;
	ck_assert_int_eq(new_error("{report}"), UT_EINPUT);
	cfg.runner.command.items = fake_command;
	cfg.runner.command.n = sizeof(fake_command) / sizeof(fake_command[0]);
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, fixture(0, "no/such"), fixture(0, "w")),
			 UT_EENV);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "no/such"));
}
END_TEST

START_TEST(presets_fill_the_command)
{
	const char *const *cmd;

	cfg.runner.command.n = 0;
	cfg.runner.preset = "pytest";
	ck_assert_int_eq(new_error(NULL), 0);
	cmd = ut_runner_command(runner);
	ck_assert_str_eq(cmd[0], "{python}"); /* runner.python, "python3" by default */
	ck_assert_str_eq(ut_runner_list_program(runner), "python3");
	ck_assert_str_eq(cmd[7], "--junitxml={report}");
	ck_assert_str_eq(cmd[8], "--"); /* an id that starts with '-' is still an id */
	ck_assert_str_eq(cmd[9], "{tests}");
	ck_assert_ptr_null(cmd[10]);

	cfg.runner.preset = "mocha";
	ck_assert_int_eq(new_error(NULL), 0);
	ck_assert_str_eq(ut_runner_command(runner)[1], "{runners}/mocha-ordered.js");
	ck_assert_int_eq(setenv("UNTANGLE_RUNNERS", fixture_dir(), 1), 0);
	ck_assert_str_eq(ut_runner_helpers_dir(), fixture_dir());
	ck_assert_int_eq(new_error("mocha-ordered.js"), UT_EENV);
	unsetenv("UNTANGLE_RUNNERS");
	cfg.runner.preset = "junit4";
	ck_assert_int_eq(new_error(NULL), 0);
	cfg.runner.preset = "junit5";
	ck_assert_int_eq(new_error(NULL), 0);
	cfg.runner.preset = "testng";
	ck_assert_int_eq(new_error(NULL), 0);
	ck_assert_str_eq(ut_runner_command(runner)[1], "{runners}/OrderedTestNG.java");
	ck_assert_ptr_null(ut_runner_preset("nose"));
}
END_TEST

/* Count of the folders java-NAME-* in dir. */
static int java_class_dirs(const char *dir, const char *name)
{
	char prefix[128];
	struct dirent *d;
	DIR *dh = opendir(dir);
	int n = 0;

	snprintf(prefix, sizeof(prefix), "java-%s-", name);
	while (dh && (d = readdir(dh)))
		n += strncmp(d->d_name, prefix, strlen(prefix)) == 0 && !strstr(d->d_name, ".tmp.");
	if (dh)
		closedir(dh);
	return n;
}

static void copy_file(const char *from, const char *to, const char *append)
{
	ut_buf b = UT_BUF_INIT;

	ck_assert_int_eq(ut_fs_read(&b, from, 1 << 24), 0);
	if (append)
		ut_buf_puts(&b, append);
	ck_assert_int_eq(ut_fs_write_atomic(to, b.ptr, b.len), 0);
	ut_buf_dispose(&b);
}

/* The junit4 preset's helper is compiled once (javac) and its class runs: a run goes on
 * with the helper's source gone, another source is compiled apart, and a class path that
 * cannot compile it leaves the source launcher in place. */
START_TEST(java_helper_is_compiled_once)
{
	static const char *cls_argv[] = {"javac", "-d", "classes", "-cp",
					 "/usr/share/java/junit4.jar", "T.java", NULL};
	static ut_envvar jenv[] = {
		{"CLASSPATH", "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar:classes"}};
	static ut_envvar badenv[] = {{"CLASSPATH", "/nonexistent.jar"}};
	static const char *tid[] = {"T#a"};
	ut_proc_opts po = {cls_argv, NULL, NULL, 120, 0, 0, true, NULL, false};
	ut_proc_result pr;
	char src[4096], runners[4096], proj[4096], work[4200], gone[4200];

	if (access("/usr/bin/javac", X_OK) || access("/usr/share/java/junit4.jar", R_OK)) {
		ck_assert_msg(!getenv("UT_REQUIRE_JAVA"), "javac or junit4.jar missing");
		return;
	}
	snprintf(src, sizeof(src), "%s/OrderedRunner.java", ut_runner_helpers_dir());
	snprintf(runners, sizeof(runners), "%s", fixture(1, "runners"));
	snprintf(proj, sizeof(proj), "%s", fixture(2, "proj"));
	snprintf(work, sizeof(work), "%s/work", proj);
	ck_assert_int_eq(ut_fs_mkdirs(runners), 0);
	ck_assert_int_eq(ut_fs_mkdirs(work), 0);
	copy_file(src, fixture(0, "runners/OrderedRunner.java"), NULL);
	ck_assert_int_eq(ut_fs_write_atomic(fixture(0, "proj/T.java"),
					    "public class T { @org.junit.Test public void a() {} }\n",
					    54), 0);
	po.cwd = proj;
	ck_assert_int_eq(ut_proc_run(&pr, &po), 0);
	ck_assert_int_eq(pr.exit_code, 0);
	ut_proc_result_dispose(&pr);
	ck_assert_int_eq(setenv("UNTANGLE_RUNNERS", runners, 1), 0);
	cfg.runner.command.n = 0;
	cfg.runner.reset.n = 0;
	cfg.runner.preset = "junit4";
	cfg.runner.env = jenv;
	cfg.runner.nenv = 1;
	ck_assert_msg(ut_runner_new(&runner, &cfg, proj, work) == 0, "%s", ut_error_message());
	ck_assert_str_eq(ut_runner_command(runner)[1], "OrderedRunner"); /* the class */
	ck_assert_int_eq(java_class_dirs(work, "OrderedRunner"), 1);
	snprintf(gone, sizeof(gone), "%s.away", fixture(0, "runners/OrderedRunner.java"));
	ck_assert_int_eq(rename(fixture(0, "runners/OrderedRunner.java"), gone), 0);
	ck_assert_int_eq(ut_runner_run(runner, 0, tid, 1, &result), 0);
	ck_assert_msg(result.status == UT_RUN_OK && result.n == 1 &&
		      result.tests[0].outcome == UT_OUT_PASS, "%s", result.proc.tail);
	ut_runner_free(runner);
	/* the same source: the same classes, nothing compiled */
	copy_file(gone, fixture(0, "runners/OrderedRunner.java"), NULL);
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, proj, work), 0);
	ck_assert_int_eq(java_class_dirs(work, "OrderedRunner"), 1);
	ut_runner_free(runner);
	/* another source: compiled apart */
	copy_file(gone, fixture(0, "runners/OrderedRunner.java"), "// changed\n");
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, proj, work), 0);
	ck_assert_int_eq(java_class_dirs(work, "OrderedRunner"), 2);
	ut_runner_free(runner);
	/* nothing to compile it against: the source launcher, as before */
	copy_file(gone, fixture(0, "runners/OrderedRunner.java"), "// again\n");
	cfg.runner.env = badenv;
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, proj, work), 0);
	ck_assert_str_eq(ut_runner_command(runner)[1], "{runners}/OrderedRunner.java");
	ck_assert_int_eq(java_class_dirs(work, "OrderedRunner"), 2);
	cfg.runner.env = env;
	cfg.runner.nenv = 2;
	unsetenv("UNTANGLE_RUNNERS");
}
END_TEST

/* runner.env's own UNTANGLE_WORKER wins over the one every run gets. */
START_TEST(untangle_worker_from_runner_env_wins)
{
	ut_envvar own[3] = {{"APP_WORKER", "{worker}"}, {"FAKE_LOG", NULL},
			    {"UNTANGLE_WORKER", "lane-{worker}"}};

	own[1].value = env[1].value;
	cfg.runner.env = own;
	cfg.runner.nenv = 3;
	ck_assert_int_eq(run(2, 1), 0);
	ck_assert(log_has("\"untangle_worker\": \"lane-2\""));
	ck_assert(!log_has("\"untangle_worker\": \"2\""));
	cfg.runner.env = env;
	cfg.runner.nenv = 2;
}
END_TEST

/* detect's warning: a reset per worker, tests never told which application is theirs. */
START_TEST(worker_told_or_not)
{
	static const char *untold[] = {"/usr/bin/python3", "bin/fake-runner.py", "--report",
				       "{report}", "--", "{tests}"};
	static ut_envvar plain[] = {{"FAKE_LOG", NULL}};

	ck_assert_int_eq(run(0, 1), 0);
	ck_assert(!ut_runner_worker_untold(runner)); /* --tag=w{worker} and APP_WORKER */
	ut_runner_free(runner);
	runner = NULL;
	cfg.runner.command.items = untold;
	cfg.runner.command.n = 6;
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, fixture_dir(), fixture(0, "work/tmp")), 0);
	ck_assert(!ut_runner_worker_untold(runner)); /* env APP_WORKER={worker} tells it */
	ut_runner_free(runner);
	cfg.runner.env = plain;
	cfg.runner.nenv = 1;
	/* fake-runner.py itself reads UNTANGLE_WORKER: a project folder without it */
	untold[1] = fixture(1, "bin/fake-runner.py");
	ck_assert_int_eq(ut_fs_mkdirs(fixture(2, "plain/tests")), 0);
	ck_assert_int_eq(ut_fs_write_atomic(fixture(3, "plain/tests/test_a.py"), "x = 1\n", 6), 0);
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, fixture(2, "plain"), fixture(0, "work/tmp")),
			 0);
	ck_assert(ut_runner_worker_untold(runner));
	ut_runner_free(runner);
	/* ... until a file of the project reads it (a conftest.py's base URL) */
	ck_assert_int_eq(ut_fs_write_atomic(fixture(3, "plain/tests/conftest.py"),
					    "W = os.environ['UNTANGLE_WORKER']\n", 34), 0);
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, fixture(2, "plain"), fixture(0, "work/tmp")),
			 0);
	ck_assert(!ut_runner_worker_untold(runner));
	ut_runner_free(runner);
	ck_assert_int_eq(ut_fs_write_atomic(fixture(3, "plain/tests/conftest.py"), "W = 0\n", 6),
			 0);
	cfg.runner.reset.n = 0; /* no reset per worker: nothing to tell */
	ck_assert_int_eq(ut_runner_new(&runner, &cfg, fixture(2, "plain"), fixture(0, "work/tmp")),
			 0);
	ck_assert(!ut_runner_worker_untold(runner));
	cfg.runner.env = env;
	cfg.runner.nenv = 2;
}
END_TEST

/* untangle run's verdict: a failing and a not-run test fail the job, a skipped one does
 * not; its JSON report. */
START_TEST(tally_counts_what_fails_a_job)
{
	ut_run_tally t;
	ut_test_result only[2] = {{.outcome = UT_OUT_PASS}, {.outcome = UT_OUT_SKIPPED}};
	ut_run_result two = {.n = 2, .tests = only};
	ut_buf json = UT_BUF_INIT;
	ut_json *doc = NULL;
	const ut_json *test;

	setenv("FAKE_FAIL", "t.py::it's \"b\" [x y]", 1);
	setenv("FAKE_OMIT", "t.py::c", 1);
	ck_assert_int_eq(run(0, 3), 0);
	ut_run_tally_count(&t, &result);
	ck_assert_uint_eq(t.passed, 1);
	ck_assert_uint_eq(t.failed, 1);
	ck_assert_uint_eq(t.notrun, 1);
	ck_assert_uint_eq(t.skipped, 0);
	ck_assert(ut_run_tally_fails_job(&t));
	ck_assert(ut_outcome_fails_job(result.tests[2].outcome)); /* not run */
	ck_assert(!ut_outcome_fails_job(UT_OUT_SKIPPED));
	ck_assert_int_eq(ut_run_json(&json, "2/3", ids, &result, &t), 0);
	ck_assert_int_eq(ut_json_parse(&doc, json.ptr, json.len, "run"), 0);
	ck_assert_str_eq(ut_json_string(ut_json_get(doc, "shard")), "2/3");
	ck_assert_str_eq(ut_json_string(ut_json_get(doc, "status")), "ok");
	ck_assert(ut_json_number(ut_json_get(doc, "not_run")) == 1);
	test = ut_json_next(ut_json_first(ut_json_get(doc, "tests")));
	ck_assert_str_eq(ut_json_string(ut_json_get(test, "id")), ids[1]);
	ck_assert_str_eq(ut_json_string(ut_json_get(test, "outcome")), "fail");
	ck_assert_str_eq(ut_json_string(ut_json_get(test, "message")),
			 "AssertionError: it's \"b\" [x y] failed");
	ut_json_free(doc);
	ut_buf_dispose(&json);
	ut_run_tally_count(&t, &two);
	ck_assert_uint_eq(t.passed, 1);
	ck_assert_uint_eq(t.skipped, 1);
	ck_assert(!ut_run_tally_fails_job(&t));
	only[1].outcome = UT_OUT_NOTRUN;
	ut_run_tally_count(&t, &two);
	ck_assert(ut_run_tally_fails_job(&t));
}
END_TEST

Suite *runner_suite(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("runner");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 240); /* javac twice beside browser steps (ci/test) */
	tcase_add_test(tc, templates_reach_the_command);
	tcase_add_test(tc, outcomes_come_from_the_report);
	tcase_add_test(tc, missing_report_is_not_retried);
	tcase_add_test(tc, corrupt_report_is_not_retried);
	tcase_add_test(tc, detect_retries_a_run_a_fixed_number_of_times);
	tcase_add_test(tc, failing_reset_is_retried_once);
	tcase_add_test(tc, reset_that_keeps_failing);
	tcase_add_test(tc, timeout_is_not_retried);
	tcase_add_test(tc, interrupt_stops_the_run);
	tcase_add_test(tc, command_that_cannot_start);
	tcase_add_test(tc, configuration_errors);
	tcase_add_test(tc, presets_fill_the_command);
	tcase_add_test(tc, java_helper_is_compiled_once);
	tcase_add_test(tc, worker_told_or_not);
	tcase_add_test(tc, untangle_worker_from_runner_env_wins);
	tcase_add_test(tc, tally_counts_what_fails_a_job);
	tcase_add_test(tc, java_package_as_a_path);
	suite_add_tcase(s, tc);
	return s;
}
