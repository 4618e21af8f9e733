/* env.c: the environment untangle hands on, an allow-list, and the secrets it keeps from its
 * children: /proc/PID/environ of an ancestor shows the block the kernel placed at exec,
 * which only an overwrite in place hides. */
#define _DEFAULT_SOURCE /* explicit_bzero */
#include "util/env.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"
#include "util/glob.h"
#include "util/banned.h"

extern char **environ;

#define TAKE_MAX 8
#define NAME_MAX_LEN 255

static const char *const allowed[] = {
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "LANGUAGE", "LC_*", "TZ",
	"TMPDIR", "TMP", "TEMP", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_*",
	"DBUS_SESSION_BUS_ADDRESS", "CI", "NO_COLOR", "FORCE_COLOR", "COLORTERM", "JAVA_HOME",
	"JAVA_TOOL_OPTIONS", "MAVEN_OPTS", "GRADLE_USER_HOME", "CLASSPATH", "NODE_*", "PYTHON*",
	"VIRTUAL_ENV", "CONDA_PREFIX", "CHROME_BIN", "FIREFOX_BIN", "PLAYWRIGHT_BROWSERS_PATH",
	"PUPPETEER_EXECUTABLE_PATH", "SE_*", "SSL_CERT_FILE", "SSL_CERT_DIR", "ASAN_OPTIONS",
	"UBSAN_OPTIONS", "LSAN_OPTIONS", "UNTANGLE_RUNNERS",
	/* an outer untangle's marker: its supervisor finds this untangle by it */
	"UNTANGLE_RUN", NULL};

static bool sealed;
static struct {
	char *name, *value;
} taken[TAKE_MAX];
static size_t ntaken;

static size_t name_len(const char *var)
{
	const char *eq = strchr(var, '=');

	return eq ? (size_t)(eq - var) : strlen(var);
}

static bool contains(const char *var, const char *word)
{
	size_t n = name_len(var), w = strlen(word), i;

	for (i = 0; i + w <= n; i++)
		if (strncasecmp(var + i, word, w) == 0)
			return true;
	return false;
}

bool ut_env_secret_name(const char *var)
{
	return contains(var, "TOKEN") || contains(var, "SECRET") || contains(var, "PASSWORD") ||
	       contains(var, "PASSWD") || contains(var, "CREDENTIAL");
}

bool ut_env_named(const char *var, const char *const *patterns)
{
	char name[NAME_MAX_LEN + 1];
	size_t n = name_len(var), i;

	if (n > NAME_MAX_LEN)
		return false;
	memcpy(name, var, n);
	name[n] = '\0';
	for (i = 0; patterns && patterns[i]; i++)
		if (strcmp(patterns[i], name) == 0 || ut_glob_match(patterns[i], name))
			return true;
	return false;
}

bool ut_env_allowed(const char *var)
{
	return ut_env_named(var, allowed) && !ut_env_secret_name(var);
}

static bool is_taken(const char *var, const char *const *take)
{
	size_t n = name_len(var), i;

	for (i = 0; take && take[i]; i++)
		if (strlen(take[i]) == n && strncmp(var, take[i], n) == 0)
			return true;
	return false;
}

int ut_env_seal(const char *const *take)
{
	char **old = environ, **env = NULL;
	size_t n = 0, k = 0, i;

	if (sealed)
		return 0;
	while (old && old[n])
		n++;
	env = calloc(n + 1, sizeof(char *));
	if (!env)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		char *copy = strdup(old[i]);

		if (!copy)
			goto nomem;
		if (is_taken(copy, take) && ntaken < TAKE_MAX) {
			copy[name_len(copy)] = '\0';
			taken[ntaken].name = copy;
			taken[ntaken++].value = copy + strlen(copy) + 1;
		} else
			env[k++] = copy;
	}
	/* the copies are complete: from here the old strings may be blanked */
	environ = env;
	for (i = 0; i < n; i++)
		if (!ut_env_allowed(old[i]) || is_taken(old[i], take))
			explicit_bzero(old[i], strlen(old[i]));
	sealed = true;
	return 0;
nomem:
	while (k)
		free(env[--k]);
	while (ntaken)
		free(taken[--ntaken].name);
	free(env);
	return ut_error_set(UT_ENOMEM, "out of memory");
}

const char *ut_env_secret(const char *name)
{
	size_t i;

	for (i = 0; i < ntaken; i++)
		if (strcmp(taken[i].name, name) == 0)
			return taken[i].value;
	return getenv(name);
}
