/* journal.c: the append-only run journal and its replay for --resume. */
#include "detect/journal.h"

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

#define JOURNAL_MAX_BYTES (512u * 1024u * 1024u)

typedef struct {
	UT_VEC(const ut_journal_record *) recs;
	size_t next;
} replay_queue;

struct ut_journal {
	int fd;
	const char *path;
	ut_arena arena;
	ut_map queues; /* schedule key -> replay_queue * */
	UT_VEC(replay_queue *) all_queues;
	size_t recorded, replayed;
	UT_VEC(const ut_journal_record *) by_order;
	long last_id;
	pthread_mutex_t lock;
};

static void write_header(ut_buf *b, const ut_journal_header *h)
{
	ut_jsonw w;

	ut_jsonw_init(&w, b, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "untangle_journal");
	ut_jsonw_int(&w, 1);
	ut_jsonw_key(&w, "suite");
	ut_jsonw_str(&w, h->suite);
	ut_jsonw_key(&w, "tests");
	ut_jsonw_int(&w, (long long)h->ntests);
	ut_jsonw_key(&w, "strategy");
	ut_jsonw_str(&w, h->strategy);
	ut_jsonw_key(&w, "extract");
	ut_jsonw_str(&w, h->extract);
	ut_jsonw_key(&w, "filter");
	ut_jsonw_str(&w, h->filter);
	ut_jsonw_key(&w, "reruns");
	ut_jsonw_int(&w, h->reruns);
	ut_jsonw_obj_end(&w);
	ut_buf_putc(b, '\n');
}

static char *schedule_key(ut_arena *a, const char *const *ids, size_t n)
{
	ut_buf b = UT_BUF_INIT;
	char *key;
	size_t i;

	for (i = 0; i < n; i++) {
		ut_buf_puts(&b, ids[i]);
		ut_buf_putc(&b, '\n');
	}
	key = b.failed ? NULL : ut_arena_strndup(a, b.ptr, b.len);
	ut_buf_dispose(&b);
	return key;
}

static int outcome_parse(const char *s, ut_outcome *out)
{
	int i;

	for (i = 0; i <= (int)UT_OUT_NOTRUN; i++) {
		if (s && !strcmp(s, ut_outcome_name((ut_outcome)i))) {
			*out = (ut_outcome)i;
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

static int add_record(ut_journal *j, const ut_json *doc, const char *where)
{
	ut_journal_record *r = ut_arena_alloc(&j->arena, sizeof(*r));
	const ut_json *ids = ut_json_get(doc, "tests"), *outs = ut_json_get(doc, "outcomes");
	const ut_json *durs = ut_json_get(doc, "durations"), *v, *o, *d;
	replay_queue *q;
	const char *key;
	size_t n = 0, i;

	if (!r)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (!ids || !ut_json_is_array(ids) || !outs || !ut_json_is_array(outs))
		return ut_error_set(UT_EINPUT, "%s: a run needs 'tests' and 'outcomes'", where);
	for (v = ut_json_first(ids); v; v = ut_json_next(v))
		n++;
	r->n = n;
	r->ids = ut_arena_alloc(&j->arena, (n + 1) * sizeof(*r->ids));
	r->outcomes = ut_arena_alloc(&j->arena, (n + 1) * sizeof(*r->outcomes));
	r->durations = ut_arena_alloc(&j->arena, (n + 1) * sizeof(*r->durations));
	if (!r->ids || !r->outcomes || !r->durations)
		return ut_error_set(UT_ENOMEM, "out of memory");
	v = ut_json_first(ids);
	o = ut_json_first(outs);
	d = durs ? ut_json_first(durs) : NULL;
	for (i = 0; i < n; i++, v = ut_json_next(v), o = o ? ut_json_next(o) : NULL) {
		if (!ut_json_string(v) || !o || outcome_parse(ut_json_string(o), &r->outcomes[i]))
			return ut_error_set(UT_EINPUT, "%s: malformed test or outcome", where);
		r->ids[i] = ut_arena_strdup(&j->arena, ut_json_string(v));
		r->durations[i] = d && ut_json_is_number(d) ? ut_json_number(d) : -1;
		d = d ? ut_json_next(d) : NULL;
	}
	r->run = (long)get_num(doc, "run", 0);
	r->worker = (int)get_num(doc, "worker", 0);
	r->batch = (long)get_num(doc, "batch", 0);
	r->purpose = dup_str(&j->arena, doc, "purpose");
	r->detail = dup_str(&j->arena, doc, "detail");
	r->tail = dup_str(&j->arena, doc, "tail");
	r->error = ut_json_true(ut_json_get(doc, "error"));
	r->attempts = (int)get_num(doc, "attempts", 1);
	r->reset_s = get_num(doc, "reset_s", 0);
	r->start = get_num(doc, "start", 0);
	r->end = get_num(doc, "end", 0);
	if (r->run > j->last_id)
		j->last_id = r->run;
	key = schedule_key(&j->arena, r->ids, r->n);
	if (!key)
		return ut_error_set(UT_ENOMEM, "out of memory");
	q = ut_map_get(&j->queues, key, strlen(key));
	if (!q) {
		q = calloc(1, sizeof(*q));
		if (!q || ut_vec_push(&j->all_queues, q) < 0) {
			free(q);
			return ut_error_set(UT_ENOMEM, "out of memory");
		}
		if (ut_map_put(&j->queues, key, strlen(key), q) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (ut_vec_push(&q->recs, r) < 0 || ut_vec_push(&j->by_order, r) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	j->recorded++;
	return 0;
}

static int header_matches(const ut_json *doc, const ut_journal_header *h)
{
	const char *s = ut_json_string(ut_json_get(doc, "suite"));
	const char *st = ut_json_string(ut_json_get(doc, "strategy"));
	const char *ex = ut_json_string(ut_json_get(doc, "extract"));
	const char *fi = ut_json_string(ut_json_get(doc, "filter"));

	return s && st && ex && fi && !strcmp(s, h->suite) && !strcmp(st, h->strategy) &&
	       !strcmp(ex, h->extract) && !strcmp(fi, h->filter) &&
	       (int)get_num(doc, "reruns", -1) == h->reruns;
}

/* Reads the existing journal; returns the length of its complete, valid lines. */
static int read_existing(ut_journal *j, const ut_journal_header *h, size_t *keep)
{
	ut_buf text = UT_BUF_INIT;
	size_t pos = 0, lineno = 0;
	int rc;

	*keep = 0;
	rc = ut_fs_read(&text, j->path, JOURNAL_MAX_BYTES);
	if (rc == UT_ENOTFOUND) {
		rc = ut_error_set(UT_ENOTFOUND, "%s: no journal to resume from", j->path);
		goto done;
	}
	if (rc < 0)
		goto done;
	while (pos < text.len) {
		const char *line = text.ptr + pos, *nl = memchr(line, '\n', text.len - pos);
		ut_json *doc = NULL;
		char where[600];

		lineno++;
		if (!nl)
			break; /* cut short by a kill: dropped */
		snprintf(where, sizeof(where), "%s:%zu", j->path, lineno);
		rc = ut_json_parse(&doc, line, (size_t)(nl - line), j->path);
		if (rc < 0 && lineno > 1 && nl + 1 == text.ptr + text.len) {
			rc = 0; /* a last line garbled by a crash */
			break;
		}
		if (rc < 0) {
			rc = ut_error_set(UT_EINPUT, "%s: not a journal line", where);
			goto done;
		}
		if (lineno == 1) {
			if (h && !header_matches(doc, h))
				rc = ut_error_set(UT_EINPUT,
						  "%s: the journal is for another suite or configuration "
						  "(run 'untangle detect' without --resume to start over)",
						  where);
		} else {
			rc = add_record(j, doc, where);
		}
		ut_json_free(doc);
		if (rc < 0)
			goto done;
		pos = (size_t)(nl - text.ptr) + 1;
		*keep = pos;
	}
	if (lineno == 0)
		rc = ut_error_set(UT_EINPUT, "%s:1: the journal is empty", j->path);
done:
	ut_buf_dispose(&text);
	return rc;
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

int ut_journal_open(ut_journal **out, const char *path, const ut_journal_header *h,
		    bool resume)
{
	ut_journal *j = journal_alloc(path);
	ut_buf head = UT_BUF_INIT;
	size_t keep = 0;
	int rc = 0;

	*out = NULL;
	if (!j)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (resume) {
		rc = read_existing(j, h, &keep);
		if (rc < 0)
			goto done;
		j->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (j->fd >= 0 && ftruncate(j->fd, (off_t)keep) == 0 &&
		    lseek(j->fd, 0, SEEK_END) >= 0)
			goto done;
	} else {
		write_header(&head, h);
		j->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (j->fd >= 0 && write(j->fd, head.ptr, head.len) == (ssize_t)head.len)
			goto done;
	}
	rc = ut_error_set(UT_EENV, "%s: %s", path, strerror(errno));
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
	ut_map_dispose(&j->queues);
	pthread_mutex_destroy(&j->lock);
	ut_arena_dispose(&j->arena);
	free(j);
}

int ut_journal_load(ut_journal **out, const char *path)
{
	ut_journal *j = journal_alloc(path);
	size_t keep;
	int rc;

	*out = NULL;
	if (!j)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = read_existing(j, NULL, &keep);
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

const ut_journal_record *ut_journal_replay(ut_journal *j, const char *const *ids, size_t n)
{
	const ut_journal_record *r = NULL;
	ut_arena scratch = UT_ARENA_INIT;
	char *key;
	replay_queue *q;

	if (!j || !j->recorded)
		return NULL;
	key = schedule_key(&scratch, ids, n);
	pthread_mutex_lock(&j->lock);
	q = key ? ut_map_get(&j->queues, key, strlen(key)) : NULL;
	if (q && q->next < q->recs.n) {
		r = q->recs.v[q->next++];
		j->replayed++;
	}
	pthread_mutex_unlock(&j->lock);
	ut_arena_dispose(&scratch);
	return r;
}

size_t ut_journal_recorded(const ut_journal *j)
{
	return j ? j->recorded : 0;
}

size_t ut_journal_pending(const ut_journal *j)
{
	return j ? j->recorded - j->replayed : 0;
}

long ut_journal_next_id(ut_journal *j)
{
	long id;

	pthread_mutex_lock(&j->lock);
	id = ++j->last_id;
	pthread_mutex_unlock(&j->lock);
	return id;
}

static void write_record(ut_buf *b, const ut_journal_record *r)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, b, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "run");
	ut_jsonw_int(&w, r->run);
	ut_jsonw_key(&w, "purpose");
	ut_jsonw_str(&w, r->purpose);
	ut_jsonw_key(&w, "worker");
	ut_jsonw_int(&w, r->worker);
	ut_jsonw_key(&w, "batch");
	ut_jsonw_int(&w, r->batch);
	ut_jsonw_key(&w, "tests");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < r->n; i++)
		ut_jsonw_str(&w, r->ids[i]);
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "outcomes");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < r->n; i++)
		ut_jsonw_str(&w, ut_outcome_name(r->outcomes[i]));
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "durations");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < r->n; i++)
		ut_jsonw_double(&w, r->durations[i]);
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "error");
	ut_jsonw_bool(&w, r->error);
	ut_jsonw_key(&w, "detail");
	ut_jsonw_str(&w, r->detail);
	ut_jsonw_key(&w, "attempts");
	ut_jsonw_int(&w, r->attempts);
	ut_jsonw_key(&w, "reset_s");
	ut_jsonw_double(&w, r->reset_s);
	ut_jsonw_key(&w, "start");
	ut_jsonw_fixed(&w, r->start, 3);
	ut_jsonw_key(&w, "end");
	ut_jsonw_fixed(&w, r->end, 3);
	if (r->tail) {
		ut_jsonw_key(&w, "tail");
		ut_jsonw_str(&w, r->tail);
	}
	ut_jsonw_obj_end(&w);
	ut_buf_putc(b, '\n');
}

int ut_journal_append(ut_journal *j, const ut_journal_record *r)
{
	ut_buf line = UT_BUF_INIT;
	size_t off = 0;
	int rc = 0;

	write_record(&line, r);
	if (line.failed) {
		ut_buf_dispose(&line);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	pthread_mutex_lock(&j->lock);
	/* One write per line: a kill leaves at most the last line cut short. */
	while (off < line.len) {
		ssize_t w = write(j->fd, line.ptr + off, line.len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = ut_error_set(UT_EENV, "%s: %s", j->path, strerror(errno));
			break;
		}
		off += (size_t)w;
	}
	if (rc == 0 && fdatasync(j->fd) < 0 && errno != EINVAL)
		rc = ut_error_set(UT_EENV, "%s: %s", j->path, strerror(errno));
	if (r->run > j->last_id)
		j->last_id = r->run;
	pthread_mutex_unlock(&j->lock);
	ut_buf_dispose(&line);
	return rc;
}
