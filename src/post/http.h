/* http.h: posting reports to code hosts (libcurl). */
#ifndef UT_HTTP_H
#define UT_HTTP_H

/* "libcurl 7.88.1" */
const char *ut_http_version(void);

#endif
