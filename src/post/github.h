/* github.h: posting findings to GitHub (untangle check --post github): a check run with
 * the annotations and a pull-request comment with the Markdown summary.
 *
 * Requests, in order:
 *   POST  {api}/repos/{owner}/{repo}/check-runs           output.annotations: the first 50
 *   PATCH {api}/repos/{owner}/{repo}/check-runs/{id}      the next 50, and so on; the last
 *                                                         request completes the run
 *   POST  {api}/repos/{owner}/{repo}/issues/{n}/comments  when the event is a pull request
 * A request that gets a 5xx, no response, or a secondary rate limit (403 or 429 with
 * Retry-After, or with x-ratelimit-remaining: 0) is retried with exponential backoff;
 * Retry-After and x-ratelimit-reset are honoured, each wait capped at max_delay_ms.
 *
 * The token is sent only in the Authorization header: no message, result or request body
 * holds it (any text that comes back with it is redacted). */
#ifndef UT_GITHUB_H
#define UT_GITHUB_H

#include <stddef.h>

#include "report/findings.h"

/* The variable of the token. main() takes it out of the environment (ut_env_seal) before
 * any child starts; ut_github_opts_from_env reads it back with ut_env_secret. */
#define UT_GITHUB_TOKEN "GITHUB_TOKEN"

/* GitHub takes at most this many annotations per check-run request. */
#define UT_GITHUB_ANNOTATIONS_PER_REQUEST 50
/* GitHub's limit for a check run's output.summary and for a comment's body. */
#define UT_GITHUB_MAX_TEXT 65535

typedef struct {
	const char *token;	/* $GITHUB_TOKEN; required */
	const char *api_url;	/* $GITHUB_API_URL; NULL: https://api.github.com */
	const char *repository; /* $GITHUB_REPOSITORY, "owner/name"; required */
	const char
	    *event_path; /* $GITHUB_EVENT_PATH: pull_request.number, .head.sha; may be NULL */
	const char *sha; /* $GITHUB_SHA: the head when the event is not a pull request */
	const char *check_name; /* NULL: "untangle" */
	long base_delay_ms;	/* the first retry's wait, doubled each time; 0: 1000 */
	long max_delay_ms;	/* the longest single wait; 0: 60000 */
	int max_attempts;	/* per request; 0: 5 */
	long timeout_s;		/* per request; 0: 30 */
} ut_github_opts;

typedef struct {
	long check_run_id;  /* 0 until the check run was created */
	long comment_id;    /* 0 when no comment was posted */
	long pull_request;  /* 0 when the event is not a pull request */
	size_t requests;    /* HTTP requests sent, retries included */
	size_t annotations; /* annotations sent (findings with a file) */
} ut_github_result;

/* Fills o from the environment (GITHUB_TOKEN, through ut_env_secret, GITHUB_API_URL,
 * GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_SHA); the strings are borrowed from the
 * environment and the other fields are 0. */
void ut_github_opts_from_env(ut_github_opts *o);

/* Posts the sorted findings (annotations on their file and lines; findings without a file
 * are only in the summary) and `summary` (Markdown, cut to UT_GITHUB_MAX_TEXT bytes) as
 * described above. The check run concludes "failure" when there is an error, else
 * "success". out (may be NULL) says what was done, also on failure.
 * Returns 0; UT_EINPUT for missing or malformed options or event file; UT_EENV when GitHub
 * could not be reached or refused a request (the message names the request and the
 * status, never the token); UT_ENOMEM. */
int ut_github_post(ut_github_result *out, const ut_github_opts *o, const ut_findings *fs,
		   const char *summary);

#endif
