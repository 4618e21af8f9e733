/* compiled.c: a Java preset's helper compiled once. `java Helper.java` (the source-file
 * launcher) compiles the helper again in every run, about 2 to 3 s each on a suite whose
 * tests take seconds; the helper is compiled here with javac into a folder of the work
 * directory named by a hash of its source, and every run after uses the classes. */
#include "runner/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "proc/process.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/banned.h"

#define JAVAC_TIMEOUT_S 300.0
#define JAVA_RELEASE "11" /* the source launcher's own minimum: the classes run on any JDK
			     that could run the source */

/* javac into tmp, then tmp renamed to dir (another untangle may have won the race: its
 * classes are the same). true when dir holds the classes. */
static bool compile(const char *src, const char *dir, const char *name, const char *root,
		    const char *const *env, const char *const *pass)
{
	char tmp[4096], cls[4096];
	const char *argv[] = {"javac", "--release", JAVA_RELEASE, "-nowarn", "-d", tmp, src, NULL};
	ut_proc_opts o = {argv, root, env, JAVAC_TIMEOUT_S, 0, 0, true, pass, false};
	ut_proc_result res;
	bool ok;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", dir, (long)getpid()) >= sizeof(tmp) ||
	    (size_t)snprintf(cls, sizeof(cls), "%s/%s.class", tmp, name) >= sizeof(cls))
		return false;
	ut_fs_remove_tree(tmp);
	if (ut_fs_mkdirs(tmp) < 0) {
		ut_error_clear();
		return false;
	}
	ok = ut_proc_run(&res, &o) == 0 && res.state == UT_PROC_EXITED && res.exit_code == 0 &&
	     ut_fs_exists(cls);
	ut_proc_result_dispose(&res);
	ut_error_clear();
	if (ok && rename(tmp, dir) < 0)
		ok = errno == EEXIST || errno == ENOTEMPTY;
	ut_fs_remove_tree(tmp);
	return ok;
}

const char *ut_runner__java_classes(ut_arena *a, const char *src, const char *name,
				    const char *root, const char *work,
				    const char *const *env, const char *const *pass)
{
	ut_buf text = UT_BUF_INIT;
	const char *dir = NULL, *cls;
	uint64_t h;

	if (ut_fs_read(&text, src, 1u << 24) < 0 || strchr(work, ':')) {
		ut_error_clear();
		ut_buf_dispose(&text);
		return NULL;
	}
	h = ut_hash_more(ut_hash_more(UT_HASH_BASIS, JAVA_RELEASE, strlen(JAVA_RELEASE)),
			 text.ptr ? text.ptr : "", text.len);
	ut_buf_dispose(&text);
	dir = ut_arena_printf(a, "%s/java-%s-%016" PRIx64, work, name, h);
	cls = dir ? ut_arena_printf(a, "%s/%s.class", dir, name) : NULL;
	if (!cls)
		return NULL;
	if (ut_fs_exists(cls))
		return dir;
	return compile(src, dir, name, root, env, pass) ? dir : NULL;
}
