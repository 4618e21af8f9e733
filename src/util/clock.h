/* clock.h: the two clock readings every module uses (seconds, as a double). */
#ifndef UT_UTIL_CLOCK_H
#define UT_UTIL_CLOCK_H

/* Monotonic seconds since an unspecified point: for durations, budgets and timeouts. */
double ut_clock_mono(void);

/* Wall-clock seconds since the epoch: only for times a person or a file's mtime reads. */
double ut_clock_wall(void);

#endif
