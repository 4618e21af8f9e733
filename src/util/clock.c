/* clock.c: the monotonic and wall clock readings in seconds. */
#include "util/clock.h"

#include <time.h>

#include "util/banned.h"

static double read_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double ut_clock_mono(void)
{
	return read_clock(CLOCK_MONOTONIC);
}

double ut_clock_wall(void)
{
	return read_clock(CLOCK_REALTIME);
}
