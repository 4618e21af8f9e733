/* simrun.c: the simulated test runner as an executable, for the benchmarks (tests/bench)
 * and the end-to-end ctests that start it as runner.command; what a test does is decided by
 * sim.c (sim.h), the behaviour the detect unit tests run in-process too. The faults of a
 * runner process (a hang, a SIGKILL, no report, a corrupt one) are this file's.
 *
 *     simrun --suite SUITE.tsv --report FILE [--state DIR] [--seed S] [--worker W] [--] ID...
 *
 * SUITE.tsv holds one test a line (blank lines and lines starting with '#' are skipped):
 *
 *     id<TAB>duration_s<TAB>prereqs<TAB>flaky<TAB>intermittent<TAB>broken_by<TAB>unless[<TAB>FAULT]...
 *
 * Every field after duration_s may be empty or missing:
 *   prereqs       the true prerequisites, ids separated by commas;
 *   flaky         k: the test fails on every k-th turn;
 *   intermittent  n: the test fails 1 in n turns at random, decided by --seed (default 1)
 *                 and the turn alone, so a seed replays the same failures (issue 32);
 *   broken_by     X, an id: a non-monotone pair: the test fails when X ran and passed
 *                 before it in the schedule ...
 *   unless        ... and Y (an id) did not: it passes after S, fails after S + X, and
 *                 passes again after S + X + Y (state one test spoils and another restores).
 * A turn is an execution of a flaky or intermittent test whose prerequisites held (sim.h),
 * counted in a file per test under --state (locked, so parallel workers can share the
 * folder); without --state no turn is counted, and such tests pass.
 *
 * Each FAULT field after the seventh is one of:
 *   hang            the runner sleeps for ever when it reaches the test (the caller's
 *                   timeout must stop it), writing no report;
 *   crash           the runner kills itself with SIGKILL when it reaches the test, leaving
 *                   no report: the first time only, counted under --state (always without);
 *   outcome=error|skipped   the report gives the test an <error> or a <skipped> element
 *                   instead of its verdict; either way it did not pass (for later tests);
 *   outcome=absent  the test runs as judged but is left out of the report;
 *   message=TEXT    the message of that error or skipped element (default: its name).
 *
 * A line starting with '%' is a fault of whole runs (invocations):
 *   %sleep S            S seconds of wall time slept as each test starts (so that a run
 *                       can be interrupted in its middle);
 *   %no_report          no report is written; %corrupt_report: only its first half;
 *   %fail_all           every test fails, whatever ran before it (the application is down);
 *   %no_report_runs L   the invocations in L write no report;
 *   %hang_runs L        the invocations in L hang before their first test.
 * L is a list of numbers and ranges, "4,5" or "4-39"; invocations are counted from 1 in
 * the file "runs" under --state (without --state every invocation is the first). The
 * tests change these lines between two untangle commands: the runner breaks and is fixed
 * while untangle's configuration stays the same.
 *
 * The tests run in the order given. A reset before every schedule is assumed. The JUnit
 * XML report (written as pytest writes it, atomically) gives each test its declared
 * duration, times SIMRUN_FAIL_FACTOR (environment, default 1) when it fails: on a real
 * application a failing test waits for what never appears (an implicit wait runs out), 5
 * to 7 times a passing one. Nothing sleeps unless %sleep says so. Unknown ids are named on
 * stderr and left out of the report, so the caller sees them as not run. Each test's
 * outcome is printed on stdout (PASS id, FAIL id: why); the faults say what they do on
 * stderr ("simrun: no report in run 4").
 *
 * It is started tens of thousands of times per benchmark, hence C: a suite of 1,000 tests
 * is read and hashed in well under a millisecond. Build: cc -O2 simrun.c sim.c (the ctests
 * use the build's target simrun; tests/sim/simsuite.py writes suite files and finds it).
 *
 * SIMRUN_FLIP=N (environment): each execution's outcome is flipped (a pass fails, a failure
 * passes) with chance 1/N, decided by the seed (--seed, or SIMRUN_SEED), the test and its
 * execution count (a file per test under --state; sim_flipped): intermittent outcomes in
 * both directions.
 *
 * SIMRUN_STAMP (environment), when set, names a file to which it appends the wall clock
 * (seconds since the epoch) first thing: when the first test started, for the plan
 * benchmark (tests/bench/plan/run).
 *
 * Exit status: 0 every reported test passed or was skipped, 1 some failed or erred, 2 usage
 * or a bad suite file. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

#define MAX_SUITE_BYTES (64u << 20)

typedef struct {
	const char *id;      /* points into the suite text */
	double duration;
	const char *prereq_text, *broken_text, *unless_text; /* resolved after the whole file */
	const char *message; /* of outcome error or skipped; NULL: the outcome's name */
	char outcome;        /* 0: as judged; 'e' error, 's' skipped, 'a' absent */
	bool hang, crash;
	unsigned line;
} test;

/* The '%' lines: faults of whole runs. */
typedef struct {
	double sleep;
	bool no_report, corrupt_report, fail_all;
	const char *no_report_runs, *hang_runs; /* lists of invocations; NULL: none */
} run_faults;

typedef struct {
	test *v;
	sim_test *model;     /* parallel to v: the behaviour, for sim_judge */
	size_t n, cap;
	uint32_t *slots;     /* open addressing; UINT32_MAX is empty */
	size_t nslots;
	run_faults run;
	const char *path;    /* the suite file, for messages */
} suite;

typedef struct {
	char *p;
	size_t len, cap;
} buf;

static const char *prog = "simrun";

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die(2, "out of memory");
	return p;
}

static void buf_put(buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void buf_puts(buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

static void buf_printf(buf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		buf_put(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* XML attribute or text content, escaped; n bytes of s. */
static void buf_xml(buf *b, const char *s, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		const char *rep = NULL;

		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		case '\n': rep = "&#10;"; break;
		case '\t': rep = "&#9;"; break;
		default: break;
		}
		if (!rep)
			continue;
		buf_put(b, s + start, i - start);
		buf_puts(b, rep);
		start = i + 1;
	}
	buf_put(b, s + start, n - start);
}

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The index of the test with id s[0..n), or -1. */
static long lookup(const suite *su, const char *s, size_t n)
{
	size_t mask = su->nslots - 1, i = (size_t)hash(s, n) & mask;

	for (; su->slots[i] != UINT32_MAX; i = (i + 1) & mask) {
		const char *id = su->v[su->slots[i]].id;

		if (!strncmp(id, s, n) && id[n] == '\0')
			return su->slots[i];
	}
	return -1;
}

static void index_tests(suite *su, const char *path)
{
	size_t i, mask;

	for (su->nslots = 16; su->nslots < su->n * 2; su->nslots *= 2)
		;
	su->slots = xrealloc(NULL, su->nslots * sizeof(*su->slots));
	memset(su->slots, 0xff, su->nslots * sizeof(*su->slots));
	mask = su->nslots - 1;
	for (i = 0; i < su->n; i++) {
		const char *id = su->v[i].id;
		size_t k;

		if (lookup(su, id, strlen(id)) >= 0)
			die(2, "%s:%u: duplicate test id '%s'", path, su->v[i].line, id);
		for (k = (size_t)hash(id, strlen(id)) & mask; su->slots[k] != UINT32_MAX;
		     k = (k + 1) & mask)
			;
		su->slots[k] = (uint32_t)i;
	}
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		die(2, "cannot open '%s': %s", path, strerror(errno));
	do {
		if (len + 65536 + 1 > cap) {
			cap = (len + 65536 + 1) * 2;
			text = xrealloc(text, cap);
		}
		got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (len > MAX_SUITE_BYTES)
			die(2, "%s: larger than %u bytes", path, MAX_SUITE_BYTES);
	} while (got > 0);
	if (ferror(f))
		die(2, "cannot read '%s'", path);
	fclose(f);
	text[len] = '\0';
	return text;
}

/* Splits off the next tab-separated field of a line (NUL-terminated in place). */
static char *field(char **cursor)
{
	char *start = *cursor, *tab;

	if (!start)
		return NULL;
	tab = strchr(start, '\t');
	if (tab) {
		*tab = '\0';
		*cursor = tab + 1;
	} else {
		*cursor = NULL;
	}
	return start;
}

static long positive(const char *text, const char *path, unsigned lineno, const char *what)
{
	char *end;
	long v;

	if (!text || !*text)
		return 0;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || *end || v < 1)
		die(2, "%s:%u: bad %s '%s'", path, lineno, what, text);
	return v;
}

/* A FAULT field of a test's line (the usage at the top) into t. */
static void parse_fault(test *t, const char *f, const char *path, unsigned lineno)
{
	if (!*f)
		return;
	if (!strcmp(f, "hang")) {
		t->hang = true;
	} else if (!strcmp(f, "crash")) {
		t->crash = true;
	} else if (!strncmp(f, "outcome=", 8)) {
		if (strcmp(f + 8, "error") && strcmp(f + 8, "skipped") && strcmp(f + 8, "absent"))
			die(2, "%s:%u: bad outcome '%s' (error, skipped or absent)", path, lineno,
			    f + 8);
		t->outcome = f[8];
	} else if (!strncmp(f, "message=", 8)) {
		t->message = f + 8;
	} else {
		die(2, "%s:%u: unknown fault '%s' (hang, crash, outcome=, message=)", path, lineno,
		    f);
	}
}

/* Whether invocation n is in the list l ("4,5", "4-39"); n 0 checks l alone. A bad list
 * exits 2 naming the file and line. */
static bool in_list(const char *l, long n, const char *path, unsigned lineno)
{
	const char *p = l;
	bool found = false;
	char *end;

	while (*p) {
		long a, b;

		errno = 0;
		a = b = strtol(p, &end, 10);
		if (end != p && a >= 1 && *end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
		}
		if (errno || end == p || a < 1 || b < a || (*end && *end != ','))
			die(2, "%s:%u: bad list of runs '%s' (numbers and ranges: 4,5 or 4-39)", path,
			    lineno, l);
		found = found || (a <= n && n <= b);
		p = *end ? end + 1 : end;
	}
	return found;
}

/* A '%' line (NUL-terminated): a fault of whole runs into run. */
static void parse_directive(run_faults *run, char *line, const char *path, unsigned lineno)
{
	char *name = line + 1, *arg = name + strcspn(name, " \t"), *end;
	bool flag = false;

	if (*arg)
		*arg++ = '\0';
	arg += strspn(arg, " \t");
	if (!strcmp(name, "sleep")) {
		errno = 0;
		run->sleep = strtod(arg, &end);
		if (errno || end == arg || *end || run->sleep < 0)
			die(2, "%s:%u: bad %%sleep '%s' (seconds)", path, lineno, arg);
		return;
	}
	if (!strcmp(name, "no_report_runs") || !strcmp(name, "hang_runs")) {
		in_list(arg, 0, path, lineno);
		if (name[0] == 'n')
			run->no_report_runs = arg;
		else
			run->hang_runs = arg;
		return;
	}
	if (!strcmp(name, "no_report"))
		flag = run->no_report = true;
	else if (!strcmp(name, "corrupt_report"))
		flag = run->corrupt_report = true;
	else if (!strcmp(name, "fail_all"))
		flag = run->fail_all = true;
	if (!flag)
		die(2, "%s:%u: unknown directive '%%%s' (sleep, no_report, corrupt_report, fail_all, "
		       "no_report_runs, hang_runs)", path, lineno, name);
	if (*arg)
		die(2, "%s:%u: '%%%s' takes no argument", path, lineno, name);
}

/* One line of the suite (NUL-terminated, not blank nor a comment) into su. */
static void parse_line(suite *su, char *line, const char *path, unsigned lineno)
{
	char *cur = line, *id = field(&cur), *dur = field(&cur), *pre = field(&cur),
	     *fl = field(&cur), *in = field(&cur), *br = field(&cur), *un = field(&cur), *end, *fault;
	sim_test m = SIM_TEST_INIT;
	test t;

	memset(&t, 0, sizeof(t));
	if (!*id || !dur)
		die(2, "%s:%u: expected id<TAB>duration[<TAB>prereqs<TAB>flaky<TAB>intermittent"
		       "<TAB>broken_by<TAB>unless][<TAB>FAULT]...", path, lineno);
	t.id = id;
	t.line = lineno;
	errno = 0;
	t.duration = strtod(dur, &end);
	if (errno || end == dur || *end || t.duration < 0)
		die(2, "%s:%u: bad duration '%s'", path, lineno, dur);
	t.prereq_text = pre ? pre : "";
	t.broken_text = br ? br : "";
	t.unless_text = un ? un : "";
	m.flaky_every = positive(fl, path, lineno, "flaky period");
	m.intermittent = positive(in, path, lineno, "intermittent rate");
	while ((fault = field(&cur)))
		parse_fault(&t, fault, path, lineno);
	if (su->n == su->cap) {
		su->cap = su->cap ? su->cap * 2 : 256;
		su->v = xrealloc(su->v, su->cap * sizeof(*su->v));
		su->model = xrealloc(su->model, su->cap * sizeof(*su->model));
	}
	su->model[su->n] = m;
	su->v[su->n++] = t;
}

static long resolve_one(const suite *su, const test *t, const char *id, size_t n,
			const char *path, const char *what)
{
	long k = lookup(su, id, n);

	if (k < 0)
		die(2, "%s:%u: unknown %s '%.*s'", path, t->line, what, (int)n, id);
	return k;
}

/* The ids of prerequisites, breakers and rescuers into indices. */
static void resolve(suite *su, const char *path)
{
	size_t i;

	for (i = 0; i < su->n; i++) {
		const test *t = &su->v[i];
		sim_test *m = &su->model[i];
		const char *p = t->prereq_text;
		uint32_t *pre = NULL;

		while (*p) {
			const char *comma = strchr(p, ',');
			size_t n = comma ? (size_t)(comma - p) : strlen(p);

			if (n) {
				pre = xrealloc(pre, (m->nprereqs + 1) * sizeof(uint32_t));
				pre[m->nprereqs++] = (uint32_t)resolve_one(su, t, p, n, path, "prerequisite");
			}
			p += n + (comma != NULL);
		}
		m->prereqs = pre;
		if (*t->broken_text)
			m->broken_by = resolve_one(su, t, t->broken_text, strlen(t->broken_text), path,
						    "broken_by");
		if (*t->unless_text)
			m->unless = resolve_one(su, t, t->unless_text, strlen(t->unless_text), path,
					"unless");
		if (*t->unless_text && !*t->broken_text)
			die(2, "%s:%u: 'unless' without 'broken_by'", path, t->line);
	}
}

static void parse_suite(suite *su, const char *path)
{
	char *text = read_file(path), *line = text, *next;
	unsigned lineno = 0;

	su->path = path;
	for (; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (*line && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (*line == '%')
			parse_directive(&su->run, line, path, lineno);
		else if (*line && *line != '#')
			parse_line(su, line, path, lineno);
	}
	index_tests(su, path);
	resolve(su, path);
}

/* Counts one more of what (for test k; k < 0: of the runner) in the state folder; returns
 * the new count. */
static long bump(const char *state, const char *what, long k)
{
	char path[4096], num[32];
	long count = 0;
	ssize_t got;
	int fd;

	if (mkdir(state, 0777) < 0 && errno != EEXIST)
		die(2, "cannot create '%s': %s", state, strerror(errno));
	if (k < 0)
		snprintf(path, sizeof(path), "%s/%s", state, what);
	else
		snprintf(path, sizeof(path), "%s/%s-%ld", state, what, k);
	fd = open(path, O_RDWR | O_CREAT, 0666);
	if (fd < 0 || flock(fd, LOCK_EX) < 0)
		die(2, "cannot open '%s': %s", path, strerror(errno));
	got = pread(fd, num, sizeof(num) - 1, 0);
	if (got > 0) {
		num[got] = '\0';
		count = strtol(num, NULL, 10);
	}
	count++;
	snprintf(num, sizeof(num), "%ld\n", count);
	if (ftruncate(fd, 0) < 0 || pwrite(fd, num, strlen(num), 0) < 0)
		die(2, "cannot write '%s': %s", path, strerror(errno));
	close(fd);
	return count;
}

/* classname and name of a pytest node id: tests/test_x.py::Cls::test_y gives
 * tests.test_x.Cls and test_y. */
static void testcase_open(buf *b, const char *id, double duration)
{
	const char *sep = strstr(id, "::"), *last = sep, *p;
	size_t plen = sep ? (size_t)(sep - id) : strlen(id), i;

	for (p = sep; p; p = strstr(p + 2, "::"))
		last = p;
	if (plen > 3 && !strncmp(id + plen - 3, ".py", 3))
		plen -= 3;
	buf_puts(b, "<testcase classname=\"");
	for (i = 0; i < plen; i++)
		buf_xml(b, id[i] == '/' ? "." : id + i, 1);
	for (p = sep ? sep + 2 : NULL; p && p < last;) {
		const char *q = strstr(p, "::");

		buf_puts(b, ".");
		buf_xml(b, p, (size_t)(q - p));
		p = q + 2;
	}
	buf_puts(b, "\" name=\"");
	if (last)
		buf_xml(b, last + 2, strlen(last + 2));
	else
		buf_xml(b, id, strlen(id));
	buf_printf(b, "\" time=\"%.3f\"", duration);
}

/* The report, atomically; its first half only when corrupt. */
static void write_report(const char *path, const buf *xml, bool corrupt)
{
	size_t len = corrupt ? xml->len / 2 : xml->len;
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f)
		die(2, "cannot write '%s': %s", tmp, strerror(errno));
	if (fwrite(xml->p, 1, len, f) != len || fclose(f) != 0)
		die(2, "cannot write '%s': %s", tmp, strerror(errno));
	if (rename(tmp, path) < 0)
		die(2, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
}

static void usage(void)
{
	die(2, "usage: simrun --suite SUITE.tsv --report FILE [--state DIR] [--seed S] "
	       "[--worker W] [--] ID...");
}

typedef struct {
	const char *suite, *report, *state;
	uint64_t seed;
	long flip; /* SIMRUN_FLIP */
	double fail_factor;
	int first_id; /* argv index of the first test id */
} options;

static void parse_args(options *o, int argc, char **argv)
{
	const char *ff = getenv("SIMRUN_FAIL_FACTOR");
	char *end;
	int i;

	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->fail_factor = 1;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (strncmp(argv[i], "--", 2))
			break;
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--suite"))
			o->suite = argv[++i];
		else if (!strcmp(argv[i], "--report"))
			o->report = argv[++i];
		else if (!strcmp(argv[i], "--state"))
			o->state = argv[++i];
		else if (!strcmp(argv[i], "--seed")) {
			errno = 0;
			o->seed = strtoull(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end)
				die(2, "--seed: '%s' is not a number", argv[i]);
		} else if (!strcmp(argv[i], "--worker"))
			++i; /* accepted so that a command may pass {worker}; unused */
		else
			usage();
	}
	o->first_id = i;
	if (!o->suite || !o->report)
		usage();
	if (getenv("SIMRUN_SEED") && *getenv("SIMRUN_SEED")) /* the benchmarks' way to set it */
		o->seed = strtoull(getenv("SIMRUN_SEED"), NULL, 10);
	if (getenv("SIMRUN_FLIP") && *getenv("SIMRUN_FLIP")) {
		o->flip = strtol(getenv("SIMRUN_FLIP"), &end, 10);
		if (*end || o->flip < 0)
			die(2, "SIMRUN_FLIP: '%s' is not a count", getenv("SIMRUN_FLIP"));
	}
	if (ff && *ff) {
		errno = 0;
		o->fail_factor = strtod(ff, &end);
		if (errno || end == ff || *end || o->fail_factor <= 0)
			die(2, "SIMRUN_FAIL_FACTOR: '%s' is not a positive number", ff);
	}
}

static void stamp_now(void)
{
	const char *stamp = getenv("SIMRUN_STAMP");
	struct timespec now;
	FILE *f;

	if (!stamp || !*stamp)
		return;
	f = fopen(stamp, "a");
	clock_gettime(CLOCK_REALTIME, &now);
	if (f) {
		fprintf(f, "%lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
		fclose(f);
	}
}

static long next_turn(void *state, uint32_t k)
{
	return bump(state, "flaky", (long)k);
}

/* Stops here for ever (until a signal ends the process), saying so on stderr. */
static void hang(const char *where, const char *what)
{
	fprintf(stderr, "%s: hanging %s%s\n", prog, where, what);
	fflush(stdout);
	for (;;)
		pause();
}

static void nap(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* What became of a test: tag NULL when it passed, else the report's element (failure,
 * error, skipped) with the message why followed by other. */
typedef struct {
	const char *tag, *other;
	char why[80];
} result;

/* The verdict of sim_judge (v, detail) into r. */
static void judged(result *r, const suite *su, sim_verdict v, long detail)
{
	if (v == SIM_PASS)
		return;
	r->tag = "failure";
	if (v == SIM_FLAKY || v == SIM_INTERMITTENT) {
		snprintf(r->why, sizeof(r->why), "%s failure on execution %ld",
			 v == SIM_FLAKY ? "flaky" : "intermittent", detail);
		return;
	}
	snprintf(r->why, sizeof(r->why), "%s ", v == SIM_NEEDS ? "needs" : "broken by");
	r->other = su->v[detail].id;
}

/* Runs test k, reached after the tests that passed[] says: the process faults of its line
 * first, then its verdict (sim_judge, SIMRUN_FLIP, %fail_all) and the outcome its line
 * asks for. */
static void run_test(const options *o, const suite *su, long k, unsigned char *passed,
		     result *r)
{
	const test *t = &su->v[k];
	long detail;
	sim_verdict v;

	if (t->crash && (!o->state || bump(o->state, "crash", k) == 1)) {
		fprintf(stderr, "%s: crashing at %s\n", prog, t->id);
		fflush(stdout);
		kill(getpid(), SIGKILL);
	}
	if (t->hang)
		hang("at ", t->id);
	if (su->run.sleep > 0)
		nap(su->run.sleep);
	memset(r, 0, sizeof(*r));
	r->other = "";
	if (su->run.fail_all) {
		r->tag = "failure";
		r->other = "connection refused (the application is down)";
	} else {
		v = sim_judge(su->model, (uint32_t)k, passed, o->seed, o->state ? next_turn : NULL,
			      (void *)o->state, &detail);
		if (o->flip && o->state && sim_flipped(o->seed, (uint32_t)k,
						       bump(o->state, "exec", k), o->flip)) {
			v = v == SIM_PASS ? SIM_INTERMITTENT : SIM_PASS;
			detail = 0;
		}
		judged(r, su, v, detail);
	}
	if (t->outcome == 'e' || t->outcome == 's') {
		r->tag = t->outcome == 'e' ? "error" : "skipped";
		r->other = t->message ? t->message : r->tag;
		r->why[0] = '\0';
	}
	/* A test that runs twice in one schedule counts its latest outcome. */
	passed[k] = r->tag == NULL;
}

/* counts[]: tests, failures, errors, skipped in the report. */
enum { N_TESTS, N_FAILURES, N_ERRORS, N_SKIPPED };

/* Test t's outcome r into the report's cases (unless it is to be absent) and stdout. */
static void record(buf *cases, const test *t, const result *r, double fail_factor,
		   size_t counts[4])
{
	const char *word = !r->tag ? "PASS" : r->tag[0] == 'f' ? "FAIL" :
			   r->tag[0] == 'e' ? "ERROR" : "SKIP";

	printf("%s %s%s%s%s\n", word, t->id, r->tag ? ": " : "", r->why, r->other);
	if (t->outcome == 'a')
		return;
	counts[N_TESTS]++;
	testcase_open(cases, t->id, t->duration * (r->tag && r->tag[0] != 's' ? fail_factor : 1));
	if (!r->tag) {
		buf_puts(cases, "/>\n");
		return;
	}
	counts[r->tag[0] == 'f' ? N_FAILURES : r->tag[0] == 'e' ? N_ERRORS : N_SKIPPED]++;
	buf_printf(cases, "><%s message=\"", r->tag);
	buf_xml(cases, r->why, strlen(r->why));
	buf_xml(cases, r->other, strlen(r->other));
	buf_puts(cases, "\"/></testcase>\n");
}

/* The report of invocation run_no, unless a fault of the suite says to write none. */
static void report(const options *o, const suite *su, long run_no, buf *xml, const buf *cases,
		   const size_t counts[4])
{
	if (su->run.no_report)
		return;
	if (su->run.no_report_runs && in_list(su->run.no_report_runs, run_no, su->path, 0)) {
		fprintf(stderr, "%s: no report in run %ld\n", prog, run_no);
		return;
	}
	buf_puts(xml, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<testsuites><testsuite "
		      "name=\"pytest\" ");
	buf_printf(xml, "errors=\"%zu\" failures=\"%zu\" skipped=\"%zu\" tests=\"%zu\">\n",
		   counts[N_ERRORS], counts[N_FAILURES], counts[N_SKIPPED], counts[N_TESTS]);
	if (cases->len)
		buf_put(xml, cases->p, cases->len);
	buf_puts(xml, "</testsuite></testsuites>\n");
	write_report(o->report, xml, su->run.corrupt_report);
}

int main(int argc, char **argv)
{
	/* static: still reachable for the leak checker of a sanitizer build at exit */
	static suite su;
	static buf xml, cases;
	static unsigned char *passed;
	size_t counts[4] = {0, 0, 0, 0};
	char num[32];
	options o;
	long run_no;
	int i;

	stamp_now();
	parse_args(&o, argc, argv);
	parse_suite(&su, o.suite);
	passed = calloc(su.n ? su.n : 1, 1);
	if (!passed)
		die(2, "out of memory");
	run_no = o.state ? bump(o.state, "runs", -1) : 1;
	snprintf(num, sizeof(num), "%ld", run_no);
	if (su.run.hang_runs && in_list(su.run.hang_runs, run_no, su.path, 0))
		hang("in run ", num);
	for (i = o.first_id; i < argc; i++) {
		long k = lookup(&su, argv[i], strlen(argv[i]));
		result r;

		if (k < 0) {
			fprintf(stderr, "%s: unknown test '%s'\n", prog, argv[i]);
			continue;
		}
		run_test(&o, &su, k, passed, &r);
		record(&cases, &su.v[k], &r, o.fail_factor, counts);
	}
	fflush(stdout);
	report(&o, &su, run_no, &xml, &cases, counts);
	return counts[N_FAILURES] || counts[N_ERRORS] ? 1 : 0;
}
