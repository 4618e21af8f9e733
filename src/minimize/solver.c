/* solver.c: the Z3 adapter; the only file that includes z3.h. */
#include "minimize/solver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

#include "minimize/internal.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/banned.h"

const char *ut_solver_version(void)
{
	static char buf[48];
	unsigned major = 0, minor = 0, build = 0, rev = 0;

	Z3_get_version(&major, &minor, &build, &rev);
	snprintf(buf, sizeof(buf), "Z3 %u.%u.%u", major, minor, build);
	return buf;
}

static char *copy(const char *s)
{
	size_t n = strlen(s ? s : "");
	char *c = malloc(n + 1);

	if (c)
		memcpy(c, s ? s : "", n + 1);
	return c;
}

/* Asserts the problem into o; false when Z3 reported an error. What every solution
 * shares (forced: pins, one-member clauses and what they imply) is asserted as true and
 * left out of the objective, and the clauses and implications it satisfies are not
 * posted: on line coverage most elements are covered by a forced test, and the clauses
 * of lines every test runs are thousands of members long (2,000 tests x 20,000 elements:
 * 0.7 million members, of which forced tests leave a tenth). */
static bool post(Z3_context c, Z3_optimize o, const ut_solver_problem *p, const bool *forced,
		 Z3_ast *var, Z3_ast *scratch)
{
	Z3_sort boolean = Z3_mk_bool_sort(c);
	Z3_symbol group = Z3_mk_string_symbol(c, "cost");
	size_t i, k, nclauses = ut_solver_nclauses(p);

	for (i = 0; i < p->nvars; i++)
		var[i] = Z3_mk_const(c, Z3_mk_int_symbol(c, (int)i), boolean);
	for (i = 0; i < p->nvars; i++) {
		long long ms = llround(p->cost[i] * 1000.0);
		char weight[32];

		if (forced[i]) {
			Z3_optimize_assert(c, o, var[i]);
			continue;
		}
		if (ms <= 0)
			continue; /* free: Z3 wants positive weights, and nothing is lost */
		snprintf(weight, sizeof(weight), "%lld", ms);
		Z3_optimize_assert_soft(c, o, Z3_mk_not(c, var[i]), weight, group);
	}
	for (k = 0; k < nclauses; k++) {
		uint32_t from = p->clause_start.v[k], to = p->clause_start.v[k + 1], j, n = 0;
		bool done = false;

		for (j = from; j < to && !done; j++) {
			done = forced[p->clause_vars.v[j]];
			scratch[n++] = var[p->clause_vars.v[j]];
		}
		if (!done)
			Z3_optimize_assert(c, o, n == 1 ? scratch[0] : Z3_mk_or(c, n, scratch));
	}
	for (i = 0; i + 1 < p->implies.n; i += 2)
		if (!forced[p->implies.v[i + 1]])
			Z3_optimize_assert(c, o, Z3_mk_implies(c, var[p->implies.v[i]],
							       var[p->implies.v[i + 1]]));
	return Z3_get_error_code(c) == Z3_OK;
}

/* What every solution chooses (ut_solver_choose_forced) into forced[nvars]. */
static int find_forced(const ut_solver_problem *p, bool *forced)
{
	uint32_t *stack = malloc((p->nvars + 1) * sizeof(*stack));
	ut_solver_index x;
	int rc = UT_ENOMEM;

	if (!stack || ut_solver_index_build(&x, p) < 0)
		goto done;
	ut_solver_choose_forced(p, &x, forced, stack, NULL, NULL);
	ut_solver_index_dispose(&x);
	rc = 0;
done:
	free(stack);
	return rc;
}

/* Reads the model's choice into out->chosen; false when there is none. */
static bool read_model(Z3_context c, Z3_optimize o, const ut_solver_problem *p,
		       const Z3_ast *var, ut_solver_result *out)
{
	Z3_model m = Z3_optimize_get_model(c, o);
	size_t i;

	if (!m || Z3_get_error_code(c) != Z3_OK)
		return false;
	Z3_model_inc_ref(c, m);
	for (i = 0; i < p->nvars; i++) {
		Z3_ast val = NULL;

		out->chosen[i] = Z3_model_eval(c, m, var[i], true, &val) && val &&
				 Z3_get_bool_value(c, val) == Z3_L_TRUE;
	}
	Z3_model_dec_ref(c, m);
	return Z3_get_error_code(c) == Z3_OK;
}

/* Gives o what is left of time_limit_s since t0 (building the problem counts against
 * the limit); the params to release with Z3_params_dec_ref. */
static Z3_params time_left(Z3_context c, Z3_optimize o, double time_limit_s, double t0)
{
	double left = time_limit_s - (ut_clock_mono() - t0);
	unsigned ms = left * 1000.0 >= 1.0 ? (unsigned)fmin(left * 1000.0, 4e9) : 1;
	Z3_params params = Z3_mk_params(c);

	Z3_params_inc_ref(c, params);
	Z3_params_set_uint(c, params, Z3_mk_string_symbol(c, "timeout"), ms);
	Z3_optimize_set_params(c, o, params);
	return params;
}

/* The chosen set's size and cost, its lower bound and status (optimal when Z3 proved it,
 * or when the bound meets the cost). */
static void score(ut_solver_result *out, const ut_solver_problem *p, bool proved)
{
	for (size_t i = 0; i < p->nvars; i++) {
		out->nchosen += out->chosen[i];
		out->objective += out->chosen[i] ? p->cost[i] : 0;
	}
	out->lower_bound = proved ? out->objective : ut_solver_lower_bound(p);
	if (out->lower_bound > out->objective)
		out->lower_bound = out->objective;
	out->status = proved || ut_solver_proven(out->objective, out->lower_bound)
			      ? UT_SOLVE_OPTIMAL
			      : UT_SOLVE_FEASIBLE;
}

int ut_solver_solve(const ut_solver_problem *p, double time_limit_s, ut_solver_result *out)
{
	double t0 = ut_clock_mono();
	Z3_config cfg = NULL;
	Z3_context c = NULL;
	Z3_optimize o = NULL;
	Z3_params params = NULL;
	Z3_ast *var = malloc((p->nvars + 1) * sizeof(*var));
	Z3_ast *scratch = malloc((p->clause_vars.n + 1) * sizeof(*scratch));
	bool *forced = calloc(p->nvars + 1, sizeof(*forced));
	Z3_lbool r = Z3_L_UNDEF;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->status = UT_SOLVE_UNKNOWN;
	out->chosen = calloc(p->nvars + 1, sizeof(*out->chosen));
	if (!var || !scratch || !forced || !out->chosen || find_forced(p, forced) < 0) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	cfg = Z3_mk_config();
	c = cfg ? Z3_mk_context(cfg) : NULL;
	if (!c) {
		out->reason = copy("z3 would not start");
		goto done;
	}
	Z3_set_error_handler(c, NULL); /* errors become codes; the default handler exits */
	o = Z3_mk_optimize(c);
	Z3_optimize_inc_ref(c, o);
	if (!post(c, o, p, forced, var, scratch)) {
		out->reason = copy(Z3_get_error_msg(c, Z3_get_error_code(c)));
		goto done;
	}
	if (time_limit_s > 0)
		params = time_left(c, o, time_limit_s, t0);
	r = Z3_optimize_check(c, o, 0, NULL);
	if (r == Z3_L_FALSE) {
		out->reason = copy("z3 found the constraints unsatisfiable");
		goto done;
	}
	if (r == Z3_L_UNDEF) {
		out->stopped = true;
		out->reason = copy(Z3_optimize_get_reason_unknown(c, o));
	}
	if (!read_model(c, o, p, var, out) || !ut_solver_feasible(p, out->chosen))
		goto done; /* stopped before a model, or one that breaks a constraint */
	score(out, p, r == Z3_L_TRUE);
done:
	if (out->status == UT_SOLVE_UNKNOWN) {
		free(out->chosen);
		out->chosen = NULL;
		out->nchosen = 0;
		out->objective = 0;
	}
	if (params)
		Z3_params_dec_ref(c, params);
	if (o)
		Z3_optimize_dec_ref(c, o);
	if (c)
		Z3_del_context(c);
	if (cfg)
		Z3_del_config(cfg);
	free(var);
	free(scratch);
	free(forced);
	out->seconds = ut_clock_mono() - t0;
	return rc;
}
