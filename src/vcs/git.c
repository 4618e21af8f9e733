/* git.c: the libgit2 adapter; the only file that includes libgit2's headers. */
#include "vcs/git.h"

#include <git2.h>
#include <stdio.h>

#include "util/banned.h"

const char *ut_git_version(void)
{
	static char buf[48];
	int major = 0, minor = 0, rev = 0;

	git_libgit2_version(&major, &minor, &rev);
	snprintf(buf, sizeof(buf), "libgit2 %d.%d.%d", major, minor, rev);
	return buf;
}
