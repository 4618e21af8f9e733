/* simrun.c: a fast simulated test runner for the detect benchmark (tests/bench/detect/run).
 *
 *     simrun --suite SUITE.tsv --report FILE [--state DIR] [--worker W] [--] ID...
 *
 * SUITE.tsv holds one test a line: id<TAB>duration_s<TAB>prereq,prereq,...<TAB>flaky
 * (blank lines and lines starting with '#' are skipped; the last two fields may be empty
 * or missing). flaky is empty, or k: the test fails on every k-th execution, counted in a
 * file per test under --state (locked, so parallel workers can share the folder).
 *
 * The tests run in the order given. A reset before every schedule is assumed, so a test
 * passes iff each of its prerequisites ran and passed earlier in this same invocation and
 * it is not on a flaky turn. Nothing sleeps: the JUnit XML report (written as pytest
 * writes it, atomically) gives each test its declared duration, times SIMRUN_FAIL_FACTOR
 * (environment, default 1) when it fails: on a real application a failing test waits for
 * what never appears (an implicit wait runs out), 5 to 7 times a passing one. Unknown ids
 * are named on stderr and left out of the report, so the caller sees them as not run.
 *
 * It is started tens of thousands of times per benchmark, hence C: a suite of 1,000 tests
 * is read and hashed in well under a millisecond.
 *
 * SIMRUN_FLIP=N (environment): each execution's outcome is flipped (a pass fails, a failure
 * passes) with chance 1/N, decided by SIMRUN_SEED, the test and its execution count (a
 * file per test under --state): intermittent outcomes, the same for the same seed.
 *
 * SIMRUN_STAMP (environment), when set, names a file to which it appends the wall clock
 * (seconds since the epoch) first thing: when the first test started, for the plan
 * benchmark (tests/bench/plan/run).
 *
 * Exit status: 0 every reported test passed, 1 some failed, 2 usage or a bad suite file. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_SUITE_BYTES (64u << 20)

typedef struct {
	const char *id;      /* points into the suite text */
	double duration;
	uint32_t *prereqs;   /* indices, resolved after the whole file is read */
	uint32_t nprereqs;
	const char *prereq_text;
	long flaky;          /* 0: never; k: fails on every k-th execution */
	unsigned line;
} test;

typedef struct {
	test *v;
	size_t n, cap;
	uint32_t *slots;     /* open addressing; UINT32_MAX is empty */
	size_t nslots;
} suite;

typedef struct {
	char *p;
	size_t len, cap;
} buf;

static const char *prog = "simrun";

/* splitmix64's finalizer: the intermittent outcome of one execution from its seed. */
static uint64_t mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

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

static void parse_suite(suite *su, const char *path)
{
	char *text = read_file(path), *line = text, *next;
	unsigned lineno = 0;
	size_t i;

	for (; line && *line; line = next) {
		char *cur, *id, *dur, *pre, *fl, *end;
		test t;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (*line && line[strlen(line) - 1] == '\r')
			line[strlen(line) - 1] = '\0';
		if (!*line || *line == '#')
			continue;
		memset(&t, 0, sizeof(t));
		cur = line;
		id = field(&cur);
		dur = field(&cur);
		pre = field(&cur);
		fl = field(&cur);
		if (!*id || !dur)
			die(2, "%s:%u: expected id<TAB>duration[<TAB>prereqs<TAB>flaky]", path, lineno);
		t.id = id;
		t.line = lineno;
		errno = 0;
		t.duration = strtod(dur, &end);
		if (errno || end == dur || *end || t.duration < 0)
			die(2, "%s:%u: bad duration '%s'", path, lineno, dur);
		t.prereq_text = pre ? pre : "";
		if (fl && *fl) {
			t.flaky = strtol(fl, &end, 10);
			if (*end || t.flaky < 1)
				die(2, "%s:%u: bad flaky period '%s'", path, lineno, fl);
		}
		if (su->n == su->cap) {
			su->cap = su->cap ? su->cap * 2 : 256;
			su->v = xrealloc(su->v, su->cap * sizeof(*su->v));
		}
		su->v[su->n++] = t;
	}
	index_tests(su, path);
	for (i = 0; i < su->n; i++) {
		test *t = &su->v[i];
		const char *p = t->prereq_text;

		while (*p) {
			const char *comma = strchr(p, ',');
			size_t n = comma ? (size_t)(comma - p) : strlen(p);
			long k;

			if (n) {
				k = lookup(su, p, n);
				if (k < 0)
					die(2, "%s:%u: unknown prerequisite '%.*s'", path, t->line,
					    (int)n, p);
				t->prereqs = xrealloc(t->prereqs, (t->nprereqs + 1) * sizeof(uint32_t));
				t->prereqs[t->nprereqs++] = (uint32_t)k;
			}
			p += n + (comma != NULL);
		}
	}
}

/* Counts one more execution of test k in the state folder; returns the new count. */
static long bump(const char *state, size_t k)
{
	char path[4096], num[32];
	long count = 0;
	ssize_t got;
	int fd;

	if (mkdir(state, 0777) < 0 && errno != EEXIST)
		die(2, "cannot create '%s': %s", state, strerror(errno));
	snprintf(path, sizeof(path), "%s/flaky-%zu", state, k);
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

static void write_report(const char *path, const buf *xml)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f)
		die(2, "cannot write '%s': %s", tmp, strerror(errno));
	if (fwrite(xml->p, 1, xml->len, f) != xml->len || fclose(f) != 0)
		die(2, "cannot write '%s': %s", tmp, strerror(errno));
	if (rename(tmp, path) < 0)
		die(2, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
}

static void usage(void)
{
	die(2, "usage: simrun --suite SUITE.tsv --report FILE [--state DIR] [--worker W] "
	       "[--] ID...");
}

int main(int argc, char **argv)
{
	const char *suite_path = NULL, *report = NULL, *state = NULL;
	unsigned char *passed;
	suite su = {0};
	buf xml = {0}, cases = {0};
	size_t ran = 0, failed = 0;
	double fail_factor = 1;
	const char *ff = getenv("SIMRUN_FAIL_FACTOR"), *stamp = getenv("SIMRUN_STAMP");
	unsigned long flip_every = 0; /* SIMRUN_FLIP */
	uint64_t flip_seed = 0;       /* SIMRUN_SEED */
	int i;

	if (stamp && *stamp) {
		struct timespec now;
		FILE *f = fopen(stamp, "a");

		clock_gettime(CLOCK_REALTIME, &now);
		if (f) {
			fprintf(f, "%lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
			fclose(f);
		}
	}

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
			suite_path = argv[++i];
		else if (!strcmp(argv[i], "--report"))
			report = argv[++i];
		else if (!strcmp(argv[i], "--state"))
			state = argv[++i];
		else if (!strcmp(argv[i], "--worker"))
			++i; /* accepted so that a command may pass {worker}; unused */
		else
			usage();
	}
	if (!suite_path || !report)
		usage();
	if (ff && *ff) {
		char *end;

		errno = 0;
		fail_factor = strtod(ff, &end);
		if (errno || end == ff || *end || fail_factor <= 0)
			die(2, "SIMRUN_FAIL_FACTOR: '%s' is not a positive number", ff);
	}
	if (getenv("SIMRUN_FLIP"))
		flip_every = strtoul(getenv("SIMRUN_FLIP"), NULL, 10);
	if (getenv("SIMRUN_SEED"))
		flip_seed = strtoull(getenv("SIMRUN_SEED"), NULL, 10);
	parse_suite(&su, suite_path);
	passed = calloc(su.n ? su.n : 1, 1);
	if (!passed)
		die(2, "out of memory");
	for (; i < argc; i++) {
		long k = lookup(&su, argv[i], strlen(argv[i]));
		const test *t;
		const char *why = NULL;
		long turn = 0;
		uint32_t j;

		if (k < 0) {
			fprintf(stderr, "%s: unknown test '%s'\n", prog, argv[i]);
			continue;
		}
		t = &su.v[k];
		for (j = 0; j < t->nprereqs && !why; j++) {
			if (!passed[t->prereqs[j]])
				why = su.v[t->prereqs[j]].id;
		}
		if (!why && t->flaky && state) {
			turn = bump(state, (size_t)k);
			if (turn % t->flaky == 0)
				why = "";
		}
		if (flip_every && state &&
		    mix(flip_seed ^ ((uint64_t)k << 32) ^ (uint64_t)bump(state, su.n + (size_t)k)) %
				    flip_every == 0)
			why = why ? NULL : "";       /* intermittent: the outcome flips */
		/* A test that runs twice in one schedule counts its latest outcome. */
		passed[k] = !why;
		ran++;
		testcase_open(&cases, t->id, why ? t->duration * fail_factor : t->duration);
		if (!why) {
			buf_puts(&cases, "/>\n");
			continue;
		}
		failed++;
		buf_puts(&cases, "><failure message=\"");
		if (*why) {
			buf_puts(&cases, "needs ");
			buf_xml(&cases, why, strlen(why));
			printf("FAIL %s: needs %s\n", t->id, why);
		} else {
			buf_printf(&cases, "flaky failure on execution %ld", turn);
			printf("FAIL %s: flaky failure on execution %ld\n", t->id, turn);
		}
		buf_puts(&cases, "\"/></testcase>\n");
	}
	buf_puts(&xml, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<testsuites><testsuite "
		       "name=\"pytest\" ");
	buf_printf(&xml, "errors=\"0\" failures=\"%zu\" skipped=\"0\" tests=\"%zu\">\n", failed,
		   ran);
	if (cases.len)
		buf_put(&xml, cases.p, cases.len);
	buf_puts(&xml, "</testsuite></testsuites>\n");
	write_report(report, &xml);
	return failed ? 1 : 0;
}
