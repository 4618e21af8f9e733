/* solver.c: the Z3 adapter; the only file that includes z3.h. */
#include "minimize/solver.h"

#include <stdio.h>
#include <z3.h>

#include "util/banned.h"

const char *ut_solver_version(void)
{
	static char buf[48];
	unsigned major = 0, minor = 0, build = 0, rev = 0;

	Z3_get_version(&major, &minor, &build, &rev);
	snprintf(buf, sizeof(buf), "Z3 %u.%u.%u", major, minor, build);
	return buf;
}
