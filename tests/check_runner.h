/* check_runner.h: the temporary copy of tests/fixtures/runner shared by the runner
 * module's suites (check_junit.c, check_process.c, check_runner.c). */
#ifndef UT_CHECK_RUNNER_H
#define UT_CHECK_RUNNER_H

#include <pthread.h>

/* Checked-fixture setup and teardown: copy the fixtures into a fresh temporary folder,
 * remove it afterwards. */
void runner_fixture_setup(void);
void runner_fixture_teardown(void);

/* The temporary folder, and a path inside it (static storage: valid until the next call
 * with the same slot 0..3). */
const char *fixture_dir(void);
const char *fixture(int slot, const char *rel);

/* Sleeps ms milliseconds. */
void msleep(int ms);
/* Starts a thread that calls ut_proc_interrupt() after ms milliseconds (join it). */
void interrupt_after(pthread_t *thread, int ms);

/* Whether process pid still runs (a zombie counts as gone). */
int pid_alive(int pid);
/* Whether it is gone within 2 s (SIGKILL takes effect asynchronously). */
int pid_dies(int pid);
/* The pid written into a file by a fixture script (waits up to 2 s for it), or -1. */
int pid_from(const char *path);

#endif
