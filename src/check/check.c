/* check.c: what a change did to the suite, and what its re-validation found. */
#include "check/check.h"
#include "check/internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect/detect.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

#define CK_MAX_FILE (64u << 20)

static const char *const kind_names[] = {"same", "added", "removed", "renamed", "modified",
					 "reordered"};

const char *ut_change_kind_name(ut_change_kind k)
{
	return (unsigned)k <= UT_CHANGE_REORDERED ? kind_names[k] : "?";
}

/* What the test does: its actions, without their lines. */
static uint64_t actions_hash(const ut_test *t)
{
	uint64_t h = UT_HASH_BASIS;

	for (size_t i = 0; i < t->nactions; i++) {
		const ut_action *a = &t->actions[i];
		char head[8] = {(char)('0' + a->kind), (char)('0' + a->setup), '|'};

		h = ut_hash_more(h, head, 3);
		if (a->file)
			h = ut_hash_more(h, a->file, strlen(a->file) + 1);
		if (a->via)
			h = ut_hash_more(h, a->via, strlen(a->via) + 1);
		for (size_t k = 0; k < a->nvalues; k++)
			h = ut_hash_more(h, a->values[k], strlen(a->values[k]) + 1);
		h = ut_hash_more(h, "#", 1);
		for (size_t k = 0; k < a->nunresolved; k++)
			h = ut_hash_more(h, a->unresolved[k], strlen(a->unresolved[k]) + 1);
		h = ut_hash_more(h, ";", 1);
	}
	return h;
}

/* Marks as reordered the matched head tests off a longest run of matched tests whose
 * base order is kept (the fewest tests that moved). */
static int find_reordered(ut_check *c, size_t nh)
{
	size_t *tail = malloc((nh ? nh : 1) * sizeof(*tail)); /* head index of tail per length */
	size_t *prev = malloc((nh ? nh : 1) * sizeof(*prev));
	unsigned char *keep = calloc(nh ? nh : 1, 1);
	size_t len = 0, i, k;

	if (!tail || !prev || !keep) {
		free(tail);
		free(prev);
		free(keep);
		return ut_error_set(UT_ENOMEM, "out of memory");
	}
	for (i = 0; i < nh; i++) {
		size_t lo = 0, hi = len;
		long b = c->head[i].other;

		if (b < 0)
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (c->head[tail[mid]].other < b)
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : (size_t)-1;
		tail[lo] = i;
		if (lo == len)
			len++;
	}
	for (k = len ? tail[len - 1] : (size_t)-1; k != (size_t)-1; k = prev[k])
		keep[k] = 1;
	for (i = 0; i < nh; i++) {
		if (c->head[i].other >= 0 && !keep[i] && c->head[i].kind == UT_CHANGE_SAME)
			c->head[i].kind = UT_CHANGE_REORDERED;
	}
	free(tail);
	free(prev);
	free(keep);
	return 0;
}

/* Matches tests by id, then removed and added tests with the same body (name aside) and
 * the same actions as renamed. */
static int classify(ut_check *c)
{
	const ut_suite *base = c->in->base.suite, *head = c->in->head.suite;
	ut_map ids = UT_MAP_INIT, bodies = UT_MAP_INIT;
	char (*keys)[17] = NULL;
	size_t i, nb = base->tests.n, nh = head->tests.n;
	int rc = 0;

	for (i = 0; rc == 0 && i < nb; i++) {
		c->base[i] = (ut_check_entry){UT_CHANGE_REMOVED, -1};
		rc = ut_map_put(&ids, base->tests.v[i].id, strlen(base->tests.v[i].id),
				(void *)(i + 1));
	}
	for (i = 0; rc == 0 && i < nh; i++) {
		const ut_test *t = &head->tests.v[i];
		size_t b = (size_t)ut_map_get(&ids, t->id, strlen(t->id));
		uint64_t hb, hh;

		c->head[i] = (ut_check_entry){UT_CHANGE_ADDED, -1};
		if (!b)
			continue;
		b--;
		hb = base->tests.v[b].body;
		hh = t->body;
		c->head[i] = (ut_check_entry){hb == hh && actions_hash(&base->tests.v[b]) ==
						       actions_hash(t) ? UT_CHANGE_SAME
								       : UT_CHANGE_MODIFIED,
					      (long)b};
		c->base[b] = (ut_check_entry){c->head[i].kind, (long)i};
	}
	/* renames: the body without the name, and the actions, as the key */
	keys = calloc(nb ? nb : 1, sizeof(*keys));
	if (rc == 0 && !keys)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && i < nb; i++) {
		uint64_t h;

		if (c->base[i].kind != UT_CHANGE_REMOVED)
			continue;
		h = base->tests.v[i].body_unnamed;
		snprintf(keys[i], sizeof(keys[i]), "%016llx",
			 (unsigned long long)(h ^ actions_hash(&base->tests.v[i])));
		if (rc == 0 && !ut_map_get(&bodies, keys[i], 16))
			rc = ut_map_put(&bodies, keys[i], 16, (void *)(i + 1));
	}
	for (i = 0; rc == 0 && bodies.n && i < nh; i++) {
		char key[17];
		uint64_t h;
		size_t b;

		if (c->head[i].kind != UT_CHANGE_ADDED)
			continue;
		h = head->tests.v[i].body_unnamed;
		snprintf(key, sizeof(key), "%016llx",
			 (unsigned long long)(h ^ actions_hash(&head->tests.v[i])));
		b = (size_t)ut_map_get(&bodies, key, 16);
		if (!b || c->base[b - 1].kind != UT_CHANGE_REMOVED)
			continue;
		c->head[i] = (ut_check_entry){UT_CHANGE_RENAMED, (long)(b - 1)};
		c->base[b - 1] = (ut_check_entry){UT_CHANGE_RENAMED, (long)i};
	}
	if (rc == 0)
		rc = find_reordered(c, nh);
	for (i = 0; rc == 0 && i < nh; i++)
		c->count[c->head[i].kind]++;
	for (i = 0; rc == 0 && i < nb; i++)
		c->count[UT_CHANGE_REMOVED] += c->base[i].kind == UT_CHANGE_REMOVED;
	free(keys);
	ut_map_dispose(&ids);
	ut_map_dispose(&bodies);
	return rc;
}

const char *ck_prefixed(ut_check *c, const char *file)
{
	const char *p = c->in->repo_prefix ? c->in->repo_prefix : "";

	if (!file)
		return NULL;
	return *p ? ut_arena_printf(&c->graph->arena, "%s%s", p, file) : file;
}

ut_finding_test ck_head_ref(ut_check *c, size_t h)
{
	const ut_test *t = &c->in->head.suite->tests.v[h];

	return (ut_finding_test){t->id, ck_prefixed(c, t->file), t->line};
}

static int add_finding(ut_check *c, ut_findings *fs, ut_finding_kind kind, size_t h,
		       const ut_finding_test *rel, size_t nrel, const long *ev, size_t nev,
		       const char *title, const char *message)
{
	const ut_test *t = &c->in->head.suite->tests.v[h];
	ut_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	f.severity = ut_finding_kind_severity(kind);
	f.test = t->id;
	f.file = ck_prefixed(c, t->file);
	f.line = t->line;
	f.end_line = t->end_line;
	f.title = title;
	f.message = message;
	f.related = (ut_finding_test *)rel;
	f.nrelated = nrel;
	f.evidence = (long *)ev;
	f.nevidence = nev;
	return ut_findings_add(fs, &f);
}

static void need(ut_check *c, size_t h, unsigned char level)
{
	if (c->revalidate[h] < level)
		c->revalidate[h] = level;
}

/* Notes that head test hd depended directly on base test be, which the change removes or
 * renames (to head test he, or -1): one loss per such test, its root cause. */
static int lose(ut_check *c, long be, long he, long hd)
{
	ut_check_loss *l = NULL;

	for (size_t i = 0; i < c->losses.n && !l; i++)
		l = c->losses.v[i].base == be ? &c->losses.v[i] : NULL;
	if (!l) {
		ut_check_loss nl = {be, he, {0}};

		if (ut_vec_push(&c->losses, nl) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		l = &c->losses.v[c->losses.n - 1];
	}
	if (he < 0 && !c->lost[hd])
		c->lost[hd] = UT_LOST_UNKNOWN;
	return ut_vec_push(&l->direct, (uint32_t)hd) < 0 ? ut_error_set(UT_ENOMEM, "out of memory")
							  : 0;
}

/* Carries one manifest edge of the base graph over to the head graph, or says what the
 * change did to it. */
static int carry(ut_check *c, const ut_edge *e)
{
	const ut_suite *head = c->in->head.suite;
	long bd, be, hd, he;
	ut_finding_test rel;
	ut_edge *ne;
	char *msg;
	int rc;

	bd = c->base_of_graph_[e->dependent];
	be = c->base_of_graph_[e->dependee];
	if (bd < 0 || be < 0)
		return 0;
	hd = c->base[bd].other;
	he = c->base[be].other;
	if (hd < 0)
		return 0; /* the dependent went too */
	if (he < 0) {
		need(c, (size_t)hd, UT_REVALIDATE_VERIFY);
		return lose(c, be, -1, hd);
	}
	if (c->base[be].kind == UT_CHANGE_RENAMED) {
		rc = lose(c, be, he, hd);
		if (rc < 0)
			return rc;
	}
	if (he > hd) {
		rel = ck_head_ref(c, (size_t)he);
		msg = ut_arena_printf(&c->graph->arena,
				      "%s depends on %s, but this change makes it run first (%s is "
				      "now test %ld, %s test %ld): it will fail in the original order.",
				      head->tests.v[hd].id, head->tests.v[he].id, head->tests.v[hd].id,
				      hd + 1, head->tests.v[he].id, he + 1);
		need(c, (size_t)hd, UT_REVALIDATE_VERIFY);
		return add_finding(c, &c->pre, UT_FINDING_REORDER, (size_t)hd, &rel, 1, NULL, 0,
				   NULL, msg ? msg : "");
	}
	rc = ut_graph_add(c->graph, (uint32_t)hd, (uint32_t)he, e->origin, &ne);
	if (rc < 0)
		return rc;
	ne->status = UT_EDGE_MANIFEST;
	ne->reason = "carried over from the base graph";
	for (uint32_t k = 0; rc == 0 && k < e->nvalues; k++)
		rc = ut_graph_add_value(c->graph, ne, e->values[k].value, e->values[k].setup);
	return rc;
}

/* A pair kept apart (shard --verify) stays while both tests do, in the same order. */
static int carry_apart(ut_check *c, const ut_apart *a)
{
	long bf = c->base_of_graph_[a->first], bt = c->base_of_graph_[a->then];
	long hf = bf < 0 ? -1 : c->base[bf].other, ht = bt < 0 ? -1 : c->base[bt].other;

	if (hf < 0 || ht < 0 || hf >= ht)
		return 0;
	return ut_graph_add_apart(c->graph, (uint32_t)hf, (uint32_t)ht, a->failed_run,
				  a->passed_run);
}

/* The head suite's candidate edges of a test validated from scratch. */
static int add_candidates(ut_check *c)
{
	const ut_graph *cg = c->in->candidates;
	int rc = 0;

	if (!cg || cg->ntests != c->graph->ntests)
		return 0;
	for (size_t i = 0; rc == 0 && i < cg->ntests; i++) {
		const ut_graph_test *t = &cg->tests[i];

		rc = ut_graph_set_hints(c->graph, i, t->nouns, t->nnouns, t->dobj, t->verb);
	}
	for (size_t i = 0; rc == 0 && i < cg->edges.n; i++) {
		const ut_edge *e = &cg->edges.v[i];
		ut_edge *ne;

		if (c->revalidate[e->dependent] != UT_REVALIDATE_SEARCH ||
		    e->status == UT_EDGE_FALSE)
			continue;
		rc = ut_graph_add(c->graph, e->dependent, e->dependee, e->origin, &ne);
		if (rc < 0 || ne->status == UT_EDGE_MANIFEST)
			continue;
		ne->filtered_by = e->filtered_by;
		ne->reason = e->reason;
		for (uint32_t k = 0; rc == 0 && k < e->nvalues; k++)
			rc = ut_graph_add_value(c->graph, ne, e->values[k].value, e->values[k].setup);
	}
	return rc;
}

/* Each base test's test in the base graph (base_graph_of) and back (base_of_graph_), the
 * graph tests no base test has (graph_unknown); a kept test takes its graph's duration
 * and flags, one the graph does not know is validated from scratch. 0 or UT_ENOMEM. */
static int link_base_graph(ut_check *c)
{
	const ut_suite *base = c->in->base.suite;
	const ut_graph *bg = c->in->base_graph;
	ut_map gids = UT_MAP_INIT;
	size_t i, nb = base->tests.n;
	int rc = 0;

	for (i = 0; rc == 0 && i < bg->ntests; i++)
		rc = ut_map_put(&gids, bg->tests[i].id, strlen(bg->tests[i].id), (void *)(i + 1));
	for (i = 0; rc == 0 && i < nb; i++) {
		long gi = (long)(size_t)ut_map_get(&gids, base->tests.v[i].id,
						   strlen(base->tests.v[i].id)) - 1;
		long h = c->base[i].other;

		c->base_graph_of[i] = gi;
		if (h < 0)
			continue;
		if (gi < 0) { /* the graph does not know it: validate it from scratch */
			need(c, (size_t)h, UT_REVALIDATE_SEARCH);
			continue;
		}
		c->graph->tests[h].duration_s = bg->tests[gi].duration_s;
		c->graph->tests[h].flaky = bg->tests[gi].flaky;
		c->graph->tests[h].failing = bg->tests[gi].failing;
		c->graph->tests[h].needs_left_out = bg->tests[gi].needs_left_out;
	}
	c->base_of_graph_ = malloc((bg->ntests ? bg->ntests : 1) * sizeof(long));
	if (rc == 0 && !c->base_of_graph_)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; rc == 0 && i < bg->ntests; i++)
		c->base_of_graph_[i] = -1;
	c->graph_unknown = bg->ntests;
	for (i = 0; rc == 0 && i < nb; i++) {
		if (c->base_graph_of[i] >= 0) {
			c->base_of_graph_[c->base_graph_of[i]] = (long)i;
			c->graph_unknown--;
		}
	}
	ut_map_dispose(&gids);
	return rc;
}

/* Added tests are searched, modified, renamed and reordered ones verified. */
static void need_changed(ut_check *c)
{
	for (size_t i = 0; i < c->in->head.suite->tests.n; i++) {
		switch (c->head[i].kind) {
		case UT_CHANGE_ADDED:
			need(c, i, UT_REVALIDATE_SEARCH);
			break;
		case UT_CHANGE_MODIFIED:
		case UT_CHANGE_RENAMED:
		case UT_CHANGE_REORDERED:
			need(c, i, UT_REVALIDATE_VERIFY);
			break;
		default:
			break;
		}
	}
}

int ut_check_prepare(ut_check *c, const ut_check_input *in)
{
	const ut_suite *base = in->base.suite, *head = in->head.suite;
	const ut_graph *bg = in->base_graph;
	size_t i, nb = base->tests.n, nh = head->tests.n;
	int rc;

	memset(c, 0, sizeof(*c));
	c->in = in;
	ut_findings_init(&c->pre);
	c->head = calloc(nh ? nh : 1, sizeof(*c->head));
	c->base = calloc(nb ? nb : 1, sizeof(*c->base));
	c->revalidate = calloc(nh ? nh : 1, 1);
	c->base_graph_of = malloc((nb ? nb : 1) * sizeof(*c->base_graph_of));
	c->lost = calloc(nh ? nh : 1, 1);
	c->lost_run = calloc(nh ? nh : 1, sizeof(*c->lost_run));
	if (!c->head || !c->base || !c->revalidate || !c->base_graph_of || !c->lost ||
	    !c->lost_run)
		return ut_error_set(UT_ENOMEM, "out of memory");
	rc = classify(c);
	if (rc == 0)
		rc = ut_graph_new(&c->graph, nh);
	for (i = 0; rc == 0 && i < nh; i++) {
		const ut_test *t = &head->tests.v[i];

		rc = ut_graph_set_test(c->graph, i, t->id, t->name, t->file, t->line, t->end_line);
		if (rc == 0)
			c->graph->tests[i].body = t->body;
		c->graph->tests[i].duration_s = -1;
	}
	if (rc == 0)
		rc = link_base_graph(c);
	if (rc == 0)
		need_changed(c);
	for (i = 0; rc == 0 && i < bg->edges.n; i++) {
		if (bg->edges.v[i].status == UT_EDGE_MANIFEST && ut_edge_active(&bg->edges.v[i]))
			rc = carry(c, &bg->edges.v[i]);
	}
	for (i = 0; rc == 0 && i < bg->apart.n; i++)
		rc = carry_apart(c, &bg->apart.v[i]);
	if (rc == 0)
		rc = add_candidates(c);
	return rc;
}

size_t ut_check_affected(const ut_check *c)
{
	size_t n = 0;

	for (size_t i = 0; c->graph && i < c->graph->ntests; i++)
		n += c->revalidate[i] != UT_REVALIDATE_KEEP;
	return n;
}

/* Whether the base graph had hd -> he (head indices) as a manifest edge. */
static bool had_edge(const ut_map *base_pairs, size_t hd, size_t he)
{
	char key[48];
	int n = snprintf(key, sizeof(key), "%zu>%zu", hd, he);

	return ut_map_get(base_pairs, key, (size_t)n) != NULL;
}

static int base_pairs_build(ut_check *c, ut_map *pairs)
{
	const ut_graph *bg = c->in->base_graph;
	long *head_of = malloc((bg->ntests ? bg->ntests : 1) * sizeof(*head_of));
	int rc = 0;

	if (!head_of)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (size_t i = 0; i < bg->ntests; i++)
		head_of[i] = -1;
	for (size_t i = 0; i < c->in->base.suite->tests.n; i++) {
		if (c->base_graph_of[i] >= 0)
			head_of[c->base_graph_of[i]] = c->base[i].other;
	}
	for (size_t i = 0; rc == 0 && i < bg->edges.n; i++) {
		const ut_edge *e = &bg->edges.v[i];
		char *key;

		if (e->status != UT_EDGE_MANIFEST || head_of[e->dependent] < 0 ||
		    head_of[e->dependee] < 0)
			continue;
		key = ut_arena_printf(&c->graph->arena, "%ld>%ld", head_of[e->dependent],
				      head_of[e->dependee]);
		rc = key ? ut_map_put(pairs, key, strlen(key), (void *)1)
			 : ut_error_set(UT_ENOMEM, "out of memory");
	}
	free(head_of);
	return rc;
}

typedef UT_VEC(ut_finding_test) ck_refs;

static int conclude_test(ut_check *c, ut_findings *out, size_t t, const long *fail_run,
			 ut_buf *msg, ck_refs *rel)
{
	const ut_graph *g = c->graph;
	const ut_graph *bg = c->in->base_graph;
	long b = c->head[t].other, gi = b >= 0 ? c->base_graph_of[b] : -1;
	bool was_out = gi >= 0 && (bg->tests[gi].flaky || bg->tests[gi].failing);
	long ev = fail_run ? fail_run[t] : 0;

	if ((!g->tests[t].flaky && !g->tests[t].failing) ||
	    (was_out && c->revalidate[t] != UT_REVALIDATE_SEARCH))
		return 0;
	rel->n = 0;
	ut_buf_clear(msg);
	ut_buf_printf(msg, "%s %s", g->tests[t].id,
		      g->tests[t].flaky ? "did not pass every time it ran in its schedule"
					: "fails in its schedule with its known prerequisites, and "
					  "no earlier tests make it pass");
	for (size_t i = 0; i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];

		if (e->dependent != t || !ut_edge_active(e))
			continue;
		if (ut_vec_push(rel, ck_head_ref(c, e->dependee)) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
		ut_buf_printf(msg, "%s%s", rel->n == 1 ? " (" : ", ", g->tests[e->dependee].id);
	}
	ut_buf_printf(msg, "%s. %s", rel->n ? ")" : "",
		      c->head[t].kind == UT_CHANGE_SAME
			      ? "The test did not change: what it depends on did."
			      : "This change touches the test.");
	if (msg->failed)
		return ut_error_set(UT_ENOMEM, "out of memory");
	{
		ut_finding f;

		memset(&f, 0, sizeof(f));
		f.kind = UT_FINDING_BROKEN;
		f.severity = g->tests[t].flaky ? UT_SEVERITY_WARNING : UT_SEVERITY_ERROR;
		f.test = g->tests[t].id;
		f.file = ck_prefixed(c, g->tests[t].file);
		f.line = g->tests[t].line;
		f.end_line = g->tests[t].end_line;
		f.title = g->tests[t].flaky ? "Flaky in its schedule" : NULL;
		f.message = msg->ptr;
		f.related = rel->v;
		f.nrelated = rel->n;
		f.evidence = ev > 0 ? &ev : NULL;
		f.nevidence = ev > 0;
		return ut_findings_add(out, &f);
	}
}

int ut_check_conclude(ut_check *c, ut_findings *out, const long *fail_run)
{
	const ut_graph *g = c->graph;
	ut_map pairs = UT_MAP_INIT;
	ut_buf msg = UT_BUF_INIT;
	ck_refs rel = {0};
	unsigned char *folded = calloc(g->ntests ? g->ntests : 1, 1);
	int rc = folded ? ck_root_causes(c, out, folded) : ut_error_set(UT_ENOMEM, "out of memory");

	for (size_t i = 0; rc == 0 && i < c->pre.v.n; i++)
		rc = ut_findings_add(out, &c->pre.v.v[i]);
	for (size_t t = 0; rc == 0 && t < g->ntests; t++) {
		if (!folded[t]) /* a consequence of a root cause, named in it */
			rc = conclude_test(c, out, t, fail_run, &msg, &rel);
	}
	if (rc == 0)
		rc = base_pairs_build(c, &pairs);
	for (size_t i = 0; rc == 0 && i < g->edges.n; i++) {
		const ut_edge *e = &g->edges.v[i];
		ut_finding_test r;

		if (e->status != UT_EDGE_MANIFEST || had_edge(&pairs, e->dependent, e->dependee))
			continue;
		ut_buf_clear(&msg);
		ut_buf_printf(&msg, "%s now depends on %s: it fails without it and passes with it",
			      g->tests[e->dependent].id, g->tests[e->dependee].id);
		for (uint32_t k = 0; k < e->nvalues; k++)
			ut_buf_printf(&msg, "%s'%s'", k ? ", " : " (values it uses: ",
				      e->values[k].value);
		ut_buf_printf(&msg, "%s. Schedules, shards and minimized suites now keep %s before "
			      "it.", e->nvalues ? ")" : "", g->tests[e->dependee].id);
		if (msg.failed) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		r = ck_head_ref(c, e->dependee);
		rc = add_finding(c, out, UT_FINDING_NEW_EDGE, e->dependent, &r, 1, e->evidence.v,
				 e->evidence.n, NULL, msg.ptr);
	}
	ut_vec_free(&rel);
	ut_buf_dispose(&msg);
	ut_map_dispose(&pairs);
	free(folded);
	if (rc == 0)
		ut_findings_sort(out);
	return rc;
}

void ut_check_dispose(ut_check *c)
{
	free(c->head);
	free(c->base);
	free(c->revalidate);
	free(c->base_graph_of);
	free(c->base_of_graph_);
	for (size_t i = 0; i < c->losses.n; i++)
		ut_vec_free(&c->losses.v[i].direct);
	ut_vec_free(&c->losses);
	free(c->lost);
	free(c->lost_run);
	ut_findings_dispose(&c->pre);
	ut_graph_free(c->graph);
	memset(c, 0, sizeof(*c));
}
