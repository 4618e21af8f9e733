/* junit.c: reading JUnit XML reports through util/xml (expat), streaming: a report is
 * read in bounded memory whatever its size, only the few strings kept per testcase are
 * copied. DTD entity declarations are refused, so nothing can expand; external entities
 * are never loaded. */
#include "runner/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/xml.h"
#include "proc/process.h"
#include "util/banned.h"

#define MAX_CASES 1000000u
#define MAX_KEPT ((size_t)16 << 20) /* the index keeps about ten times as much */
#define MAX_MESSAGE 500
#define MAX_TEXT 4096 /* text read from a failure element to find its first line */
#define CHUNK 65536   /* read and parsed at a time; interrupts and the deadline between */

/* Names are matched whole; every other attribute (a failure message) only needs its first
 * line, so expat never sees more than MAX_VALUE bytes of it: parsing stays linear. */
static const char *const whole_attrs[] = {"classname", "name", "file", NULL};
static const ut_xml_limits xml_limits = {UT_JUNIT_MAX_VALUE, UT_JUNIT_MAX_TOKEN, whole_attrs};

typedef enum { CHILD_NONE, CHILD_DECIDES, CHILD_ATTEMPT } child_kind;

typedef struct {
	ut_junit *j;
	ut_xml *xml;
	const char *name;
	int rc;
	int depth;
	size_t elements;
	size_t kept;
	/* the testcase being read; case_depth 0 when none */
	int case_depth;
	const char *classname, *casename, *file;
	double time_s;
	ut_outcome outcome;
	unsigned attempts;
	const char *message, *attempt_message;
	/* the failure/error/skipped/rerun child being read; child_depth 0 when none */
	int child_depth;
	child_kind child;
	ut_outcome child_outcome;
	bool child_has_message;
	ut_buf text;
} reader;

const char *ut_junit_xml_version(void)
{
	return ut_xml_version();
}

const char *ut_outcome_name(ut_outcome o)
{
	static const char *const names[] = {"pass", "fail", "error", "skipped", "not-run"};

	return (unsigned)o <= UT_OUT_NOTRUN ? names[o] : "unknown";
}

static void stop(reader *r, int code, const char *what)
{
	if (r->rc == 0)
		r->rc = ut_error_set(code, "%s:%lu: %s", r->name,
				     ut_xml_line(r->xml), what);
	ut_xml_stop(r->xml);
}

static const char *keep(reader *r, const char *s, size_t n)
{
	char *copy;

	if (r->kept + n + 1 > MAX_KEPT) {
		stop(r, UT_EINPUT, "report too large (more than 16 MiB of names and messages)");
		return NULL;
	}
	r->kept += n + 1;
	copy = ut_arena_strndup(&r->j->arena, s, n);
	if (!copy)
		stop(r, UT_ENOMEM, "out of memory");
	return copy;
}

/* The first non-blank line of s, at most MAX_MESSAGE bytes (cut at a character), or NULL. */
static const char *first_line(reader *r, const char *s, size_t n)
{
	const char *end = s + n, *eol;
	size_t len;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	for (eol = s; eol < end && *eol != '\n' && *eol != '\r'; eol++)
		;
	while (eol > s && (eol[-1] == ' ' || eol[-1] == '\t'))
		eol--;
	len = (size_t)(eol - s);
	if (len == 0)
		return NULL;
	if (len > MAX_MESSAGE) {
		len = MAX_MESSAGE;
		while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;
	}
	return keep(r, s, len);
}

/* A `time` value in seconds, locale-independent; 0 for anything else. Surefire has been
 * known to write thousands separators ("1,234.5"). */
static double seconds(const char *s)
{
	double v = 0, scale = 1;
	int exp = 0, sign = 1;

	if (!s)
		return 0;
	for (; *s == ',' || (*s >= '0' && *s <= '9'); s++)
		if (*s != ',')
			v = v * 10 + (*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			v += (*s - '0') * (scale /= 10);
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			sign = *s++ == '-' ? -1 : 1;
		for (; *s >= '0' && *s <= '9' && exp < 400; s++)
			exp = exp * 10 + (*s - '0');
		while (exp-- > 0)
			v = sign < 0 ? v / 10 : v * 10;
	}
	return *s == '\0' && v < 1e9 ? v : 0;
}

static child_kind child_of(const char *el, ut_outcome *outcome)
{
	if (strcmp(el, "failure") == 0 || strcmp(el, "error") == 0 || strcmp(el, "skipped") == 0) {
		*outcome = el[0] == 'f' ? UT_OUT_FAIL : el[0] == 'e' ? UT_OUT_ERROR : UT_OUT_SKIPPED;
		return CHILD_DECIDES;
	}
	if (strcmp(el, "rerunFailure") == 0 || strcmp(el, "rerunError") == 0 ||
	    strcmp(el, "flakyFailure") == 0 || strcmp(el, "flakyError") == 0)
		return CHILD_ATTEMPT;
	return CHILD_NONE;
}

static int rank(ut_outcome o)
{
	return o == UT_OUT_ERROR ? 3 : o == UT_OUT_FAIL ? 2 : o == UT_OUT_SKIPPED ? 1 : 0;
}

static void on_start(void *data, const char *el, const char **atts)
{
	reader *r = data;
	const char *v;

	r->depth++;
	if (r->depth == 1 && strcmp(el, "testsuites") != 0 && strcmp(el, "testsuite") != 0) {
		stop(r, UT_EINPUT, "not a JUnit report: the root is neither testsuites nor testsuite");
		return;
	}
	if (r->case_depth == 0 && strcmp(el, "testcase") == 0) {
		if (++r->elements > MAX_CASES) {
			stop(r, UT_EINPUT, "more than 1,000,000 testcases");
			return;
		}
		r->case_depth = r->depth;
		v = ut_xml_attr(atts, "classname");
		r->classname = keep(r, v ? v : "", v ? strlen(v) : 0);
		v = ut_xml_attr(atts, "name");
		r->casename = keep(r, v ? v : "", v ? strlen(v) : 0);
		v = ut_xml_attr(atts, "file");
		r->file = v ? keep(r, v, strlen(v)) : NULL;
		r->time_s = seconds(ut_xml_attr(atts, "time"));
		r->outcome = UT_OUT_PASS;
		r->attempts = 0;
		r->message = r->attempt_message = NULL;
		return;
	}
	if (r->case_depth && r->child_depth == 0 && r->depth == r->case_depth + 1) {
		r->child = child_of(el, &r->child_outcome);
		if (r->child == CHILD_NONE)
			return;
		r->child_depth = r->depth;
		ut_buf_clear(&r->text);
		v = ut_xml_attr(atts, "message");
		v = v ? first_line(r, v, strlen(v)) : NULL;
		r->child_has_message = v != NULL;
		if (r->child == CHILD_ATTEMPT) {
			r->attempts++;
			if (v)
				r->attempt_message = v;
		} else if (rank(r->child_outcome) >= rank(r->outcome)) {
			r->outcome = r->child_outcome;
			if (v || r->child_outcome != UT_OUT_SKIPPED)
				r->message = v;
		}
	}
}

static void on_text(void *data, const char *s, size_t len)
{
	reader *r = data;

	if (r->child_depth && r->depth == r->child_depth && !r->child_has_message &&
	    r->text.len < MAX_TEXT)
		ut_buf_put(&r->text, s, (size_t)len < MAX_TEXT ? (size_t)len : MAX_TEXT);
}

/* Merges the finished testcase into the case of the same classname and name. */
static void end_case(reader *r)
{
	ut_junit *j = r->j;
	ut_junit_case *c;
	ut_buf key = UT_BUF_INIT;
	const char *k;
	void *slot;

	if (!r->classname || !r->casename || r->rc)
		return;
	if (ut_buf_printf(&key, "%s\x01%s", r->classname, r->casename) < 0) {
		stop(r, UT_ENOMEM, "out of memory");
		goto done;
	}
	slot = ut_map_get(&j->by_record, key.ptr, key.len);
	if (!slot) {
		ut_junit_case fresh = {j->cases.n, r->classname, r->casename, r->file,
				       UT_OUT_PASS, 0, NULL, 0, 0};

		k = keep(r, key.ptr, key.len);
		if (!k || ut_vec_push(&j->cases, fresh) < 0 ||
		    ut_map_put(&j->by_record, k, key.len, UT_JUNIT_SLOT(fresh.index)) < 0) {
			stop(r, UT_ENOMEM, "out of memory");
			goto done;
		}
		slot = UT_JUNIT_SLOT(fresh.index);
	}
	c = &j->cases.v[UT_JUNIT_INDEX(slot)];
	if (c->records && (c->outcome == UT_OUT_FAIL || c->outcome == UT_OUT_ERROR)) {
		c->failed_attempts++;
		if (!r->attempt_message)
			r->attempt_message = c->message;
	}
	c->records++;
	c->failed_attempts += r->attempts;
	c->outcome = r->outcome;
	c->time_s = r->time_s;
	c->message = r->message;
	if (r->outcome == UT_OUT_PASS && !r->message)
		c->message = r->attempt_message;
	if (r->file)
		c->file = r->file;
done:
	ut_buf_dispose(&key);
}

static void on_end(void *data, const char *el)
{
	reader *r = data;

	(void)el;
	if (r->child_depth && r->depth == r->child_depth) {
		if (!r->child_has_message) {
			const char *v = first_line(r, r->text.ptr, r->text.len);

			if (r->child == CHILD_ATTEMPT && v)
				r->attempt_message = v;
			else if (r->child == CHILD_DECIDES && r->outcome == r->child_outcome && v)
				r->message = v;
		}
		r->child_depth = 0;
	} else if (r->case_depth && r->depth == r->case_depth) {
		end_case(r);
		r->case_depth = 0;
	}
	r->depth--;
}

static void on_entity(void *data)
{
	stop(data, UT_EINPUT, "entity declarations are not allowed in a JUnit report");
}

static const ut_xml_handlers handlers = {on_start, on_end, on_text, on_entity};

static int begin(reader *r, ut_junit **out, const char *name)
{
	memset(r, 0, sizeof(*r));
	*out = NULL;
	r->name = name;
	ut_buf_init(&r->text, MAX_TEXT + 1);
	r->j = calloc(1, sizeof(*r->j));
	r->xml = ut_xml_new(&handlers, r);
	if (!r->j || !r->xml)
		return ut_error_set(UT_ENOMEM, "out of memory");
	ut_xml_set_limits(r->xml, &xml_limits);
	ut_arena_init(&r->j->arena);
	return 0;
}

/* After a chunk: 0, or the first error (ours, else the parser's). */
static int check(reader *r, int status)
{
	if (status < 0 && r->rc == 0 && ut_xml_too_long(r->xml))
		r->rc = ut_error_set(UT_EINPUT, "%s:%lu: a tag or comment longer than %zu bytes "
				     "(untangle's limit for a JUnit report)", r->name,
				     ut_xml_line(r->xml), (size_t)UT_JUNIT_MAX_TOKEN);
	else if (status < 0 && r->rc == 0)
		r->rc = ut_error_set(UT_EINPUT, "%s:%lu: invalid JUnit XML: %s", r->name,
				     ut_xml_line(r->xml), ut_xml_error(r->xml));
	return r->rc;
}

static int finish(reader *r, ut_junit **out)
{
	int rc = r->rc;

	if (rc == 0)
		rc = ut_junit__index(r->j);
	if (rc == 0) {
		*out = r->j;
		r->j = NULL;
	}
	ut_junit_free(r->j);
	ut_xml_free(r->xml);
	ut_buf_dispose(&r->text);
	return rc;
}

int ut_junit_parse(ut_junit **out, const char *data, size_t len, const char *name)
{
	reader r;
	size_t off = 0, n;

	if (begin(&r, out, name) == 0) {
		do {
			n = len - off > (1u << 20) ? (1u << 20) : len - off;
			check(&r, ut_xml_feed(r.xml, data + off, n, off + n == len));
			off += n;
		} while (off < len && r.rc == 0);
	} else
		r.rc = UT_ENOMEM;
	return finish(&r, out);
}

/* Between chunks: 0, UT_EINTR (ut_proc_interrupt) or UT_ETIMEOUT (past the budget). */
static int may_go_on(const char *path, const ut_junit_limits *lim, double t0)
{
	if (ut_proc_interrupted())
		return ut_error_set(UT_EINTR, "interrupted while reading '%s'", path);
	if (lim->timeout_s > 0 && ut_clock_mono() - t0 > lim->timeout_s)
		return ut_error_set(UT_ETIMEOUT, "'%s' was not read within %g s (the run's timeout)",
				    path, lim->timeout_s);
	return 0;
}

int ut_junit_read_limited(ut_junit **out, const char *path, const ut_junit_limits *lim)
{
	size_t max = lim->max_bytes ? lim->max_bytes : UT_JUNIT_MAX_BYTES, total = 0;
	double t0 = ut_clock_mono();
	reader r;
	struct stat st;
	int fd = -1, e;
	ssize_t n;
	void *buf;

	if (begin(&r, out, path) < 0) {
		r.rc = UT_ENOMEM;
		goto done;
	}
	/* O_NONBLOCK: a FIFO at the path must not block the open (no writer) */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		r.rc = ut_error_set(e == ENOENT ? UT_ENOTFOUND : UT_EINPUT, "cannot open '%s': %s",
				    path, e == ENOENT ? "no such file" : "unreadable");
		goto done;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		r.rc = ut_error_set(UT_EINPUT, "'%s' is not a regular file (a report must be one)",
				    path);
		goto done;
	}
	if ((uintmax_t)st.st_size > max) {
		r.rc = ut_error_set(UT_EINPUT, "'%s' is larger than %zu MiB (the limit for a report)",
				    path, max >> 20);
		goto done;
	}
	for (;;) {
		r.rc = may_go_on(path, lim, t0);
		if (r.rc < 0)
			goto done;
		buf = ut_xml_buffer(r.xml, CHUNK);
		if (!buf) {
			r.rc = ut_error_set(UT_ENOMEM, "out of memory reading '%s'", path);
			goto done;
		}
		n = read(fd, buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r.rc = ut_error_set(UT_EINPUT, "cannot read '%s'", path);
			goto done;
		}
		total += (size_t)n;
		if (total > max) { /* it grew while being read */
			r.rc = ut_error_set(UT_EINPUT, "'%s' is larger than %zu MiB (the limit for a "
					    "report)", path, max >> 20);
			goto done;
		}
		if (check(&r, ut_xml_feed_buffer(r.xml, (size_t)n, n == 0)) || n == 0)
			break;
	}
done:
	if (fd >= 0)
		close(fd);
	return finish(&r, out);
}

int ut_junit_read(ut_junit **out, const char *path)
{
	const ut_junit_limits none = {0, 0};

	return ut_junit_read_limited(out, path, &none);
}

void ut_junit_free(ut_junit *j)
{
	if (!j)
		return;
	ut_map_dispose(&j->by_record);
	ut_map_dispose(&j->by_join);
	ut_map_dispose(&j->by_name);
	ut_map_dispose(&j->by_suffix);
	ut_vec_free(&j->cases);
	ut_arena_dispose(&j->arena);
	free(j);
}

size_t ut_junit_count(const ut_junit *j)
{
	return j ? j->cases.n : 0;
}

const ut_junit_case *ut_junit_case_at(const ut_junit *j, size_t i)
{
	return j && i < j->cases.n ? &j->cases.v[i] : NULL;
}
