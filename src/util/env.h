/* env.h: untangle's own environment kept out of the reach of the processes it starts: the
 * allow-list a child's environment is drawn from, and the secrets held in memory only. */
#ifndef UT_ENV_H
#define UT_ENV_H

#include <stdbool.h>

/* Seals the environment; call it first in main, before any thread or child starts.
 * The variables move to the heap, and in the block the kernel shows as /proc/PID/environ
 * (which unsetenv does not change, and which every process of the same user can read,
 * the tests untangle runs included) each variable off the allow-list is overwritten with
 * NUL bytes. The variables named in take (NULL-terminated; GITHUB_TOKEN for the post) also
 * leave the environment: ut_env_secret returns them, from memory only. A second call does
 * nothing. 0 or UT_ENOMEM. */
int ut_env_seal(const char *const *take);

/* A variable ut_env_seal took out of the environment (borrowed, NULL if it was not set),
 * else getenv(name). */
const char *ut_env_secret(const char *name);

/* Whether a child gets this variable ("NAME" or "NAME=VALUE") of untangle's environment
 * by default: PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG, LANGUAGE, LC_*, TZ, TMPDIR,
 * TMP, TEMP, DISPLAY, WAYLAND_DISPLAY, XAUTHORITY, XDG_*, DBUS_SESSION_BUS_ADDRESS, CI,
 * NO_COLOR, FORCE_COLOR, COLORTERM, JAVA_HOME, JAVA_TOOL_OPTIONS, MAVEN_OPTS,
 * GRADLE_USER_HOME, CLASSPATH, NODE_*, PYTHON*, VIRTUAL_ENV, CONDA_PREFIX, CHROME_BIN,
 * FIREFOX_BIN, PLAYWRIGHT_BROWSERS_PATH, PUPPETEER_EXECUTABLE_PATH, SE_*, SSL_CERT_FILE,
 * SSL_CERT_DIR, ASAN_OPTIONS, UBSAN_OPTIONS, LSAN_OPTIONS, UNTANGLE_RUNNERS, UNTANGLE_RUN
 * (an outer untangle's marker, ut_proc_track); but never a
 * name that looks like a secret (ut_env_secret_name: NODE_AUTH_TOKEN). */
bool ut_env_allowed(const char *var);

/* Whether a variable's name ("NAME" or "NAME=VALUE") looks like a secret: it holds TOKEN,
 * SECRET, PASSWORD, PASSWD or CREDENTIAL in any case (GITHUB_TOKEN, CI_JOB_TOKEN, ...). */
bool ut_env_secret_name(const char *var);

/* Whether var ("NAME" or "NAME=VALUE") is named by one of patterns (NULL-terminated names
 * or globs such as "AWS_*", ut_glob_match). */
bool ut_env_named(const char *var, const char *const *patterns);

#endif
