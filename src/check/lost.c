/* lost.c: removed and renamed prerequisites: the bounded search for a stand-in before the
 * re-validation, and one root cause per such test afterwards, its dependents folded in. */
#include "check/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/banned.h"

typedef UT_VEC(uint32_t) ck_tests;

static bool manifest(const ut_edge *e, void *ctx)
{
	(void)ctx;
	return e->status == UT_EDGE_MANIFEST && ut_edge_active(e);
}

static bool left_out(const ut_graph *g, size_t t)
{
	return g->tests[t].flaky || g->tests[t].failing;
}

/* Marks in `mark` every test that depends, through manifest edges, on one already marked
 * (a prerequisite always runs earlier: one pass in order). */
static void mark_dependents(const ut_adjacency *adj, unsigned char *mark)
{
	for (size_t t = 0; t < adj->ntests; t++) {
		for (uint32_t k = adj->start[t]; !mark[t] && k < adj->start[t + 1]; k++)
			mark[t] = mark[adj->deps[k]];
	}
}

/* What the probes run with. */
typedef struct {
	ut_runner *runner;
	ut_journal *journal;
	const ut_detect_opts *opts;
	ut_detect_stats *stats;
} ck_prober;

/* 1. Each direct dependent who->v[i] in its schedule of sch, without what the change
 * removes: passes (UT_LOST_PASSES) or broken (UT_LOST_BROKEN, unless every earlier test
 * makes it pass). *nfail broken ones, *last the last of them. 0 or the error. */
static int probe_schedules(ut_check *c, ut_scheduler *sch, const ck_tests *who,
			   const ck_prober *pr, uint32_t *last, size_t *nfail)
{
	ut_graph *g = c->graph;
	ck_tests *scheds = calloc(who->n, sizeof(*scheds));
	ut_detect_probe_job *jobs = calloc(who->n, sizeof(*jobs));
	ut_detect_probe_result *res = calloc(who->n, sizeof(*res));
	char(*purpose)[240] = calloc(who->n, sizeof(*purpose));
	int rc = 0;

	if (!scheds || !jobs || !res || !purpose) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t m = 0; rc == 0 && m < who->n; m++) {
		rc = ut_scheduler_of(sch, who->v[m], &scheds[m].v, &scheds[m].n, &scheds[m].cap);
		snprintf(purpose[m], sizeof(purpose[m]), "the schedule of %s without its removed "
			 "prerequisite", g->tests[who->v[m]].id);
		jobs[m] = (ut_detect_probe_job){scheds[m].v, scheds[m].n, purpose[m]};
	}
	if (rc == 0)
		rc = ut_detect_probe(g, pr->runner, pr->journal, pr->opts, jobs, who->n, res,
				     pr->stats);
	for (size_t i = 0; rc == 0 && i < who->n; i++) {
		uint32_t d = who->v[i];

		if (res[i].error)
			continue; /* no verdict: verified by the re-validation */
		c->lost_run[d] = res[i].run;
		if (res[i].outcomes[scheds[i].n - 1] == UT_OUT_PASS) {
			c->lost[d] = UT_LOST_PASSES;
			if (c->head[d].kind == UT_CHANGE_SAME)
				c->revalidate[d] = UT_REVALIDATE_KEEP;
			continue;
		}
		c->lost[d] = UT_LOST_BROKEN; /* unless every earlier test makes it pass */
		*last = d;
		(*nfail)++;
	}
done:
	for (size_t i = 0; scheds && i < who->n; i++) {
		ut_vec_free(&scheds[i]);
		free(res[i].outcomes);
	}
	free(scheds);
	free(jobs);
	free(res);
	free(purpose);
	return rc;
}

/* 2. What every earlier test gives the broken ones: the suite in order up to `last`.
 * Those it makes pass have a stand-in (UT_LOST_STANDIN; UT_LOST_UNKNOWN when the run
 * gave nothing); the others are marked in `gone`. 0 or the error. */
static int probe_order(ut_check *c, uint32_t last, const ck_prober *pr, unsigned char *gone)
{
	ut_graph *g = c->graph;
	ck_tests order = {0};
	ut_detect_probe_result ores;
	int rc = 0;

	memset(&ores, 0, sizeof(ores));
	for (uint32_t t = 0; rc == 0 && t <= last; t++) {
		if (!left_out(g, t) && ut_vec_push(&order, t) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (rc == 0) {
		ut_detect_probe_job oj = {order.v, order.n, "the suite in order, for a stand-in of "
					  "removed prerequisites"};

		rc = ut_detect_probe(g, pr->runner, pr->journal, pr->opts, &oj, 1, &ores,
				     pr->stats);
	}
	if (rc < 0)
		goto done;
	c->order_run = ores.error ? 0 : ores.run;
	for (size_t i = 0; i < order.n; i++) {
		uint32_t d = order.v[i];

		if (c->lost[d] != UT_LOST_BROKEN)
			continue;
		if (ores.error || ores.outcomes[i] == UT_OUT_PASS) {
			/* a stand-in exists (or nothing is known): the re-validation searches it */
			c->lost[d] = ores.error ? UT_LOST_UNKNOWN : UT_LOST_STANDIN;
			continue;
		}
		gone[d] = 1;
	}
done:
	free(ores.outcomes);
	ut_vec_free(&order);
	return rc;
}

int ut_check_settle_lost(ut_check *c, ut_runner *runner, ut_journal *journal,
			 const ut_detect_opts *opts, ut_detect_stats *stats)
{
	ut_graph *g = c->graph;
	size_t n = g->ntests, nfail = 0;
	ck_prober pr = {runner, journal, opts, stats};
	ut_scheduler sch;
	ck_tests who = {0};
	unsigned char *gone = NULL;
	uint32_t last = 0;
	int rc;

	for (uint32_t t = 0; t < n; t++) {
		if (c->lost[t] == UT_LOST_UNKNOWN && !left_out(g, t) && ut_vec_push(&who, t) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (!who.n)
		return 0;
	/* d's schedule in the head graph, over its manifest edges */
	rc = ut_scheduler_init_over(&sch, g, manifest, NULL);
	if (rc < 0) {
		ut_vec_free(&who);
		return rc;
	}
	gone = calloc(n ? n : 1, 1);
	if (!gone) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	rc = probe_schedules(c, &sch, &who, &pr, &last, &nfail);
	if (rc < 0 || !nfail)
		goto done;
	rc = probe_order(c, last, &pr, gone);
	if (rc < 0)
		goto done;
	/* 3. the broken ones, and everything that depends on them, left out without running */
	mark_dependents(&sch.adj, gone);
	for (size_t t = 0; t < n; t++) {
		if (!gone[t])
			continue;
		g->tests[t].failing = true;
		c->revalidate[t] = UT_REVALIDATE_KEEP;
	}
done:
	free(gone);
	ut_vec_free(&who);
	ut_scheduler_dispose(&sch);
	return rc;
}

/* The tests of v whose state is `state` (any: UT_LOST_NONE). */
static size_t count(const ut_check *c, const ck_tests *v, int state)
{
	size_t total = 0;

	for (size_t i = 0; i < v->n; i++)
		total += state == UT_LOST_NONE || c->lost[v->v[i]] == state;
	return total;
}

/* "A, B and C" of the tests of v whose state is `state` (any: UT_LOST_NONE). */
static void list(ut_buf *b, const ut_graph *g, const ut_check *c, const ck_tests *v, int state)
{
	size_t k = 0, total = count(c, v, state);
	for (size_t i = 0; i < v->n; i++) {
		if (state != UT_LOST_NONE && c->lost[v->v[i]] != state)
			continue;
		ut_buf_printf(b, "%s%s", k == 0 ? "" : k + 1 == total ? " and " : ", ",
			      g->tests[v->v[i]].id);
		k++;
	}
}

/* The message of one root cause. */
static int root_message(ut_buf *b, ut_check *c, const ut_check_loss *l, const ck_tests *through)
{
	const ut_graph *g = c->graph;
	const ut_test *r = &c->in->base.suite->tests.v[l->base];
	ck_tests direct = {l->direct.v, l->direct.n, 0};
	size_t k;

	if (l->head >= 0) {
		ut_buf_printf(b, "%s is renamed to %s by this change, and %zu test%s depended on it "
			      "directly: ", r->id, g->tests[l->head].id, direct.n,
			      direct.n == 1 ? "" : "s");
		list(b, g, c, &direct, UT_LOST_NONE);
		if (through->n) {
			ut_buf_printf(b, "; through them, %zu more: ", through->n);
			list(b, g, c, through, UT_LOST_NONE);
		}
		ut_buf_puts(b, ". Their edges follow the new id, but orders, shards and filters "
			    "that name the old one break.");
		return b->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
	}
	ut_buf_printf(b, "%s (%s:%u at the base commit) is removed by this change, and %zu test%s "
		      "depended on it directly: ", r->id, r->file, r->line, direct.n,
		      direct.n == 1 ? "" : "s");
	list(b, g, c, &direct, UT_LOST_NONE);
	ut_buf_puts(b, ".");
	if ((k = count(c, &direct, UT_LOST_BROKEN))) {
		ut_buf_puts(b, " ");
		if (k == direct.n)
			ut_buf_puts(b, k == 1 ? "It" : k == 2 ? "Both" : "All of them");
		else
			list(b, g, c, &direct, UT_LOST_BROKEN);
		ut_buf_printf(b, " fail%s without it, in %s schedule%s and after every earlier test "
			      "(run %ld): no other test stands in for it, so %s left out of the "
			      "graph.", k == 1 ? "s" : "", k == 1 ? "its" : "their", k == 1 ? "" : "s",
			      c->order_run, k == 1 ? "it is" : "they are");
	}
	if (through->n) {
		ut_buf_printf(b, " %zu more test%s depend%s on %s and fail%s with %s, left out "
			      "without running: ", through->n, through->n == 1 ? "" : "s",
			      through->n == 1 ? "s" : "", k == 1 ? "it" : "them",
			      through->n == 1 ? "s" : "", k == 1 ? "it" : "them");
		list(b, g, c, through, UT_LOST_NONE);
		ut_buf_puts(b, ".");
	}
	if ((k = count(c, &direct, UT_LOST_STANDIN))) {
		ut_buf_puts(b, " ");
		list(b, g, c, &direct, UT_LOST_STANDIN);
		ut_buf_printf(b, " fail%s in %s schedule%s without it but pass%s after every "
			      "earlier test (run %ld): another test stands in for it, and the "
			      "re-validation searched which.", k == 1 ? "s" : "",
			      k == 1 ? "its" : "their", k == 1 ? "" : "s", k == 1 ? "es" : "",
			      c->order_run);
	}
	if ((k = count(c, &direct, UT_LOST_PASSES))) {
		ut_buf_puts(b, " ");
		list(b, g, c, &direct, UT_LOST_PASSES);
		ut_buf_printf(b, " pass%s in %s schedule%s without it: %s no longer need%s it.",
			      k == 1 ? "es" : "", k == 1 ? "its" : "their", k == 1 ? "" : "s",
			      k == 1 ? "it" : "they", k == 1 ? "s" : "");
	}
	if ((k = count(c, &direct, UT_LOST_UNKNOWN))) {
		ut_buf_puts(b, " ");
		list(b, g, c, &direct, UT_LOST_UNKNOWN);
		ut_buf_printf(b, " gave no verdict here: %s re-validated.", k == 1 ? "it was"
										   : "they were");
	}
	ut_buf_puts(b, " Keep the test, or make its dependents create what they need.");
	return b->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

/* Where a root cause is annotated: on the head version, since annotations are: the
 * renamed test, or the removed test's first dependent, where the break shows (its old
 * line would now point at other code). */
static void root_place(ut_check *c, const ut_check_loss *l, ut_finding *f)
{
	const ut_test *h = &c->in->head.suite->tests.v[l->head >= 0 ? (size_t)l->head
								       : l->direct.v[0]];

	f->file = ck_prefixed(c, h->file);
	f->line = h->line;
	f->end_line = h->end_line;
}

static int root_cause(ut_check *c, ut_findings *out, const ut_check_loss *l,
		      const ut_adjacency *adj, unsigned char *folded, ut_buf *msg)
{
	const ut_graph *g = c->graph;
	unsigned char *mark = calloc(g->ntests ? g->ntests : 1, 1);
	UT_VEC(ut_finding_test) deps = {0};
	UT_VEC(long) ev = {0};
	ck_tests through = {0};
	bool error = l->head >= 0;
	ut_finding f;
	int rc = mark ? 0 : ut_error_set(UT_ENOMEM, "out of memory");

	for (size_t i = 0; rc == 0 && i < l->direct.n; i++) {
		uint32_t d = l->direct.v[i];
		bool broken = c->lost[d] == UT_LOST_BROKEN;

		/* Removed: what a broken dependent takes down with it is folded here; one with
		 * a stand-in or no verdict keeps its own findings. Renamed: the edges follow,
		 * so what breaks otherwise is not this change's doing and stays its own. */
		mark[d] = l->head >= 0 || broken;
		error |= l->head >= 0 || broken || c->lost[d] == UT_LOST_UNKNOWN;
		folded[d] = l->head < 0 && (broken || c->lost[d] == UT_LOST_PASSES);
		if (ut_vec_push(&deps, ck_head_ref(c, d)) < 0 ||
		    (c->lost_run[d] && ut_vec_push(&ev, c->lost_run[d]) < 0))
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	if (rc == 0 && c->order_run && l->head < 0 && ut_vec_push(&ev, c->order_run) < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		mark_dependents(adj, mark);
	for (size_t i = 0; rc == 0 && i < l->direct.n; i++)
		mark[l->direct.v[i]] = 0; /* listed above */
	for (size_t t = 0; rc == 0 && t < g->ntests; t++) {
		if (!mark[t])
			continue;
		folded[t] = l->head < 0;
		if (ut_vec_push(&through, (uint32_t)t) < 0 || ut_vec_push(&deps, ck_head_ref(c, t)) < 0)
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	ut_buf_clear(msg);
	if (rc == 0)
		rc = root_message(msg, c, l, &through);
	if (rc == 0) {
		memset(&f, 0, sizeof(f));
		f.kind = UT_FINDING_REMOVED;
		f.severity = error ? UT_SEVERITY_ERROR : UT_SEVERITY_WARNING;
		f.test = l->head >= 0 ? g->tests[l->head].id : c->in->base.suite->tests.v[l->base].id;
		root_place(c, l, &f);
		f.title = l->head >= 0 ? "Prerequisite renamed" : "Prerequisite removed";
		f.message = msg->ptr;
		f.dependents = deps.v;
		f.ndependents = deps.n;
		f.evidence = ev.v;
		f.nevidence = ev.n;
		rc = ut_findings_add(out, &f);
	}
	ut_vec_free(&through);
	ut_vec_free(&deps);
	ut_vec_free(&ev);
	free(mark);
	return rc;
}

int ck_root_causes(ut_check *c, ut_findings *out, unsigned char *folded)
{
	ut_adjacency adj;
	ut_buf msg = UT_BUF_INIT;
	int rc;

	if (!c->losses.n)
		return 0;
	rc = ut_adjacency_build(&adj, c->graph, manifest, NULL);
	if (rc < 0)
		return rc;
	for (size_t i = 0; rc == 0 && i < c->losses.n; i++)
		rc = root_cause(c, out, &c->losses.v[i], &adj, folded, &msg);
	ut_adjacency_dispose(&adj);
	ut_buf_dispose(&msg);
	return rc;
}
