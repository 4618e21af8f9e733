/* github.c: a check run with annotations and a pull-request comment, through post/http. */
#include "post/github.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "json/json.h"
#include "post/http.h"
#include "util/env.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/banned.h"

#ifndef UT_VERSION
#define UT_VERSION "0"
#endif

#define API_VERSION "2022-11-28"
#define EVENT_MAX (64u * 1024u * 1024u)
/* GitHub's limits for one annotation */
#define TITLE_MAX 255
#define MESSAGE_MAX 65535

typedef struct {
	const ut_github_opts *o;
	ut_github_result *res;
	const char *api; /* without a trailing '/' */
	size_t api_len;
	ut_buf auth; /* "Authorization: Bearer ..."; never copied anywhere else */
	const char *headers[5];
	long delay, max_delay;
	int attempts;
	char external_id[64]; /* this post's own: finds the check run a lost answer created */
	const char *sha;      /* the head commit */
	long pr;              /* the pull request */
	char since[32];       /* a little before this post began, for GitHub's "since" */
} ctx;

/* Looks for what a create request whose answer was lost made: 1 and *id when found, 0
 * when not, < 0 on an error. */
typedef int (*finder)(ctx *c, long *id);

/* Sets the message with every occurrence of the token replaced, so that nothing a server
 * echoes back can carry it into a log. */
static int fail(const ctx *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(const ctx *c, int code, const char *fmt, ...)
{
	ut_buf msg = UT_BUF_INIT, clean = UT_BUF_INIT;
	const char *tok = c->o->token, *p, *hit;
	va_list ap;

	va_start(ap, fmt);
	ut_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	p = msg.ptr;
	while (tok && *tok && (hit = strstr(p, tok)) != NULL) {
		ut_buf_put(&clean, p, (size_t)(hit - p));
		ut_buf_puts(&clean, "***");
		p = hit + strlen(tok);
	}
	ut_buf_puts(&clean, p);
	ut_error_set(code, "%s", clean.failed ? "github: request failed" : clean.ptr);
	ut_buf_dispose(&msg);
	ut_buf_dispose(&clean);
	return code;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A non-negative decimal header value, or -1. */
static long header_long(const ut_http_response *r, const char *name)
{
	char v[32], *end = NULL;
	long n;

	if (!ut_http_header(r, name, v, sizeof(v)))
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || end == v || *end || n < 0 ? -1 : n;
}

/* How long to wait before attempt `attempt` + 1, or -1 when the failure is final. */
static long retry_wait(const ctx *c, int sent, const ut_http_response *r, int attempt)
{
	long wait = c->delay << (attempt - 1 < 20 ? attempt - 1 : 20);
	long after = sent ? -1 : header_long(r, "retry-after");
	long reset;

	if (!sent && r->status < 500) {
		if (r->status != 403 && r->status != 429)
			return -1;
		/* a plain 403 is a refusal (permissions), not a rate limit */
		if (after < 0 && header_long(r, "x-ratelimit-remaining") != 0 && r->status == 403)
			return -1;
		reset = header_long(r, "x-ratelimit-reset");
		if (after < 0 && header_long(r, "x-ratelimit-remaining") == 0 && reset >= 0)
			after = reset > (long)time(NULL) ? reset - (long)time(NULL) : 0;
	}
	if (after >= 0)
		wait = after > c->max_delay / 1000 ? c->max_delay : after * 1000;
	return wait < c->max_delay ? wait : c->max_delay;
}

/* GitHub's own "message" from an error body, or the start of the body. */
static void describe(ut_buf *out, const ut_http_response *r)
{
	ut_json *doc = NULL;
	const char *m = NULL;

	if (!ut_json_parse(&doc, r->body.ptr, r->body.len, "response"))
		m = ut_json_string(ut_json_get(doc, "message"));
	if (m)
		ut_buf_printf(out, ": %.300s", m);
	else if (r->body.len)
		ut_buf_printf(out, ": %.200s", r->body.ptr);
	ut_json_free(doc);
	ut_error_clear();
}

/* Sends one request to {api}{path}, retrying as the header describes; 0 on a 2xx. A
 * create (find not NULL) that went out without an answer may have taken effect: before
 * it is sent again, find() looks for what it made, and when that is found, *found is its
 * id and 0 is returned (resp then holds no creation). */
static int request(ctx *c, const char *method, const char *path, const ut_buf *body,
		   ut_http_response *resp, finder find, long *found)
{
	ut_buf url = UT_BUF_INIT, why = UT_BUF_INIT;
	ut_http_request req;
	long wait;
	int attempt, rc = 0;

	ut_buf_put(&url, c->api, c->api_len);
	ut_buf_puts(&url, path);
	memset(&req, 0, sizeof(req));
	req.method = method;
	req.url = url.ptr;
	req.headers = c->headers;
	req.nheaders = sizeof(c->headers) / sizeof(c->headers[0]);
	req.body = body ? body->ptr : NULL;
	req.body_len = body ? body->len : 0;
	req.timeout_s = c->o->timeout_s;
	if (url.failed || (body && body->failed)) {
		rc = fail(c, UT_ENOMEM, "github: out of memory building %s %s", method, path);
		goto done;
	}
	for (attempt = 1;; attempt++) {
		c->res->requests++;
		rc = ut_http_send(resp, &req);
		if (rc == UT_EINPUT || rc == UT_ENOMEM) {
			rc = fail(c, rc, "github: %s", ut_error_message());
			goto done;
		}
		if (!rc && resp->status / 100 == 2)
			goto done;
		wait = retry_wait(c, rc, resp, attempt);
		if (wait < 0 || attempt >= c->attempts)
			break;
		sleep_ms(wait);
		if (rc && resp->sent && find) {
			int f = find(c, found);

			if (f != 0) {
				rc = f < 0 ? f : 0;
				goto done;
			}
		}
	}
	if (rc) {
		rc = fail(c, UT_EENV, "github: %s (%d attempt%s)", ut_error_message(), attempt,
			  attempt == 1 ? "" : "s");
		goto done;
	}
	describe(&why, resp);
	rc = fail(c, UT_EENV, "github: %s %s: HTTP %ld%s (%d attempt%s)", method, path,
		  resp->status, why.ptr, attempt, attempt == 1 ? "" : "s");
done:
	ut_buf_dispose(&url);
	ut_buf_dispose(&why);
	return rc;
}

/* s percent-encoded for a query string. */
static void put_query(ut_buf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~", *s))
			ut_buf_putc(out, *s);
		else
			ut_buf_printf(out, "%%%02X", (unsigned char)*s);
	}
}

/* The "id" of the first object of the list that a GET of path returns (under key; NULL: the
 * list itself) whose string field equals needle (exact) or contains it: 1 with *id set, 0 when
 * there is none, < 0 on error. */
static int find_id(ctx *c, const char *path, const char *key, const char *field,
		   const char *needle, bool exact, long *id)
{
	ut_http_response resp;
	ut_json *doc = NULL;
	const ut_json *r;
	int rc;

	ut_http_response_init(&resp);
	rc = request(c, "GET", path, NULL, &resp, NULL, NULL);
	if (!rc && ut_json_parse(&doc, resp.body.ptr, resp.body.len, "response"))
		rc = fail(c, UT_EENV, "github: GET %s: %s", path, ut_error_message());
	for (r = rc ? NULL : ut_json_first(key ? ut_json_get(doc, key) : doc); r;
	     r = ut_json_next(r)) {
		const char *text = ut_json_string(ut_json_get(r, field));

		if (text && (exact ? !strcmp(text, needle) : strstr(text, needle) != NULL) &&
		    ut_json_whole(ut_json_get(r, "id"), 1, LONG_MAX, id)) {
			rc = 1;
			break;
		}
	}
	ut_json_free(doc);
	ut_http_response_dispose(&resp);
	return rc;
}

/* The check run of this post among the head commit's runs of that name (its external_id). */
static int find_check_run(ctx *c, long *id)
{
	ut_buf path = UT_BUF_INIT;
	int rc;

	ut_buf_printf(&path, "/repos/%s/commits/", c->o->repository);
	put_query(&path, c->sha);
	ut_buf_puts(&path, "/check-runs?per_page=100&check_name=");
	put_query(&path, c->o->check_name ? c->o->check_name : "untangle");
	rc = find_id(c, path.ptr, "check_runs", "external_id", c->external_id, true, id);
	ut_buf_dispose(&path);
	return rc;
}

/* The marker that ends this post's comment. */
static void comment_marker(ut_buf *out, const ctx *c)
{
	ut_buf_printf(out, "\n\n<!-- untangle post %s -->\n", c->external_id);
}

/* This post's comment among the pull request's comments since it began (its marker). */
static int find_comment(ctx *c, long *id)
{
	ut_buf path = UT_BUF_INIT, marker = UT_BUF_INIT;
	int rc;

	comment_marker(&marker, c);
	ut_buf_printf(&path, "/repos/%s/issues/%ld/comments?per_page=100&since=%s",
		      c->o->repository, c->pr, c->since);
	rc = find_id(c, path.ptr, NULL, "body", marker.ptr, false, id);
	ut_buf_dispose(&path);
	ut_buf_dispose(&marker);
	return rc;
}

/* The "id" of the object a 201 returned. */
static int created_id(ctx *c, const ut_http_response *r, const char *what, long *out)
{
	ut_json *doc = NULL;
	const ut_json *id;
	int rc = ut_json_parse(&doc, r->body.ptr, r->body.len, "response");

	id = rc ? NULL : ut_json_get(doc, "id");
	if (!ut_json_whole(id, 1, LONG_MAX, out))
		rc = fail(c, UT_EENV, "github: the %s GitHub created has no id", what);
	ut_json_free(doc);
	return rc;
}

/* s cut to at most max bytes, at a character boundary. */
static void put_cut(ut_buf *out, const char *s, size_t max, const char *mark)
{
	size_t n = strlen(s);

	if (n <= max) {
		ut_buf_put(out, s, n);
		return;
	}
	n = max - strlen(mark);
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	ut_buf_put(out, s, n);
	ut_buf_puts(out, mark);
}

static void annotation(ut_jsonw *w, ut_buf *tmp, const ut_finding *f)
{
	static const char *const levels[UT_SEVERITY_N] = {"failure", "warning", "notice"};
	unsigned line = f->line ? f->line : 1;
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "path", f->file);
	ut_jsonw_kint(w, "start_line", line);
	ut_jsonw_kint(w, "end_line", f->end_line > line ? f->end_line : line);
	ut_jsonw_kstr(w, "annotation_level", levels[f->severity]);
	ut_buf_clear(tmp);
	put_cut(tmp, ut_finding_title(f), TITLE_MAX, "...");
	ut_jsonw_kstr(w, "title", tmp->ptr);
	ut_buf_clear(tmp);
	ut_buf_printf(tmp, "%.1000s: ", f->test);
	put_cut(tmp, f->message, MESSAGE_MAX - tmp->len, "...");
	ut_jsonw_kstr(w, "message", tmp->ptr);
	ut_buf_clear(tmp);
	for (i = 0; i < f->nrelated; i++)
		ut_buf_printf(tmp, "%s%.1000s", i ? ", " : "depends on: ", f->related[i].id);
	for (i = 0; i < f->nevidence; i++)
		ut_buf_printf(tmp, "%s%ld", i ? " " : (tmp->len ? "\nruns: " : "runs: "),
			      f->evidence[i]);
	if (tmp->len && tmp->len <= MESSAGE_MAX) {
		ut_jsonw_kstr(w, "raw_details", tmp->ptr);
	}
	ut_jsonw_obj_end(w);
}

typedef struct {
	const ut_findings *fs;
	const ut_finding **ann; /* the findings with a file, in order */
	size_t nann;
	const char *title;
	ut_buf summary; /* cut to UT_GITHUB_MAX_TEXT */
} post;

/* The body of the check-run request that carries annotations [from, to); `create` for
 * the request that creates the run. */
static void check_run_body(ut_buf *out, const ctx *c, const post *p, bool create, size_t from,
			   size_t to)
{
	ut_buf tmp = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, false);
	ut_jsonw_obj_begin(&w);
	if (create) {
		ut_jsonw_kstr(&w, "name", c->o->check_name ? c->o->check_name : "untangle");
		ut_jsonw_kstr(&w, "head_sha", c->sha);
		ut_jsonw_kstr(&w, "external_id", c->external_id);
	}
	ut_jsonw_kstr(&w, "status", to == p->nann ? "completed" : "in_progress");
	if (to == p->nann) {
		ut_jsonw_kstr(&w, "conclusion", p->fs->count[UT_SEVERITY_ERROR] ? "failure" : "success");
	}
	ut_jsonw_key(&w, "output");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "title", p->title);
	ut_jsonw_kstr(&w, "summary", p->summary.ptr);
	ut_jsonw_key(&w, "annotations");
	ut_jsonw_arr_begin(&w);
	for (i = from; i < to; i++)
		annotation(&w, &tmp, p->ann[i]);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_jsonw_obj_end(&w);
	if (tmp.failed)
		out->failed = true;
	ut_buf_dispose(&tmp);
}

/* The pull request's number and head commit from the event file; 0 and o->sha when the
 * event is not about a pull request. */
static int read_event(ctx *c, long *pr, ut_buf *sha)
{
	const ut_github_opts *o = c->o;
	ut_buf text = UT_BUF_INIT;
	ut_json *doc = NULL;
	const ut_json *pull, *num;
	const char *head = NULL;
	int rc = 0;

	*pr = 0;
	if (o->event_path && *o->event_path) {
		rc = ut_fs_read(&text, o->event_path, EVENT_MAX);
		if (!rc)
			rc = ut_json_parse(&doc, text.ptr, text.len, o->event_path);
		if (rc) {
			rc = fail(c, UT_EINPUT, "github: event file: %s", ut_error_message());
			goto done;
		}
		pull = ut_json_get(doc, "pull_request");
		num = ut_json_get(pull, "number");
		ut_json_whole(num, 1, LONG_MAX, pr);
		head = ut_json_string(ut_json_get(ut_json_get(pull, "head"), "sha"));
	}
	if (!head)
		head = o->sha;
	if (!head || !*head) {
		rc = fail(c, UT_EINPUT,
			  "github: no head commit: neither the event file nor "
			  "GITHUB_SHA names one");
		goto done;
	}
	ut_buf_puts(sha, head);
done:
	ut_json_free(doc);
	ut_buf_dispose(&text);
	return rc;
}

static int valid_repository(const char *r)
{
	size_t slash = 0, len = 0;

	for (; r && *r; r++, len++) {
		if (*r == '/')
			slash = slash ? (size_t)-1 : len;
		else if (!strchr(
			     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			     *r))
			return 0;
	}
	return slash && slash != (size_t)-1 && slash + 1 < len;
}

static int setup(ctx *c, const ut_github_opts *o, ut_github_result *res)
{
	static const char *const fixed[] = {
	    "Accept: application/vnd.github+json", "X-GitHub-Api-Version: " API_VERSION,
	    "User-Agent: untangle/" UT_VERSION, "Content-Type: application/json"};

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->res = res;
	c->api = o->api_url && *o->api_url ? o->api_url : "https://api.github.com";
	c->api_len = strlen(c->api);
	while (c->api_len && c->api[c->api_len - 1] == '/')
		c->api_len--;
	c->delay = o->base_delay_ms > 0 ? o->base_delay_ms : 1000;
	c->max_delay = o->max_delay_ms > 0 ? o->max_delay_ms : 60000;
	c->attempts = o->max_attempts > 0 ? o->max_attempts : 5;
	memcpy(c->headers, fixed, sizeof(fixed));
	if (!o->token || !*o->token)
		return fail(c, UT_EINPUT, "github: GITHUB_TOKEN is not set");
	if (strpbrk(o->token, "\r\n"))
		return fail(c, UT_EINPUT, "github: GITHUB_TOKEN holds a line break");
	if (!valid_repository(o->repository))
		return fail(c, UT_EINPUT, "github: GITHUB_REPOSITORY '%s' is not owner/name",
			    o->repository ? o->repository : "");
	ut_buf_printf(&c->auth, "Authorization: Bearer %s", o->token);
	c->headers[4] = c->auth.ptr;
	return c->auth.failed ? fail(c, UT_ENOMEM, "github: out of memory") : 0;
}

void ut_github_opts_from_env(ut_github_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->token = ut_env_secret(UT_GITHUB_TOKEN); /* out of the environment (main.c) */
	o->api_url = getenv("GITHUB_API_URL");
	o->repository = getenv("GITHUB_REPOSITORY");
	o->event_path = getenv("GITHUB_EVENT_PATH");
	o->sha = getenv("GITHUB_SHA");
}

/* The check run's content: the findings with a file (p->ann, to free), the title (in
 * *title) and the summary cut at GitHub's limit. 0 or UT_ENOMEM. */
static int prepare_post(post *p, const ctx *c, const ut_findings *fs, const char *summary,
			ut_buf *title)
{
	size_t i;

	p->fs = fs;
	p->ann = calloc(fs->v.n + 1, sizeof(*p->ann));
	if (!p->ann)
		return fail(c, UT_ENOMEM, "github: out of memory");
	for (i = 0; i < fs->v.n; i++)
		if (fs->v.v[i].file)
			p->ann[p->nann++] = &fs->v.v[i];
	if (fs->v.n)
		ut_buf_printf(title, "%zu error%s, %zu warning%s", fs->count[UT_SEVERITY_ERROR],
			      fs->count[UT_SEVERITY_ERROR] == 1 ? "" : "s",
			      fs->count[UT_SEVERITY_WARNING],
			      fs->count[UT_SEVERITY_WARNING] == 1 ? "" : "s");
	else
		ut_buf_puts(title, "No dependency problems");
	p->title = title->ptr;
	put_cut(&p->summary, summary ? summary : "", UT_GITHUB_MAX_TEXT,
		"\n\n(summary cut at GitHub's limit)\n");
	return 0;
}

/* This post's own marks: "since" a little before it began, and its external id. */
static void stamp(ctx *c)
{
	time_t t0 = time(NULL) - 60;
	struct tm tm;

	if (gmtime_r(&t0, &tm))
		strftime(c->since, sizeof(c->since), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(c->external_id, sizeof(c->external_id), "untangle-%ld-%ld-%lx", (long)getpid(),
		 (long)time(NULL), (unsigned long)clock() ^ (unsigned long)(uintptr_t)c);
}

/* Creates the check run with the first batch of annotations, then PATCHes the others in
 * batches of UT_GITHUB_ANNOTATIONS_PER_REQUEST; fills check_run_id and annotations of
 * c->res. 0 or the first request's error. */
static int post_check_run(ctx *c, const post *p, ut_http_response *resp)
{
	ut_github_result *out = c->res;
	const char *repo = c->o->repository;
	ut_buf path = UT_BUF_INIT, body = UT_BUF_INIT;
	size_t from, to;
	int rc = 0;

	for (from = 0; !rc && (from < p->nann || !from); from = to) {
		long found = 0;

		to = from + UT_GITHUB_ANNOTATIONS_PER_REQUEST < p->nann
			 ? from + UT_GITHUB_ANNOTATIONS_PER_REQUEST
			 : p->nann;
		ut_buf_clear(&body);
		ut_buf_clear(&path);
		check_run_body(&body, c, p, !from, from, to);
		if (!from)
			ut_buf_printf(&path, "/repos/%s/check-runs", repo);
		else
			ut_buf_printf(&path, "/repos/%s/check-runs/%ld", repo, out->check_run_id);
		rc = request(c, from ? "PATCH" : "POST", path.ptr, &body, resp,
			     from ? NULL : find_check_run, &found);
		if (!rc && !from && found) {
			/* the lost answer's run: it gets this batch by PATCH, not a second run */
			out->check_run_id = found;
			ut_buf_clear(&body);
			ut_buf_clear(&path);
			check_run_body(&body, c, p, false, from, to);
			ut_buf_printf(&path, "/repos/%s/check-runs/%ld", repo, found);
			rc = request(c, "PATCH", path.ptr, &body, resp, NULL, NULL);
		} else if (!rc && !from) {
			rc = created_id(c, resp, "check run", &out->check_run_id);
		}
		if (!rc)
			out->annotations += to - from;
		if (!p->nann)
			break;
	}
	ut_buf_dispose(&path);
	ut_buf_dispose(&body);
	return rc;
}

/* The summary as a comment on the pull request c->res->pull_request, with the marker
 * that finds it again when an answer is lost; fills comment_id. 0 or the error. */
static int post_comment(ctx *c, const char *summary, ut_http_response *resp)
{
	ut_github_result *out = c->res;
	ut_buf path = UT_BUF_INIT, body = UT_BUF_INIT;
	ut_buf marker = UT_BUF_INIT, text = UT_BUF_INIT;
	ut_jsonw w;
	int rc;

	ut_jsonw_init(&w, &body, false);
	ut_jsonw_obj_begin(&w);
	comment_marker(&marker, c);
	put_cut(&text, summary ? summary : "", UT_GITHUB_MAX_TEXT - marker.len,
		"\n\n(summary cut at GitHub's limit)\n");
	ut_buf_put(&text, marker.ptr, marker.len);
	ut_jsonw_kstr(&w, "body", text.ptr);
	if (text.failed || marker.failed)
		body.failed = true;
	ut_jsonw_obj_end(&w);
	ut_buf_printf(&path, "/repos/%s/issues/%ld/comments", c->o->repository, out->pull_request);
	rc = request(c, "POST", path.ptr, &body, resp, find_comment, &out->comment_id);
	if (!rc && !out->comment_id)
		rc = created_id(c, resp, "comment", &out->comment_id);
	ut_buf_dispose(&marker);
	ut_buf_dispose(&text);
	ut_buf_dispose(&path);
	ut_buf_dispose(&body);
	return rc;
}

int ut_github_post(ut_github_result *out, const ut_github_opts *o, const ut_findings *fs,
		   const char *summary)
{
	ut_github_result scratch;
	ut_http_response resp;
	ut_buf sha = UT_BUF_INIT, title = UT_BUF_INIT;
	post p;
	ctx c;
	int rc;

	memset(&p, 0, sizeof(p));
	ut_http_response_init(&resp);
	if (!out)
		out = &scratch;
	memset(out, 0, sizeof(*out));
	rc = setup(&c, o, out);
	if (!rc)
		rc = read_event(&c, &out->pull_request, &sha);
	if (!rc)
		rc = prepare_post(&p, &c, fs, summary, &title);
	if (rc)
		goto done;
	c.sha = sha.ptr;
	c.pr = out->pull_request;
	stamp(&c);
	rc = post_check_run(&c, &p, &resp);
	if (!rc && out->pull_request)
		rc = post_comment(&c, summary, &resp);
done:
	free(p.ann);
	ut_buf_dispose(&p.summary);
	ut_buf_dispose(&title);
	ut_buf_dispose(&sha);
	ut_buf_dispose(&c.auth);
	ut_http_response_dispose(&resp);
	return rc;
}
