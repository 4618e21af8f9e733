/* walks.c: walks the tests that discovery recorded, on several threads. Each thread walks
 * with a copy of the index whose arenas are its own (the actions' strings, the values the
 * analysis works with) and whose evaluation context is its own (ix.ctx: the cycle guard,
 * the field types kept; up_ctx, env.c), so that the walks share only what they read; the
 * suite's arena takes the threads' blocks at the end. Every test's walk is the same
 * whichever thread does it, and warnings are given in test order, so the output does not
 * depend on the number of threads. Discovery hands each test's recorded walk over here
 * (up_suite_append). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/map.h"
#include "util/workers.h"
#include "util/banned.h"

typedef struct {
	up_index ix; /* the discovery's, with arena and temp below */
	ut_arena out;
	ut_arena temp;
	ut_map memos; /* steps walked before: step_key -> memo, both in memo_arena */
	ut_arena memo_arena;
	up_type_memo types; /* ctx.types */
	up_ctx ctx;	    /* ix.ctx */
	size_t failed; /* the first plan whose walk failed here, or SIZE_MAX */
	char error[256]; /* its error */
} lane;

typedef struct {
	up_discover *d;
	atomic_size_t next; /* the next plan nobody has taken */
	lane lanes[UT_MAX_WORKERS];
} queue;

/* What a step's walk depends on besides the walker's start (no actions, depth 0): its code,
 * its scope (one without bindings of its own: a hook, a method), the test's object, and
 * the test's file (actions elsewhere name their file). */
typedef struct {
	const ut_syn *body;
	const up_file *file;
	const up_env *parent;
	const up_cls *cls, *env_self, *self;
	size_t setup;
} step_key;

/* A step's walk, kept for the next test that runs the same step. */
typedef struct {
	ut_action *v;
	size_t n;
	bool truncated;
} memo;

/* The walker's actions become the test's, in arena. */
static int finish(up_walker *w, ut_test *t, ut_arena *arena)
{
	t->nactions = w->actions.n;
	t->actions = NULL;
	if (!w->actions.n)
		return 0;
	t->actions = ut_arena_alloc(arena, w->actions.n * sizeof(ut_action));
	if (!t->actions)
		return ut_error_set(UT_ENOMEM, "out of memory");
	memcpy(t->actions, w->actions.v, w->actions.n * sizeof(ut_action));
	return 0;
}

/* step_key then the test's file, in buf (size at least sizeof(step_key) + 1); its length,
 * or 0 when the file's name does not fit. */
static size_t key_of(const up_walker *w, const up_walk_step *s, char *buf, size_t size)
{
	step_key k;
	size_t n = strlen(w->test_file);

	if (sizeof(k) + n > size)
		return 0;
	memset(&k, 0, sizeof(k)); /* no stray padding bytes in the key */
	k.body = s->body;
	k.file = s->file;
	k.parent = s->env.parent;
	k.cls = s->env.cls;
	k.env_self = s->env.self;
	k.self = w->self;
	k.setup = s->setup;
	memcpy(buf, &k, sizeof(k));
	memcpy(buf + sizeof(k), w->test_file, n);
	return sizeof(k) + n;
}

/* The walk of step s for w's test. A setup step with no bindings of its own that this lane walked
 * before for a test with the same object and file (the hooks of a class or a describe,
 * which run before each of its tests) gives the actions it gave then: the walk depends on
 * nothing else, and a hook's actions are most of a suite's. */
static int walk_step(lane *l, up_walker *w, up_walk_step *s)
{
	char buf[sizeof(step_key) + 512], *key;
	size_t klen = !s->setup || s->env.locals.n ? 0 : key_of(w, s, buf, sizeof(buf));
	size_t start = w->actions.n;
	bool truncated = w->truncated;
	memo *m;
	int rc;

	if (!klen)
		return up_walk_body(w, &s->env, s->file, s->body);
	m = ut_map_get(&l->memos, buf, klen);
	if (m) {
		if (ut_vec_reserve(&w->actions, w->actions.n + m->n) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		if (m->n)
			memcpy(w->actions.v + w->actions.n, m->v, m->n * sizeof(ut_action));
		w->actions.n += m->n;
		w->truncated = w->truncated || m->truncated;
		return 0;
	}
	w->truncated = false;
	rc = up_walk_body(w, &s->env, s->file, s->body);
	if (rc < 0)
		return rc;
	m = ut_arena_alloc(&l->memo_arena, sizeof(*m));
	key = ut_arena_alloc(&l->memo_arena, klen);
	if (!m || !key)
		return ut_error_set(UT_ENOMEM, "out of memory");
	memcpy(key, buf, klen);
	m->n = w->actions.n - start;
	m->truncated = w->truncated;
	m->v = m->n ? ut_arena_alloc(&l->memo_arena, m->n * sizeof(ut_action)) : NULL;
	if (m->n && !m->v)
		return ut_error_set(UT_ENOMEM, "out of memory");
	if (m->n)
		memcpy(m->v, w->actions.v + start, m->n * sizeof(ut_action));
	w->truncated = truncated || m->truncated;
	return ut_map_put(&l->memos, key, klen, m) < 0 ? ut_error_set(UT_ENOMEM, "out of memory")
						       : 0;
}

static void walk(lane *l, ut_test *t, up_walk_plan *p)
{
	ut_arena_mark mark = ut_arena_save(&l->temp);
	up_walker w;
	size_t i;
	int rc = 0;

	memset(&w, 0, sizeof(w));
	w.ix = &l->ix;
	w.test_file = p->test_file;
	w.self = p->self;
	for (i = 0; i < p->nsteps && rc == 0; i++) {
		up_walk_step *s = &p->steps[i];

		w.setup = s->setup;
		rc = walk_step(l, &w, s);
		up_env_dispose(&s->env); /* walked once: what the walk bound there goes */
	}
	if (rc == 0)
		rc = finish(&w, t, &l->out);
	p->truncated = w.truncated;
	p->rc = rc;
	up_walker_dispose(&w);
	ut_arena_restore(&l->temp, mark); /* the test's values are in its actions now */
}

static void worker(void *arg, unsigned k)
{
	queue *q = arg;
	lane *l = &q->lanes[k];
	up_discover *d = q->d;

	for (;;) {
		size_t i = atomic_fetch_add(&q->next, 1);
		up_walk_plan *p;

		if (i >= d->plans.n)
			return;
		p = &d->plans.v[i];
		walk(l, &d->suite->tests.v[p->test], p);
		/* a lane takes plans in increasing order: its first failure is its earliest */
		if (p->rc < 0 && l->failed == SIZE_MAX) {
			l->failed = i;
			snprintf(l->error, sizeof(l->error), "%s", ut_error_message());
		}
	}
}

void up_walks_dispose(up_discover *d)
{
	size_t i, k;

	for (i = 0; i < d->plans.n; i++)
		for (k = 0; k < d->plans.v[i].nsteps; k++)
			up_env_dispose(&d->plans.v[i].steps[k].env);
	ut_vec_free(&d->plans);
	ut_arena_dispose(&d->walk_arena);
}

int up_walks_run(up_discover *d)
{
	queue *q = calloc(1, sizeof(*q));
	unsigned threads, k, first;
	size_t i;
	int rc = 0;

	if (!q) {
		up_walks_dispose(d);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	q->d = d;
	atomic_init(&q->next, 0);
	threads = ut_workers_count(d->jobs, d->plans.n);
	for (k = 0; k < threads; k++) {
		q->lanes[k].ix = *d->ix;
		q->lanes[k].ix.arena = &q->lanes[k].out;
		q->lanes[k].ix.temp = &q->lanes[k].temp;
		q->lanes[k].failed = SIZE_MAX;
		ut_arena_init(&q->lanes[k].memo_arena);
		ut_arena_init(&q->lanes[k].types.arena);
		up_ctx_init(&q->lanes[k].ctx, &q->lanes[k].types);
		q->lanes[k].ix.ctx = &q->lanes[k].ctx;
	}
	if (d->plans.n)
		ut_workers_run(threads, worker, q);
	/* the failure of the earliest test, whichever lane walked it */
	for (k = 0, first = 0; k < threads; k++)
		if (q->lanes[k].failed < q->lanes[first].failed)
			first = k;
	if (q->lanes[first].failed != SIZE_MAX)
		rc = ut_error_set(d->plans.v[q->lanes[first].failed].rc, "%s",
				  q->lanes[first].error);
	for (i = 0; i < d->plans.n && rc == 0; i++) {
		const up_walk_plan *p = &d->plans.v[i];
		const ut_test *t = &d->suite->tests.v[p->test];

		if (p->truncated)
			ut_diags_add(d->diags, UT_DIAG_WARNING, t->file, t->line,
				     "test '%s' nests deeper than %d levels; the rest is not analysed",
				     t->id, UT_MAX_WALK_DEPTH);
	}
	for (k = 0; k < threads; k++) {
		ut_arena_adopt(&d->suite->arena, &q->lanes[k].out);
		ut_arena_dispose(&q->lanes[k].temp);
		ut_map_dispose(&q->lanes[k].memos);
		ut_arena_dispose(&q->lanes[k].memo_arena);
		ut_map_dispose(&q->lanes[k].types.map);
		ut_arena_dispose(&q->lanes[k].types.arena);
	}
	free(q);
	up_walks_dispose(d);
	return rc;
}

int up_suite_append(up_discover *d, const up_file *f, const char *id, const char *name,
		    const ut_syn *node, const char *framework, up_walker *w)
{
	ut_test t;
	up_walk_plan plan;
	ut_arena *a = &d->suite->arena;

	if (ut_map_find(&d->ids, id, strlen(id), NULL)) {
		ut_diags_add(d->diags, UT_DIAG_WARNING, f->rel, up_syn_line(f->tree, node),
			     "test '%s' is defined twice; the first definition is kept", id);
		return 0;
	}
	memset(&t, 0, sizeof(t));
	t.id = ut_arena_strdup(a, id);
	t.name = ut_arena_strdup(a, name);
	t.file = f->rel;
	t.line = up_syn_line(f->tree, node);
	t.end_line = up_syn_end_line(f->tree, node);
	t.body = ut_test_body_hash(f->src.ptr, f->src.len, t.line, t.end_line, NULL);
	t.body_unnamed = ut_test_body_hash(f->src.ptr, f->src.len, t.line, t.end_line, name);
	t.index = d->suite->tests.n;
	t.language = f->lang == UT_LANG_TSX ? UT_LANG_TYPESCRIPT : f->lang;
	t.framework = framework;
	memset(&plan, 0, sizeof(plan));
	plan.test = t.index;
	plan.test_file = w->test_file;
	plan.self = w->self;
	plan.nsteps = w->steps.n;
	plan.steps = ut_arena_alloc(&d->walk_arena, w->steps.n * sizeof(up_walk_step));
	if (!t.id || !t.name || !plan.steps || ut_vec_push(&d->suite->tests, t) < 0 ||
	    ut_map_put(&d->ids, t.id, strlen(t.id), NULL) < 0 || ut_vec_push(&d->plans, plan) < 0)
		return ut_error_set(UT_ENOMEM, "out of memory");
	/* the plan has the steps now: walked with the others' (up_walks_run) */
	if (w->steps.n)
		memcpy(plan.steps, w->steps.v, w->steps.n * sizeof(up_walk_step));
	w->steps.n = 0;
	return 0;
}
