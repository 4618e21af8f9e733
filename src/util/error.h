/* error.h: return codes and the one per-thread error message of libuntangle. */
#ifndef UT_ERROR_H
#define UT_ERROR_H

/* Every library function returns 0 on success or one of these. */
enum {
	UT_OK = 0,
	UT_ERROR = -1,     /* generic failure */
	UT_ENOMEM = -2,    /* allocation failed or a bounded buffer is full */
	UT_EINPUT = -3,    /* bad input: config, source, graph or report file */
	UT_ENOTFOUND = -4, /* a named thing does not exist */
	UT_ETIMEOUT = -5,  /* a child or an operation ran out of time */
	UT_EENV = -6,      /* the environment failed: a program would not start, a reset failed */
	UT_EINTR = -7      /* interrupted (ut_proc_interrupt): children stopped, nothing new starts */
};

/* Sets the message for the current thread and returns `code`, so that callers can
 * write `return ut_error_set(UT_EINPUT, "...")`. The message is truncated at 1 KiB. */
int ut_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The last message set on this thread; never NULL ("" when none). Borrowed. */
const char *ut_error_message(void);

/* The code passed with the last message, 0 when none. */
int ut_error_code(void);

void ut_error_clear(void);

#endif
