/* fix.c: fixing the missing preconditions of a filtered crawler suite (thesis 6.2.1.1,
 * Algorithm 7): the selected tests run in original order and, while some fail, the
 * tests just before each failing one that are not yet in are added, in windows that
 * double. */
#include "detect/detect.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

/* Adds up to want tests before *lo that are not in yet, nearest first, and moves *lo to
 * the earliest test looked at; how many were added. */
static size_t add_before(bool *in, size_t *lo, size_t want)
{
	size_t added = 0;

	while (*lo > 0 && added < want) {
		--*lo;
		if (!in[*lo]) {
			in[*lo] = true;
			added++;
		}
	}
	return added;
}

static bool passed(const ut_test_result *t)
{
	return t->outcome == UT_OUT_PASS || t->outcome == UT_OUT_SKIPPED;
}

int ut_detect_fix(const ut_graph *g, ut_runner *runner, int worker, bool *in,
		  ut_detect_fix_stats *st)
{
	const char **ids = malloc((g->ntests + 1) * sizeof(*ids));
	uint32_t *at = malloc((g->ntests + 1) * sizeof(*at));
	size_t *window = calloc(g->ntests + 1, sizeof(*window));
	size_t *lo = malloc((g->ntests + 1) * sizeof(*lo));
	bool *was_in = malloc(g->ntests + 1), *unfixed = calloc(g->ntests + 1, 1);
	ut_run_result res;
	size_t i, n, k, cover;
	bool changed = true;
	int rc = 0;

	memset(st, 0, sizeof(*st));
	memset(&res, 0, sizeof(res));
	if (!ids || !at || !window || !lo || !was_in || !unfixed) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	memcpy(was_in, in, g->ntests);
	for (i = 0; i < g->ntests; i++) {
		st->selected += in[i];
		lo[i] = i;
	}
	while (changed) {
		for (i = n = 0; i < g->ntests; i++)
			if (in[i]) {
				at[n] = (uint32_t)i;
				ids[n++] = g->tests[i].id;
			}
		if (n == 0)
			break;
		ut_run_result_dispose(&res);
		rc = ut_runner_run(runner, worker, ids, n, &res);
		if (rc < 0)
			goto done;
		st->runs++;
		st->test_executions += (long)n;
		if (res.status != UT_RUN_OK) {
			rc = ut_error_set(UT_EENV, "fixing preconditions: the run of %zu tests gave "
						   "no usable report (%s)", n,
					  ut_run_status_name(res.status));
			goto done;
		}
		/* Every failing test at once, not the first only as in the thesis: a run per
		 * failing test would cost as much as validating the suite. From the last test
		 * back: a failing test inside the window of a later failing one waits (that
		 * window will hold its preconditions too); a failing selected test widens its
		 * window; a failing added test that no failing test's window holds is needed
		 * by none that passes, so it goes (the thesis' REMOVEPRECONDITIONS). */
		changed = false;
		cover = SIZE_MAX;
		for (k = n; k-- > 0;) {
			size_t x = at[k];

			if (passed(&res.tests[k]) || unfixed[x] || x >= cover)
				continue;
			if (st->runs == 1)
				st->broken++;
			changed = true;
			if (!was_in[x]) {
				in[x] = false;
				continue;
			}
			window[x] = window[x] ? 2 * window[x] : 1;
			if (add_before(in, &lo[x], window[x]) == 0) {
				unfixed[x] = true; /* fails with every earlier test before it */
				st->unfixed++;
			}
			cover = lo[x];
		}
	}
	for (i = 0; i < g->ntests; i++)
		st->added += in[i] && !was_in[i];
done:
	ut_run_result_dispose(&res);
	free(ids);
	free(at);
	free(window);
	free(lo);
	free(was_in);
	free(unfixed);
	return rc;
}
