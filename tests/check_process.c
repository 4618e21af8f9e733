/* check_process.c: real child processes: exit status, signals, timeouts that kill a whole
 * process group, programs that cannot start, bounded output, environment and PATH,
 * strays holding the pipe, the interrupt, and concurrent runs from threads.
 *
 * Wall-time bounds say that nothing waited for the fixtures' hangs (300 s) or a 30 s
 * timeout: 15 s, not the 2 s these take on an idle machine, as ci/test runs them beside
 * browser steps on two cores (a load of 8 to 20). */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_runner.h"
#include "proc/internal.h"
#include "proc/process.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/error.h"
#include "util/pool.h"

Suite *process_suite(void);

static ut_proc_result res;

static void teardown(void)
{
	ut_proc_result_dispose(&res);
	runner_fixture_teardown();
}

/* Runs sh with a fixture script and arguments, in the fixture folder. */
static int run_sh(const char *script, const char *arg, double timeout_s, bool kill_strays)
{
	const char *argv[] = {"/bin/sh", fixture(1, script), arg, NULL};
	ut_proc_opts o = {argv, fixture_dir(), NULL, timeout_s, 0.3, 0, kill_strays, NULL, false};

	ut_proc_result_dispose(&res);
	return ut_proc_run(&res, &o);
}

START_TEST(exit_status_and_output)
{
	ck_assert_int_eq(run_sh("bin/exit3.sh", NULL, 10, false), 0);
	ck_assert_int_eq(res.state, UT_PROC_EXITED);
	ck_assert_int_eq(res.exit_code, 3);
	ck_assert_int_eq(res.signal, 0);
	ck_assert_ptr_nonnull(strstr(res.tail, "to stdout\n"));
	ck_assert_ptr_nonnull(strstr(res.tail, "to stderr\n"));
	ck_assert_uint_eq(res.dropped, 0);
	ck_assert(res.pid > 0);
	ck_assert(res.wall_s > 0 && res.wall_s < 15);
	ck_assert_str_eq(ut_proc_state_name(res.state), "exited");
}
END_TEST

START_TEST(killed_by_a_signal)
{
	char how[128];

	ck_assert_int_eq(run_sh("bin/selfkill.sh", NULL, 10, false), 0);
	ck_assert_int_eq(res.state, UT_PROC_SIGNALED);
	ck_assert_int_eq(res.signal, SIGUSR1);
	ck_assert_int_eq(res.exit_code, -1);
	ck_assert_ptr_nonnull(strstr(res.tail, "about to die"));
	ck_assert_ptr_nonnull(strstr(ut_proc_describe(&res, how, sizeof(how)), "signal 10"));
}
END_TEST

START_TEST(timeout_kills_the_group)
{
	const char *pidfile = fixture(2, "grandchild.pid");
	int grandchild;

	ck_assert_int_eq(run_sh("bin/hang.sh", pidfile, 0.5, false), UT_ETIMEOUT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "timeout"));
	ck_assert_int_eq(res.state, UT_PROC_TIMEOUT);
	ck_assert_int_eq(res.signal, SIGKILL); /* it ignored SIGTERM */
	ck_assert_msg(res.wall_s >= 0.5 && res.wall_s < 15, "took %.2f s", res.wall_s);
	ck_assert_ptr_nonnull(strstr(res.tail, "hanging"));
	grandchild = pid_from(pidfile);
	ck_assert_int_gt(grandchild, 0);
	ck_assert_msg(pid_dies(grandchild), "grandchild %d survived", grandchild);
}
END_TEST

/* The runner dies at the SIGTERM of its timeout; its setsid child ignores SIGTERM and is
 * no descendant of it any more: it is SIGKILLed after the grace all the same, not left
 * running until untangle ends. */
START_TEST(timeout_kills_a_stubborn_setsid_child)
{
	const char *pidfile = fixture(2, "setsid.pid");
	int child;

	ck_assert_int_eq(run_sh("bin/setsid-stubborn.sh", pidfile, 0.5, false), UT_ETIMEOUT);
	ck_assert_int_eq(res.signal, SIGTERM); /* the runner died at once */
	child = pid_from(pidfile);
	ck_assert_int_gt(child, 0);
	ck_assert_msg(pid_dies(child), "setsid child %d survived its runner's timeout", child);
	ck_assert_msg(res.wall_s >= 0.5 + 0.3 - 0.05 && res.wall_s < 15,
		      "took %.2f s: the child gets the grace (0.3 s) first", res.wall_s);
	if (pid_alive(child))
		kill(child, SIGKILL);
}
END_TEST

START_TEST(could_not_start)
{
	const char *missing[] = {"ut-no-such-program", "x", NULL};
	const char *relative[] = {"./no/such/script", NULL};
	const char *noexec[] = {fixture(1, "bin/exit3.sh"), NULL};
	const char *ok[] = {"/bin/true", NULL};
	ut_proc_opts o = {missing, NULL, NULL, 10, 0, 0, false, NULL, false};

	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EENV);
	ck_assert_int_eq(res.state, UT_PROC_NOSTART);
	ck_assert_int_eq(res.start_errno, ENOENT);
	ck_assert_int_eq(res.pid, 0);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "ut-no-such-program"));
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "No such file or directory"));
	ck_assert_str_eq(res.tail, "");
	ut_proc_result_dispose(&res);

	o.argv = relative;
	o.cwd = fixture_dir();
	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EENV);
	ck_assert_int_eq(res.start_errno, ENOENT);
	ut_proc_result_dispose(&res);

	o.argv = noexec; /* not executable */
	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EENV);
	ck_assert_int_eq(res.start_errno, EACCES);
	ut_proc_result_dispose(&res);

	o.argv = ok;
	o.cwd = fixture(0, "no-such-folder");
	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EENV);
	ck_assert_int_eq(res.start_errno, ENOENT);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "cannot change to directory"));
	ut_proc_result_dispose(&res);

	o.argv = NULL;
	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EINPUT);
}
END_TEST

START_TEST(output_tail_is_bounded)
{
	const char *argv[] = {"/bin/sh", fixture(1, "bin/bigout.sh"), NULL};
	ut_proc_opts o = {argv, NULL, NULL, 10, 0, 1000, false, NULL, false};

	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_uint_eq(res.tail_len, 1000);
	ck_assert_uint_eq(strlen(res.tail), 1000);
	ck_assert_uint_eq(res.dropped, 200004 - 1000);
	ck_assert_str_eq(res.tail + 996, "END\n");
	ck_assert_int_eq(res.tail[0], 'x');
	ut_proc_result_dispose(&res);

	o.tail_max = 0; /* the default, 64 KiB */
	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_uint_eq(res.tail_len, 65536);
	ck_assert_uint_eq(res.dropped, 200004 - 65536);
}
END_TEST

START_TEST(environment_and_path)
{
	char path[4200];
	const char *argv[] = {"/bin/sh", "bin/env.sh", "it's \"quoted\"", "", "*", NULL};
	const char *hello[] = {"hello", NULL};
	const char *env[] = {"UT_FOO=first", "UT_FOO=bar baz", NULL, NULL};
	const char *pass[] = {"UT_KEEP", NULL};
	ut_proc_opts o = {argv, fixture_dir(), env, 10, 0, 0, false, pass, false};

	ck_assert_int_eq(setenv("UT_KEEP", "kept", 1), 0);
	ck_assert_int_eq(setenv("UT_FOO", "parent", 1), 0);
	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_msg(strstr(res.tail, "arg=it's \"quoted\"\narg=\narg=*\n") != NULL, "%s", res.tail);
	ck_assert_ptr_nonnull(strstr(res.tail, "UT_FOO=bar baz\n"));
	ck_assert_ptr_nonnull(strstr(res.tail, "UT_KEEP=kept\n"));
	snprintf(path, sizeof(path), "cwd=%s\n", fixture_dir());
	ck_assert_ptr_nonnull(strstr(res.tail, path));
	ut_proc_result_dispose(&res);

	/* "hello" is only in bin/, which only the child's PATH names (relative to its cwd) */
	ck_assert_int_eq(chmod(fixture(1, "bin/hello"), 0755), 0);
	o.argv = hello;
	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EENV);
	ut_proc_result_dispose(&res);
	env[1] = "PATH=/nonexistent:bin:/usr/bin:/bin";
	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_str_eq(res.tail, "hello from bin/hello\n");
	ut_proc_result_dispose(&res);

	env[1] = "NOEQUALS";
	ck_assert_int_eq(ut_proc_run(&res, &o), UT_EINPUT);
}
END_TEST

START_TEST(secrets_stay_out_of_the_environment)
{
	const char *argv[] = {"/usr/bin/env", NULL};
	const char *pass[] = {"UT_PASSED_TOKEN", "UT_GLOB_*", NULL};
	const char *env[] = {"UT_SET_SECRET=configured", NULL};
	ut_proc_opts o = {argv, NULL, env, 10, 0, 0, false, pass, false};

	ck_assert_int_eq(setenv("GITHUB_TOKEN", "ghp_x", 1), 0);
	ck_assert_int_eq(setenv("db_Password", "p", 1), 0);
	ck_assert_int_eq(setenv("UT_PASSED_TOKEN", "passed", 1), 0);
	ck_assert_int_eq(setenv("UT_SET_SECRET", "mine", 1), 0);
	ck_assert_int_eq(setenv("UT_PLAIN", "plain", 1), 0);
	ck_assert_int_eq(setenv("UT_GLOB_A", "globbed", 1), 0);
	ck_assert_int_eq(setenv("NODE_AUTH_TOKEN", "npm_x", 1), 0);
	ck_assert_int_eq(setenv("LC_TIME", "C", 1), 0);
	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_msg(!strstr(res.tail, "GITHUB_TOKEN") && !strstr(res.tail, "db_Password") &&
		      !strstr(res.tail, "NODE_AUTH_TOKEN"), "%s", res.tail);
	ck_assert_ptr_nonnull(strstr(res.tail, "UT_PASSED_TOKEN=passed\n"));
	ck_assert_ptr_nonnull(strstr(res.tail, "UT_SET_SECRET=configured\n"));
	ck_assert_ptr_nonnull(strstr(res.tail, "UT_GLOB_A=globbed\n"));
	ck_assert_ptr_nonnull(strstr(res.tail, "LC_TIME=C\n"));
	/* off the allow-list: a variable untangle has is no test's business */
	ck_assert_msg(!strstr(res.tail, "UT_PLAIN="), "%s", res.tail);
	ck_assert_ptr_nonnull(strstr(res.tail, "PATH="));
	ut_proc_result_dispose(&res);
	o.keep_secrets = true;
	ck_assert_int_eq(ut_proc_run(&res, &o), 0);
	ck_assert_ptr_nonnull(strstr(res.tail, "GITHUB_TOKEN=ghp_x\n"));
	ck_assert(ut_env_secret_name("CI_JOB_TOKEN=1") && ut_env_secret_name("my_secret"));
	ck_assert(!ut_env_secret_name("TOKE") && !ut_env_secret_name("PATH=/TOKEN"));
	ck_assert(ut_env_allowed("LANG=C") && ut_env_allowed("PYTHONPATH") &&
		  !ut_env_allowed("AWS_ACCESS_KEY_ID=x") && !ut_env_allowed("NODE_AUTH_TOKEN"));
	unsetenv("NODE_AUTH_TOKEN");
	unsetenv("GITHUB_TOKEN");
	unsetenv("db_Password");
}
END_TEST

/* ut_env_seal in the test's own process (Check forks each test: nothing leaks to the next):
 * the initial block that /proc/self/environ shows keeps only the allow-list; the taken
 * secret is readable from memory only. */
START_TEST(sealed_environment)
{
	static const char *const take[] = {"UT_SEAL_TAKEN", NULL};
	char *env, *p;
	size_t len = 0;
	FILE *f;

	if (getenv("CK_FORK") && strcmp(getenv("CK_FORK"), "no") == 0)
		return; /* it would change the environment of every later test */
	ck_assert_int_eq(setenv("UT_SEAL_TAKEN", "ghp_taken", 1), 0);
	ck_assert_int_eq(setenv("UT_SEAL_KEPT", "kept", 1), 0);
	ck_assert_int_eq(ut_env_seal(take), 0);
	ck_assert_ptr_null(getenv("UT_SEAL_TAKEN"));
	ck_assert_str_eq(ut_env_secret("UT_SEAL_TAKEN"), "ghp_taken");
	ck_assert_str_eq(getenv("UT_SEAL_KEPT"), "kept"); /* untangle still has it */
	ck_assert_ptr_nonnull(getenv("PATH"));
	f = fopen("/proc/self/environ", "r");
	ck_assert_ptr_nonnull(f);
	env = calloc(1, 1 << 20);
	len = fread(env, 1, (1 << 20) - 1, f);
	fclose(f);
	/* every entry left in the block is on the allow-list (blanked ones read as empty) */
	for (p = env; p < env + len; p += strlen(p) + 1)
		ck_assert_msg(!*p || ut_env_allowed(p), "'%s' is still in /proc/self/environ", p);
	free(env);
	ck_assert_int_eq(ut_env_seal(take), 0); /* a second call does nothing */
	ck_assert_str_eq(ut_env_secret("UT_SEAL_TAKEN"), "ghp_taken");
}
END_TEST

START_TEST(strays_do_not_hang_the_reader)
{
	const char *pidfile = fixture(2, "stray.pid");
	int stray;

	ck_assert_int_eq(run_sh("bin/stray.sh", pidfile, 30, false), 0);
	ck_assert_int_eq(res.exit_code, 0);
	ck_assert_msg(res.wall_s < 15, "took %.2f s", res.wall_s);
	ck_assert_ptr_nonnull(strstr(res.tail, "done"));
	stray = pid_from(pidfile);
	ck_assert(pid_alive(stray)); /* left alone: resets start daemons */
	kill(stray, SIGKILL);

	ck_assert_int_eq(run_sh("bin/stray.sh", pidfile, 30, true), 0);
	ck_assert_msg(res.wall_s < 15, "took %.2f s", res.wall_s);
	stray = pid_from(pidfile);
	ck_assert_msg(pid_dies(stray), "stray %d survived", stray);
}
END_TEST

/* A process group of its own that sleeps until it is killed (the caller reaps it). */
static pid_t sleeping_group(void)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setsid();
		for (;;)
			pause();
	}
	return pid;
}

/* When untangle is gone, its supervisor kills the groups its run recorded, and only those:
 * the file may already hold the next untangle's groups (a shard job right after a detect in
 * the same project), which once lost its runner to the previous run's supervisor. */
START_TEST(supervisor_kills_only_its_own_groups)
{
	char dir[] = "/tmp/ut-groups-XXXXXX", file[64], text[256];
	pid_t stranger = sleeping_group(), own = sleeping_group(), run;
	int status, i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/pgroups", dir);
	run = fork();
	ck_assert_int_ge(run, 0);
	if (run == 0) { /* an untangle run: it tracks, then the file is the next run's too */
		if (ut_proc_track(file) < 0)
			_exit(2);
		snprintf(text, sizeof(text), "%ld 999-1.000000001\n%ld %s\n", (long)stranger,
			 (long)own, ut_proc__marker() + strlen("UNTANGLE_RUN="));
		_exit(ut_fs_write_atomic(file, text, strlen(text)) < 0 ? 3 : 0);
	}
	ck_assert_int_eq(waitpid(run, &status, 0), run);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	for (i = 0; i < 3000 && pid_alive(own); i++) /* the supervisor reads the file in order */
		msleep(10);
	ck_assert_msg(!pid_alive(own), "the run's own group was not killed");
	ck_assert_msg(pid_alive(stranger), "the next run's group was killed");
	kill(stranger, SIGKILL);
	waitpid(stranger, &status, 0);
	waitpid(own, &status, 0);
	unlink(file);
	rmdir(dir);
}
END_TEST

START_TEST(interrupt_stops_runs)
{
	const char *pidfile = fixture(2, "grandchild.pid");
	pthread_t t;

	ck_assert(!ut_proc_interrupted());
	interrupt_after(&t, 300);
	ck_assert_int_eq(run_sh("bin/hang.sh", pidfile, 0, false), UT_EINTR);
	pthread_join(t, NULL);
	ck_assert_int_eq(res.state, UT_PROC_INTERRUPTED);
	ck_assert_msg(res.wall_s < 15, "took %.2f s", res.wall_s);
	ck_assert(pid_dies(pid_from(pidfile)));
	ck_assert(ut_proc_interrupted());
	/* nothing new starts */
	ck_assert_int_eq(run_sh("bin/exit3.sh", NULL, 10, false), UT_EINTR);
	ck_assert_int_eq(res.state, UT_PROC_INTERRUPTED);
	ck_assert_int_eq(res.pid, 0);
	ut_proc_interrupt_clear();
	ck_assert_int_eq(run_sh("bin/exit3.sh", NULL, 10, false), 0);
	ck_assert_int_eq(res.exit_code, 3);
}
END_TEST

static void *echo_many(void *arg)
{
	char word[32];
	const char *argv[] = {"/bin/echo", word, NULL};
	ut_proc_opts o = {argv, NULL, NULL, 10, 0, 0, true, NULL, false};
	ut_proc_result r;
	long bad = 0;
	int i;

	for (i = 0; i < 10; i++) {
		snprintf(word, sizeof(word), "thread-%ld-%d", (long)(intptr_t)arg, i);
		if (ut_proc_run(&r, &o) != 0 || r.exit_code != 0 || strncmp(r.tail, word, strlen(word)))
			bad++;
		ut_proc_result_dispose(&r);
	}
	return (void *)(intptr_t)bad;
}

START_TEST(concurrent_runs)
{
	pthread_t t[8];
	void *bad;
	long i;

	for (i = 0; i < 8; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, echo_many, (void *)(intptr_t)i), 0);
	for (i = 0; i < 8; i++) {
		pthread_join(t[i], &bad);
		ck_assert_int_eq((intptr_t)bad, 0);
	}
}
END_TEST

/* ut_proc_call's children: what treesitter.c's trial parse does, allocation included. */
static int child_allocates(void *arg)
{
	static const char msg[] = "from the child\n";
	size_t i;
	ssize_t w;

	/* 3 MiB of 64-byte blocks: new slabs, so the pool's lock, in the child */
	for (i = 0; i < 3u * 1024 * 1024 / 80; i++)
		((char *)ut_pool_malloc(64))[0] = 1;
	w = write(1, msg, sizeof(msg) - 1);
	(void)w;
	return (int)(intptr_t)arg;
}

static int child_aborts(void *arg)
{
	(void)arg;
	abort();
}

static int child_hangs(void *arg)
{
	(void)arg;
	sleep(30);
	return 0;
}

START_TEST(call_runs_a_function_in_a_child)
{
	ut_proc_opts o = {NULL, NULL, NULL, 10, 0.3, 0, false, NULL, false};
	char how[128];

	ck_assert_int_eq(ut_proc_call(&res, &o, "trial", child_allocates, (void *)7), 0);
	ck_assert_int_eq(res.state, UT_PROC_EXITED);
	ck_assert_int_eq(res.exit_code, 7);
	ck_assert_str_eq(res.tail, "from the child\n");
	ut_proc_result_dispose(&res);
	ck_assert_int_eq(ut_proc_call(&res, &o, "trial", child_aborts, NULL), 0);
	ck_assert_int_eq(res.state, UT_PROC_SIGNALED);
	ck_assert_int_eq(res.signal, SIGABRT);
	ut_proc_result_dispose(&res);
	o.timeout_s = 0.3;
	ck_assert_int_eq(ut_proc_call(&res, &o, "trial", child_hangs, NULL), UT_ETIMEOUT);
	ck_assert_int_eq(res.state, UT_PROC_TIMEOUT);
	ck_assert(res.wall_s < 15);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "'trial' ran past its timeout"));
	ck_assert_ptr_nonnull(strstr(ut_proc_describe(&res, how, sizeof(how)), "timed out"));
	ut_proc_result_dispose(&res);
	ut_proc_interrupt();
	ck_assert_int_eq(ut_proc_call(&res, &o, "trial", child_allocates, NULL), UT_EINTR);
	ck_assert_int_eq(res.state, UT_PROC_INTERRUPTED);
	ut_proc_interrupt_clear();
}
END_TEST

#ifndef __SANITIZE_ADDRESS__ /* see process_suite */
/* A fresh thread's first block cuts a slab under the pool's lock: children forked from
 * other threads meanwhile must still get the lock (fork handlers), never hang. */
static void *pool_user(void *arg)
{
	(void)arg;
	ut_pool_free(ut_pool_malloc(32));
	return NULL;
}

/* NULL when every call went well, else what the first failure was (malloc'd). */
static void *call_many(void *arg)
{
	ut_proc_opts o = {NULL, NULL, NULL, 20, 0.3, 0, false, NULL, false};
	ut_proc_result r;
	char how[128], *why = NULL;
	int i, rc;

	(void)arg;
	for (i = 0; i < 8; i++) {
		pthread_t t;
		bool started = pthread_create(&t, NULL, pool_user, NULL) == 0;

		rc = ut_proc_call(&r, &o, "trial", child_allocates, (void *)3);
		if (!why && (!started || rc != 0 || r.exit_code != 3) && (why = malloc(512)))
			snprintf(why, 512, "call %d: thread %s, rc %d (%s), child %s", i,
				 started ? "started" : "not started", rc, rc ? ut_error_message() : "",
				 ut_proc_describe(&r, how, sizeof(how)));
		ut_proc_result_dispose(&r);
		if (started)
			pthread_join(t, NULL);
	}
	return why;
}

START_TEST(calls_from_threads_using_the_pool)
{
	pthread_t t[4];
	void *why;
	long i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, call_many, NULL), 0);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &why);
		ck_assert_msg(why == NULL, "%s", why ? (char *)why : "");
	}
}
END_TEST
#endif

Suite *process_suite(void)
{
	Suite *s = suite_create("process");
	TCase *tc = tcase_create("process");

	tcase_add_checked_fixture(tc, runner_fixture_setup, teardown);
	tcase_add_test(tc, exit_status_and_output);
	tcase_add_test(tc, killed_by_a_signal);
	tcase_add_test(tc, timeout_kills_the_group);
	tcase_add_test(tc, timeout_kills_a_stubborn_setsid_child);
	tcase_add_test(tc, could_not_start);
	tcase_add_test(tc, output_tail_is_bounded);
	tcase_add_test(tc, environment_and_path);
	tcase_add_test(tc, secrets_stay_out_of_the_environment);
	tcase_add_test(tc, sealed_environment);
	tcase_add_test(tc, strays_do_not_hang_the_reader);
	tcase_add_test(tc, supervisor_kills_only_its_own_groups);
	tcase_add_test(tc, interrupt_stops_runs);
	tcase_add_test(tc, concurrent_runs);
	tcase_add_test(tc, call_runs_a_function_in_a_child);
#ifndef __SANITIZE_ADDRESS__
	/* Forks while other threads allocate: GCC 12's AddressSanitizer allocator has no fork
	 * handlers, so a child forked while another thread holds its lock waits forever (seen
	 * once in ci/test: a 20 s timeout). untangle never forks while other threads run
	 * (docs/known-limits.md); the pool's own handlers are checked in the Release build. */
	tcase_add_test(tc, calls_from_threads_using_the_pool);
#endif
	suite_add_tcase(s, tc);
	return s;
}
