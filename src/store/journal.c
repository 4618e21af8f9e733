/* journal.c: the append-only run journal (format 2: test indices, one letter per
 * outcome), read a line at a time for --resume. */
#include "store/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json/json.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "util/vec.h"
#include "util/banned.h"

#define JOURNAL_FORMAT 2
/* The rule the header's bodies were taken with: 2, ut_test_body_hash (the lines without
 * white space); 1 (no body_rule), the exact lines before it. */
#define BODY_RULE 2
#define FINISHED_LINE "{\"finished\":true}"

typedef struct {
	UT_VEC(const ut_journal_record *) recs;
	size_t next;
} replay_queue;

struct ut_journal {
	int fd;
	const char *path;
	const char *backup;
	ut_arena arena;
	ut_map queues; /* schedule (the bytes of its index array) -> replay_queue * */
	UT_VEC(replay_queue *) all_queues;
	size_t recorded;
	UT_VEC(const ut_journal_record *) by_order;
	const char **ids; /* the header's, ntests */
	size_t ntests;
	unsigned char *changed; /* per test: its body changed since the journal was written */
	UT_VEC(uint32_t) changed_list;
	UT_VEC(size_t) dropped_lines; /* line numbers of runs of a changed test */
	size_t lineno;                /* of the line being read */
	ut_journal_changes changes;
	bool keep_tail;
	bool none; /* RESUME found no journal, or not even its header: started anew */
	long last_id;
	pthread_mutex_t lock;
};

static void write_header(ut_buf *b, const ut_journal_header *h)
{
	ut_jsonw w;

	ut_jsonw_init(&w, b, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "untangle_journal", JOURNAL_FORMAT);
	ut_jsonw_kstr(&w, "suite", h->suite);
	ut_jsonw_kint(&w, "tests", (long long)h->ntests);
	ut_jsonw_kstr(&w, "strategy", h->strategy);
	ut_jsonw_kstr(&w, "extract", h->extract);
	ut_jsonw_kstr(&w, "filter", h->filter);
	ut_jsonw_kint(&w, "reruns", h->reruns);
	ut_jsonw_kstr(&w, "ignore", h->ignore ? h->ignore : "");
	ut_jsonw_kstr(&w, "runner", h->runner ? h->runner : "");
	if (h->ids) {
		ut_jsonw_key(&w, "ids");
		ut_jsonw_strs(&w, (const char *const *)h->ids, h->ntests);
	}
	if (h->bodies) {
		ut_jsonw_kint(&w, "body_rule", BODY_RULE);
		ut_jsonw_key(&w, "bodies");
		ut_jsonw_strs(&w, (const char *const *)h->bodies, h->ntests);
	}
	ut_jsonw_obj_end(&w);
	ut_buf_putc(b, '\n');
}

static char *hex(ut_arena *a, uint64_t h)
{
	return ut_arena_printf(a, "%016llx", (unsigned long long)h);
}

int ut_journal_fingerprint(ut_journal_header *h, ut_arena *a, const ut_graph *g,
			   const ut_config *cfg)
{
	const char **ids = ut_arena_alloc(a, (g->ntests + 1) * sizeof(*ids));
	const char **bodies = ut_arena_alloc(a, (g->ntests + 1) * sizeof(*bodies));
	uint64_t hv = 0;
	size_t i;
	int rc = 0;

	if (!ids || !bodies)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < g->ntests && rc == 0; i++) {
		const ut_graph_test *t = &g->tests[i];

		ids[i] = t->id;
		/* the fingerprint the parse took of its lines (ut_test_body_hash), as check's */
		bodies[i] = t->body ? hex(a, t->body) : "";
		if (!bodies[i])
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	h->ids = ids;
	h->bodies = bodies;
	for (i = 0; i < cfg->values.ignore.n; i++)
		hv = ut_hash_seq(hv, cfg->values.ignore.items[i]);
	h->ignore = hex(a, hv);
	hv = ut_hash_seq(0, cfg->runner.preset);
	for (i = 0; i < cfg->runner.command.n; i++)
		hv = ut_hash_seq(hv, cfg->runner.command.items[i]);
	hv = ut_hash_seq(hv, "\001reset");
	for (i = 0; i < cfg->runner.reset.n; i++)
		hv = ut_hash_seq(hv, cfg->runner.reset.items[i]);
	hv = ut_hash_seq(hv, "\001env");
	for (i = 0; i < cfg->runner.nenv; i++)
		hv = ut_hash_seq(ut_hash_seq(hv, cfg->runner.env[i].name), cfg->runner.env[i].value);
	h->runner = hex(a, hv);
	if (rc == 0 && (!h->ignore || !h->runner))
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	return rc;
}

static int outcome_parse(char c, unsigned char *out)
{
	int i;

	for (i = 0; i <= (int)UT_OUT_NOTRUN; i++) {
		if (c == ut_outcome_name((ut_outcome)i)[0]) {
			*out = (unsigned char)i;
			return 0;
		}
	}
	return UT_EINPUT;
}

static const char *dup_str(ut_arena *a, const ut_json *obj, const char *key)
{
	const ut_json *v = ut_json_get(obj, key);
	const char *s = v ? ut_json_string(v) : NULL;

	return s ? ut_arena_strdup(a, s) : NULL;
}

static double get_num(const ut_json *obj, const char *key, double dflt)
{
	const ut_json *v = ut_json_get(obj, key);

	return v && ut_json_is_number(v) ? ut_json_number(v) : dflt;
}

/* "0-4,7" -> 0 1 2 3 4 7. With out NULL only counts. -1 when malformed or out of range. */
static long parse_tests(const char *s, size_t ntests, uint32_t *out)
{
	long n = 0;

	while (s && *s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s)
				return -1;
		}
		if (b < a || b >= ntests)
			return -1;
		for (unsigned long k = a; k <= b; k++) {
			if (out)
				out[n] = (uint32_t)k;
			n++;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return n;
}

static int queue_record(ut_journal *j, const ut_journal_record *r)
{
	const char *key = (const char *)r->tests;
	size_t klen = r->n * sizeof(*r->tests);
	replay_queue *q = ut_map_get(&j->queues, key, klen);

	if (!q) {
		q = calloc(1, sizeof(*q));
		if (!q || ut_vec_push(&j->all_queues, q) < 0) {
			free(q);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
		if (ut_map_put(&j->queues, key, klen, q) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	return ut_vec_push(&q->recs, r) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

static int add_record(ut_journal *j, const ut_json *doc, const char *where)
{
	ut_journal_record *r = ut_arena_alloc(&j->arena, sizeof(*r));
	const char *tests = ut_json_string(ut_json_get(doc, "t"));
	const char *outs = ut_json_string(ut_json_get(doc, "o"));
	const ut_json *durs = ut_json_get(doc, "d"), *d;
	uint32_t *idx;
	unsigned char *o;
	float *du;
	long n = parse_tests(tests, j->ntests, NULL);
	bool changed = false;
	size_t i;

	if (!r)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (n < 1 || !outs || strlen(outs) != (size_t)n)
		return ut_error_set(UT_EINPUT, "%s: a run needs 't' (test indices below %zu) and "
				    "'o' (an outcome per test)", where, j->ntests);
	r->n = (size_t)n;
	r->tests = idx = ut_arena_alloc(&j->arena, r->n * sizeof(*idx));
	r->outcomes = o = ut_arena_alloc(&j->arena, r->n);
	r->durations = du = ut_arena_alloc(&j->arena, r->n * sizeof(*du));
	if (!idx || !o || !du)
		return ut_error_set(UT_ENOMEM, "out of memory");
	parse_tests(tests, j->ntests, idx);
	d = durs && ut_json_is_array(durs) ? ut_json_first(durs) : NULL;
	for (i = 0; i < r->n; i++) {
		if (outcome_parse(outs[i], &o[i]))
			return ut_error_set(UT_EINPUT, "%s: unknown outcome '%c'", where, outs[i]);
		du[i] = d && ut_json_is_number(d) && ut_json_number(d) >= 0
				? (float)(ut_json_number(d) / 1000.0) : -1.0f;
		d = d ? ut_json_next(d) : NULL;
		changed |= j->changed && j->changed[idx[i]];
	}
	r->run = (long)get_num(doc, "run", 0);
	r->worker = (int)get_num(doc, "worker", 0);
	r->batch = (long)get_num(doc, "batch", 0);
	r->purpose = dup_str(&j->arena, doc, "purpose");
	r->detail = dup_str(&j->arena, doc, "detail");
	r->tail = j->keep_tail ? dup_str(&j->arena, doc, "tail") : NULL;
	r->error = ut_json_true(ut_json_get(doc, "error"));
	r->attempts = (int)get_num(doc, "attempts", 1);
	r->reset_s = get_num(doc, "reset_s", 0);
	r->start = get_num(doc, "start", 0);
	r->end = get_num(doc, "end", 0);
	if (r->run > j->last_id)
		j->last_id = r->run;
	if (ut_vec_push(&j->by_order, r) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	j->recorded++;
	/* Not evidence: a run that failed as a whole, or one of a test that has changed. */
	if (r->error) {
		j->changes.errors++;
		return 0;
	}
	if (changed) {
		j->changes.dropped++;
		return ut_vec_push(&j->dropped_lines, j->lineno) < 0
			       ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
	}
	return queue_record(j, r);
}

static bool str_eq(const ut_json *doc, const char *key, const char *want)
{
	const char *s = ut_json_string(ut_json_get(doc, key));

	return s && want && !strcmp(s, want);
}

/* The header: the ids, and against h (NULL: any header) what must match and what changed. */
static int read_header(ut_journal *j, const ut_json *doc, const ut_journal_header *h,
		       const char *where)
{
	const ut_json *ids = ut_json_get(doc, "ids"), *bodies = ut_json_get(doc, "bodies"), *v;
	size_t i;

	if ((int)get_num(doc, "untangle_journal", 0) != JOURNAL_FORMAT)
		return ut_error_set(UT_EINPUT, "%s: a journal of another format (written by an "
				    "older untangle); 'untangle detect --fresh' starts over", where);
	if (h && !(str_eq(doc, "suite", h->suite) && str_eq(doc, "strategy", h->strategy) &&
		   str_eq(doc, "extract", h->extract) && str_eq(doc, "filter", h->filter) &&
		   (int)get_num(doc, "reruns", -1) == h->reruns))
		return ut_error_set(UT_EINPUT, "%s: the journal is for another suite or "
				    "configuration (run 'untangle detect --fresh' to start over)",
				    where);
	j->ntests = (size_t)get_num(doc, "tests", 0);
	j->ids = ut_arena_alloc(&j->arena, (j->ntests + 1) * sizeof(*j->ids));
	j->changed = ut_arena_alloc(&j->arena, j->ntests + 1);
	if (!j->ids || !j->changed)
		return ut_error_set(UT_ENOMEM, "out of memory");
	memset(j->changed, 0, j->ntests + 1);
	for (i = 0, v = ids ? ut_json_first(ids) : NULL; i < j->ntests; i++) {
		j->ids[i] = v && ut_json_string(v) ? ut_arena_strdup(&j->arena, ut_json_string(v))
						   : NULL;
		v = v ? ut_json_next(v) : NULL;
	}
	if (!h)
		return 0;
	j->changes.ignore = !str_eq(doc, "ignore", h->ignore ? h->ignore : "");
	j->changes.runner = !str_eq(doc, "runner", h->runner ? h->runner : "");
	if (bodies && (int)get_num(doc, "body_rule", 1) != BODY_RULE) {
		j->changes.bodies_unknown = true;
		bodies = NULL; /* another rule's fingerprints: no comparison */
	}
	for (i = 0, v = bodies ? ut_json_first(bodies) : NULL; h->bodies && v && i < j->ntests;
	     i++, v = ut_json_next(v)) {
		const char *old = ut_json_string(v);

		if (old && h->bodies[i] && strcmp(old, h->bodies[i])) {
			j->changed[i] = 1;
			if (ut_vec_push(&j->changed_list, (uint32_t)i) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
	}
	j->changes.tests = j->changed_list.v;
	j->changes.ntests = j->changed_list.n;
	return 0;
}

/* Reads the existing journal a line at a time; *keep: the length of its complete, valid
 * lines. A missing journal, or one without a complete header (untangle was killed before
 * its first line was written), sets j->none and is no error. */
static int read_existing(ut_journal *j, const ut_journal_header *h, size_t *keep)
{
	FILE *f = fopen(j->path, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	*keep = 0;
	if (!f) {
		j->none = errno == ENOENT;
		if (j->none)
			return 0;
		return ut_error_set(UT_EENV, "%s: %s", j->path, strerror(errno));
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		ut_json *doc = NULL;
		char where[600];

		j->lineno = ++lineno;
		if (line[len - 1] != '\n')
			break; /* cut short by a kill: dropped */
		snprintf(where, sizeof(where), "%s:%zu", j->path, lineno);
		if (lineno > 1 && !strncmp(line, FINISHED_LINE, strlen(FINISHED_LINE))) {
			*keep += (size_t)len;
			continue;
		}
		rc = ut_json_parse(&doc, line, (size_t)len - 1, j->path);
		if (rc < 0 && lineno > 1 && fgetc(f) == EOF) {
			rc = 0; /* a last line garbled by a crash */
			break;
		}
		if (rc < 0) {
			rc = ut_error_set(UT_EINPUT, "%s: not a journal line", where);
			goto done;
		}
		rc = lineno == 1 ? read_header(j, doc, h, where) : add_record(j, doc, where);
		ut_json_free(doc);
		if (rc < 0)
			goto done;
		*keep += (size_t)len;
	}
	if (ferror(f))
		rc = ut_error_set(UT_EENV, "%s: %s", j->path, strerror(errno));
	else if (lineno == 0 || *keep == 0)
		j->none = true;
done:
	free(line);
	fclose(f);
	return rc;
}

/* How many runs an existing journal holds and whether its last line says it finished. */
static void scan_existing(const char *path, size_t *runs, bool *finished)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;

	*runs = 0;
	*finished = false;
	while (f && (len = getline(&line, &cap, f)) > 0) {
		if (++lineno == 1 || line[len - 1] != '\n')
			continue;
		*finished = !strncmp(line, FINISHED_LINE, strlen(FINISHED_LINE));
		*runs += !*finished;
	}
	free(line);
	if (f)
		fclose(f);
}

void ut_journal_close(ut_journal *j);

static ut_journal *journal_alloc(const char *path)
{
	ut_journal *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->fd = -1;
	ut_arena_init(&j->arena);
	pthread_mutex_init(&j->lock, NULL);
	j->path = ut_arena_strdup(&j->arena, path);
	if (!j->path) {
		ut_journal_close(j);
		return NULL;
	}
	return j;
}

/* Moves an old journal holding runs aside as PATH.N.bak, N the first number free. */
static int keep_backup(ut_journal *j)
{
	size_t runs;
	bool finished;

	scan_existing(j->path, &runs, &finished);
	if (!runs)
		return 0;
	for (int n = 1; n < 10000; n++) {
		char *bak = ut_arena_printf(&j->arena, "%s.%d.bak", j->path, n);

		if (!bak)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (ut_fs_exists(bak))
			continue;
		if (rename(j->path, bak) < 0)
			return ut_error_set(UT_EENV, "cannot keep '%s' as '%s': %s", j->path, bak,
					    strerror(errno));
		j->backup = bak;
		return 0;
	}
	return ut_error_set(UT_EENV, "%s: too many backups beside it", j->path);
}

static int refuse_unfinished(const ut_journal *j)
{
	size_t runs;
	bool finished;

	scan_existing(j->path, &runs, &finished);
	if (!runs || finished)
		return 0;
	return ut_error_set(UT_EINPUT, "%s holds %zu runs of a detection that did not finish: "
			    "'untangle detect --resume' continues it, 'untangle detect --fresh' "
			    "starts over (the old journal kept as %s.N.bak)", j->path, runs, j->path);
}

/* After a resume that found changes: the journal again, with the current header and
 * without the runs of changed tests (the first keep bytes of the old one are read), so
 * that the next resume compares with what these runs were made of. Temporary file, then
 * rename. */
static int rewrite(ut_journal *j, const ut_journal_header *h, size_t keep)
{
	ut_buf head = UT_BUF_INIT, tmp = UT_BUF_INIT;
	FILE *in = NULL, *out = NULL;
	char *line = NULL;
	size_t cap = 0, lineno = 0, done = 0, drop = 0;
	ssize_t len;
	int fd, rc = 0;

	write_header(&head, h);
	if (head.failed || ut_buf_printf(&tmp, "%s.tmp.%ld", j->path, (long)getpid()) < 0) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	in = fopen(j->path, "re");
	unlink(tmp.ptr); /* this process's name: a leftover, or a planted link */
	fd = ut_fs_open_nofollow(tmp.ptr, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		rc = fd;
		goto done;
	}
	out = fdopen(fd, "w");
	if (!out)
		close(fd);
	if (!in || !out || fwrite(head.ptr, 1, head.len, out) != head.len)
		goto fail;
	while (done < keep && (len = getline(&line, &cap, in)) > 0) {
		done += (size_t)len;
		if (++lineno == 1 || !strncmp(line, FINISHED_LINE, strlen(FINISHED_LINE)))
			continue;
		if (drop < j->dropped_lines.n && j->dropped_lines.v[drop] == lineno) {
			drop++;
			continue;
		}
		if (fwrite(line, 1, (size_t)len, out) != (size_t)len)
			goto fail;
	}
	if (ferror(in) || fflush(out) != 0 || fsync(fileno(out)) != 0)
		goto fail;
	fclose(out);
	out = NULL;
	if (rename(tmp.ptr, j->path) == 0)
		goto done;
fail:
	rc = ut_error_set(UT_EENV, "%s: cannot rewrite the journal: %s", j->path, strerror(errno));
	if (out)
		unlink(tmp.ptr);
done:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	free(line);
	ut_buf_dispose(&head);
	ut_buf_dispose(&tmp);
	return rc;
}

int ut_journal_open(ut_journal **out, const char *path, const ut_journal_header *h,
		    ut_journal_mode mode)
{
	ut_journal *j = journal_alloc(path);
	ut_buf head = UT_BUF_INIT;
	size_t keep = 0;
	int rc = 0;

	*out = NULL;
	if (!j)
		return ut_error_set(UT_ENOMEM, "out of memory");
	/* found before any run: the graph and every run's line would be lost at the end */
	rc = ut_fs_check_writable(path);
	if (rc < 0) {
		char why[1100];

		snprintf(why, sizeof(why), "%s", ut_error_message());
		rc = ut_error_set(UT_EENV, "%s: the journal '%s' could not be written; make the "
				  "folder writable, then run 'untangle detect' again (with --resume "
				  "to continue a detection)", why, path);
		goto done;
	}
	if (mode == UT_JOURNAL_RESUME)
		rc = read_existing(j, h, &keep);
	if (rc < 0)
		goto done;
	if (mode == UT_JOURNAL_RESUME && !j->none) {
		if (j->changes.ntests || j->changes.ignore || j->changes.runner)
			rc = rewrite(j, h, keep);
		if (rc < 0)
			goto done;
		if (j->changes.ntests || j->changes.ignore || j->changes.runner)
			keep = (size_t)-1; /* rewritten: keep all of it */
		j->fd = ut_fs_open_nofollow(path, O_WRONLY, 0);
		if (j->fd >= 0 && (keep == (size_t)-1 || ftruncate(j->fd, (off_t)keep) == 0) &&
		    lseek(j->fd, 0, SEEK_END) >= 0)
			goto done;
	} else {
		/* nothing to resume: nothing was lost either, the detection starts anew */
		rc = mode == UT_JOURNAL_START ? refuse_unfinished(j)
		     : mode == UT_JOURNAL_FRESH ? keep_backup(j) : 0;
		if (rc < 0)
			goto done;
		j->ntests = h->ntests;
		write_header(&head, h);
		j->fd = ut_fs_open_nofollow(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (j->fd >= 0 && write(j->fd, head.ptr, head.len) == (ssize_t)head.len)
			goto done;
	}
	if (j->fd < 0) {
		rc = j->fd; /* ut_fs_open_nofollow said why */
		goto done;
	}
	rc = ut_error_set(UT_EENV, "%s: %s (the journal must be writable%s)", path,
			  strerror(errno), mode == UT_JOURNAL_RESUME ? " to resume" : "");
done:
	ut_buf_dispose(&head);
	if (rc < 0) {
		ut_journal_close(j);
		j = NULL;
	}
	*out = j;
	return rc;
}

void ut_journal_close(ut_journal *j)
{
	size_t i;

	if (!j)
		return;
	if (j->fd >= 0)
		close(j->fd);
	for (i = 0; i < j->all_queues.n; i++) {
		ut_vec_free(&j->all_queues.v[i]->recs);
		free(j->all_queues.v[i]);
	}
	ut_vec_free(&j->all_queues);
	ut_vec_free(&j->by_order);
	ut_vec_free(&j->changed_list);
	ut_vec_free(&j->dropped_lines);
	ut_map_dispose(&j->queues);
	pthread_mutex_destroy(&j->lock);
	ut_arena_dispose(&j->arena);
	free(j);
}

const ut_journal_changes *ut_journal_changed(const ut_journal *j)
{
	return &j->changes;
}

const char *ut_journal_backup(const ut_journal *j)
{
	return j ? j->backup : NULL;
}

bool ut_journal_started_anew(const ut_journal *j)
{
	return j && j->none;
}

int ut_journal_load(ut_journal **out, const char *path)
{
	ut_journal *j = journal_alloc(path);
	size_t keep;
	int rc;

	*out = NULL;
	if (!j)
		return ut_error_set(UT_ENOMEM, "out of memory");
	j->keep_tail = true;
	rc = read_existing(j, NULL, &keep);
	if (rc == 0 && j->none)
		rc = ut_error_set(UT_ENOTFOUND, "%s: no journal", path);
	if (rc < 0) {
		ut_journal_close(j);
		return rc;
	}
	*out = j;
	return 0;
}

const ut_journal_record *ut_journal_find(const ut_journal *j, long run)
{
	size_t i;

	for (i = 0; j && i < j->by_order.n; i++) {
		if (j->by_order.v[i]->run == run)
			return j->by_order.v[i];
	}
	return NULL;
}

const char *ut_journal_test_id(const ut_journal *j, uint32_t i)
{
	return j && j->ids && i < j->ntests ? j->ids[i] : NULL;
}

const ut_journal_record *ut_journal_replay(ut_journal *j, const uint32_t *tests, size_t n)
{
	const ut_journal_record *r = NULL;
	replay_queue *q;

	if (!j || !j->recorded || !n)
		return NULL;
	pthread_mutex_lock(&j->lock);
	q = ut_map_get(&j->queues, (const char *)tests, n * sizeof(*tests));
	if (q && q->next < q->recs.n)
		r = q->recs.v[q->next++];
	pthread_mutex_unlock(&j->lock);
	return r;
}

size_t ut_journal_recorded(const ut_journal *j)
{
	return j ? j->recorded : 0;
}

long ut_journal_next_id(ut_journal *j)
{
	long id;

	pthread_mutex_lock(&j->lock);
	id = ++j->last_id;
	pthread_mutex_unlock(&j->lock);
	return id;
}

/* The schedule as ranges of consecutive indices: "0-4,7". */
static void write_tests(ut_buf *b, const uint32_t *t, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t k = i;

		while (k + 1 < n && t[k + 1] == t[k] + 1)
			k++;
		if (i)
			ut_buf_putc(b, ',');
		if (k > i)
			ut_buf_printf(b, "%u-%u", t[i], t[k]);
		else
			ut_buf_printf(b, "%u", t[i]);
		i = k + 1;
	}
}

static void write_record(ut_buf *b, const ut_journal_record *r)
{
	ut_buf tmp = UT_BUF_INIT;
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, b, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kint(&w, "run", r->run);
	ut_jsonw_kstr(&w, "purpose", r->purpose);
	ut_jsonw_kint(&w, "worker", r->worker);
	ut_jsonw_kint(&w, "batch", r->batch);
	write_tests(&tmp, r->tests, r->n);
	ut_jsonw_key(&w, "t");
	ut_jsonw_strn(&w, tmp.ptr ? tmp.ptr : "", tmp.len);
	ut_buf_truncate(&tmp, 0);
	for (i = 0; i < r->n; i++)
		ut_buf_putc(&tmp, ut_outcome_name((ut_outcome)r->outcomes[i])[0]);
	ut_jsonw_key(&w, "o");
	ut_jsonw_strn(&w, tmp.ptr ? tmp.ptr : "", tmp.len);
	ut_jsonw_key(&w, "d");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < r->n; i++)
		ut_jsonw_int(&w, r->durations[i] < 0 ? -1
				 : (long long)((double)r->durations[i] * 1000.0 + 0.5));
	ut_jsonw_arr_end(&w);
	if (r->error) { /* the defaults (no error, one attempt) are left out */
		ut_jsonw_kbool(&w, "error", true);
	}
	ut_jsonw_kstr(&w, "detail", r->detail);
	if (r->attempts != 1) {
		ut_jsonw_kint(&w, "attempts", r->attempts);
	}
	ut_jsonw_key(&w, "reset_s");
	ut_jsonw_fixed(&w, r->reset_s, 3);
	ut_jsonw_key(&w, "start");
	ut_jsonw_fixed(&w, r->start, 3);
	ut_jsonw_key(&w, "end");
	ut_jsonw_fixed(&w, r->end, 3);
	if (r->tail) {
		ut_jsonw_kstr(&w, "tail", r->tail);
	}
	ut_jsonw_obj_end(&w);
	ut_buf_putc(b, '\n');
	if (tmp.failed)
		b->failed = true;
	ut_buf_dispose(&tmp);
}

/* One write per line, then fdatasync: a kill leaves at most the last line cut short. */
static int append_line(ut_journal *j, const char *s, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t w = write(j->fd, s + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return ut_error_set(UT_EENV, "%s: %s", j->path, strerror(errno));
		off += (size_t)w;
	}
	if (fdatasync(j->fd) < 0 && errno != EINVAL)
		return ut_error_set(UT_EENV, "%s: %s", j->path, strerror(errno));
	return 0;
}

int ut_journal_append(ut_journal *j, const ut_journal_record *r)
{
	ut_buf line = UT_BUF_INIT;
	int rc;

	write_record(&line, r);
	if (line.failed) {
		ut_buf_dispose(&line);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	pthread_mutex_lock(&j->lock);
	rc = append_line(j, line.ptr, line.len);
	if (r->run > j->last_id)
		j->last_id = r->run;
	pthread_mutex_unlock(&j->lock);
	ut_buf_dispose(&line);
	return rc;
}

int ut_journal_finish(ut_journal *j)
{
	int rc;

	pthread_mutex_lock(&j->lock);
	rc = append_line(j, FINISHED_LINE "\n", strlen(FINISHED_LINE) + 1);
	pthread_mutex_unlock(&j->lock);
	return rc;
}
