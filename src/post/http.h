/* http.h: HTTP requests for posting reports to code hosts (the libcurl adapter).
 *
 * One request, one response: no retries here (post/github.c decides what is worth
 * retrying). Request headers are sent as given and never written into a message, so a
 * credential in "Authorization: ..." stays out of every error. */
#ifndef UT_HTTP_H
#define UT_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

/* Responses are cut (and the request fails) beyond these. */
#define UT_HTTP_MAX_BODY (8u * 1024u * 1024u)
#define UT_HTTP_MAX_HEADERS (64u * 1024u)

typedef struct {
	const char *method;	    /* "GET", "POST", "PATCH", ... */
	const char *url;	    /* http:// or https:// only */
	const char *const *headers; /* "Name: value" lines, without line breaks */
	size_t nheaders;
	const char *body; /* NULL: no body */
	size_t body_len;
	long timeout_s; /* the whole request; 0: 30 */
} ut_http_request;

typedef struct {
	long status;	/* HTTP status; 0 when no response arrived */
	ut_buf body;	/* the response body (bounded by UT_HTTP_MAX_BODY) */
	ut_buf headers; /* the final response's header lines (bounded by UT_HTTP_MAX_HEADERS) */
	bool sent;	/* the request went out (some of it was written to a connection): without
			   a response, a POST may still have taken effect */
} ut_http_response;

/* "libcurl 7.88.1" */
const char *ut_http_version(void);

void ut_http_response_init(ut_http_response *r);
/* Frees the response's buffers. Accepts NULL. */
void ut_http_response_dispose(ut_http_response *r);

/* Sends req and fills out (cleared first). Returns 0 when a response arrived, whatever
 * its status; UT_EENV when none did (no connection, timeout, TLS failure, a response
 * over the limits), with a message naming the method and the URL; UT_EINPUT for a
 * header with a line break or a URL that is not http(s); UT_ENOMEM. */
int ut_http_send(ut_http_response *out, const ut_http_request *req);

/* Copies the value of the response header `name` (case-insensitive, surrounding blanks
 * removed) into value[size]. 1 when present, 0 when not. */
int ut_http_header(const ut_http_response *r, const char *name, char *value, size_t size);

#endif
