/* check_solver.c: the minimisation problem, Z3 and the greedy answer on the thesis'
 * example (Figure 6.4), where greedy falls short, and under a time limit. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "minimize/solver.h"
#include "util/error.h"

Suite *solver_suite(void);

/* Thesis 6.2.2, Figure 6.4: six tests t1..t6 (variables 0..5). */
static void thesis_problem(ut_solver_problem *p)
{
	static const double cost[] = {3.0, 3.0, 2.5, 3.5, 4.0, 1.0};
	static const uint32_t e1[] = {0, 2, 3}, e2[] = {1, 3}, e34[] = {0, 1, 4},
			      e5[] = {2, 3, 4}, e6[] = {5};
	size_t i;

	ck_assert_int_eq(ut_solver_problem_init(p, 6), 0);
	for (i = 0; i < 6; i++)
		p->cost[i] = cost[i];
	ck_assert_int_eq(ut_solver_add_clause(p, e1, 3), 0);
	ck_assert_int_eq(ut_solver_add_clause(p, e2, 2), 0);
	ck_assert_int_eq(ut_solver_add_clause(p, e34, 3), 0); /* e3 */
	ck_assert_int_eq(ut_solver_add_clause(p, e34, 3), 0); /* e4 */
	ck_assert_int_eq(ut_solver_add_clause(p, e5, 3), 0);
	ck_assert_int_eq(ut_solver_add_clause(p, e6, 1), 0);
	ck_assert_int_eq(ut_solver_add_implication(p, 1, 0), 0); /* d21: t2 -> t1 */
	ck_assert_int_eq(ut_solver_add_implication(p, 5, 1), 0); /* d62: t6 -> t2 */
}

static void assert_chosen(const ut_solver_result *r, const char *want)
{
	char got[16] = {0};
	size_t i;

	ck_assert_ptr_nonnull(r->chosen);
	for (i = 0; i < strlen(want); i++)
		got[i] = r->chosen[i] ? '1' : '0';
	ck_assert_str_eq(got, want);
}

START_TEST(z3_finds_the_thesis_optimum)
{
	ut_solver_problem p;
	ut_solver_result r;

	thesis_problem(&p);
	ck_assert_int_eq(ut_solver_solve(&p, 10, &r), 0);
	ck_assert_int_eq(r.status, UT_SOLVE_OPTIMAL);
	ck_assert(!r.stopped);
	assert_chosen(&r, "111001"); /* X = {t1, t2, t3, t6} */
	ck_assert_uint_eq(r.nchosen, 4);
	ck_assert_double_eq_tol(r.objective, 9.5, 1e-9);
	ck_assert_double_eq_tol(r.lower_bound, 9.5, 1e-9);
	ck_assert(ut_solver_feasible(&p, r.chosen));
	ut_solver_result_dispose(&r);
	/* Pinning t5 changes the optimum: t5 covers e5 too, so t3 goes. */
	p.pinned[4] = true;
	ck_assert_int_eq(ut_solver_solve(&p, 0, &r), 0);
	ck_assert_int_eq(r.status, UT_SOLVE_OPTIMAL);
	assert_chosen(&r, "110011");
	ck_assert_double_eq_tol(r.objective, 11.0, 1e-9);
	ut_solver_result_dispose(&r);
	ut_solver_problem_dispose(&p);
}
END_TEST

START_TEST(greedy_and_the_lower_bound_on_the_thesis_example)
{
	ut_solver_problem p;
	ut_solver_result r;
	bool all[6] = {true, true, true, true, true, true};
	bool no_t1[6] = {false, true, true, true, true, true};

	thesis_problem(&p);
	/* Forced: t6 (alone on e6) and through d62, d21 t2 and t1 (7.0); e5 is left open
	 * and its cheapest test costs 2.5. */
	ck_assert_double_eq_tol(ut_solver_lower_bound(&p), 9.5, 1e-9);
	ck_assert(ut_solver_feasible(&p, all));
	ck_assert(!ut_solver_feasible(&p, no_t1)); /* t2 without t1 */
	ck_assert_int_eq(ut_solver_greedy(&p, &r), 0);
	assert_chosen(&r, "111001");
	ck_assert_int_eq(r.status, UT_SOLVE_OPTIMAL); /* met the bound */
	ut_solver_result_dispose(&r);
	ut_solver_problem_dispose(&p);
}
END_TEST

/* A = {1,2,3} for 1.4, B = {1,2,3,4} for 2.0, D = {4} for 1.0: greedy takes A by its
 * ratio, then D; the optimum is B alone. The lower bound prices {A,B} at 1.4 and {B,D}
 * at what B has left, 0.6: 2.0, the optimum (clauses that share no variable: 1.4). */
START_TEST(greedy_falls_short_where_z3_does_not)
{
	static const uint32_t ab[] = {0, 1}, bd[] = {1, 2};
	ut_solver_problem p;
	ut_solver_result g, z;

	ck_assert_int_eq(ut_solver_problem_init(&p, 3), 0);
	p.cost[0] = 1.4, p.cost[1] = 2.0, p.cost[2] = 1.0;
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(ut_solver_add_clause(&p, ab, 2), 0);
	ck_assert_int_eq(ut_solver_add_clause(&p, bd, 2), 0);
	ck_assert_int_eq(ut_solver_greedy(&p, &g), 0);
	assert_chosen(&g, "101");
	ck_assert_int_eq(g.status, UT_SOLVE_FEASIBLE);
	ck_assert_double_eq_tol(g.objective, 2.4, 1e-9);
	ck_assert_double_eq_tol(g.lower_bound, 2.0, 1e-9);
	ck_assert_int_eq(ut_solver_solve(&p, 10, &z), 0);
	ck_assert_int_eq(z.status, UT_SOLVE_OPTIMAL);
	assert_chosen(&z, "010");
	ck_assert_double_eq_tol(z.objective, 2.0, 1e-9);
	ut_solver_result_dispose(&g);
	ut_solver_result_dispose(&z);
	ut_solver_problem_dispose(&p);
}
END_TEST

START_TEST(bad_clauses_are_refused)
{
	ut_solver_problem p;
	uint32_t out_of_range = 7;

	ck_assert_int_eq(ut_solver_problem_init(&p, 2), 0);
	ck_assert_int_eq(ut_solver_add_clause(&p, NULL, 0), UT_EINPUT);
	ck_assert_int_eq(ut_solver_add_clause(&p, &out_of_range, 1), UT_EINPUT);
	ck_assert_int_eq(ut_solver_add_implication(&p, 0, 2), UT_EINPUT);
	ck_assert_uint_eq(ut_solver_nclauses(&p), 0);
	ut_solver_problem_dispose(&p);
}
END_TEST

/* A random weighted cover that Z3 needs about half a second for: 1,000 variables,
 * 3,000 clauses of 1 to 5 members, an implication on every third variable. */
static void random_problem(ut_solver_problem *p)
{
	uint64_t seed = 42;
	uint32_t vars[5];
	size_t i, k, n = 1000;

#define NEXT() (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL, (uint32_t)(seed >> 33))
	ck_assert_int_eq(ut_solver_problem_init(p, n), 0);
	for (i = 0; i < n; i++)
		p->cost[i] = 0.1 + (double)(NEXT() % 5000) / 1000.0;
	for (k = 0; k < 3000; k++) {
		size_t m = 1 + NEXT() % 5, j;

		for (j = 0; j < m; j++)
			vars[j] = NEXT() % (uint32_t)n;
		ck_assert_int_eq(ut_solver_add_clause(p, vars, m), 0);
	}
	for (i = 1; i < n; i++)
		if (NEXT() % 3 == 0)
			ck_assert_int_eq(ut_solver_add_implication(p, (uint32_t)i, NEXT() % (uint32_t)i), 0);
#undef NEXT
}

START_TEST(a_time_limit_stops_z3_with_an_honest_gap)
{
	ut_solver_problem p;
	ut_solver_result stopped, full, greedy;

	random_problem(&p);
	ck_assert_int_eq(ut_solver_solve(&p, 0.02, &stopped), 0);
	ck_assert(stopped.stopped);
	ck_assert_ptr_nonnull(stopped.reason);
	ck_assert(stopped.seconds < 10.0); /* a loaded machine: the limit is CPU-bound, the wall is not */
	ck_assert_int_eq(ut_solver_solve(&p, 0, &full), 0);
	ck_assert_int_eq(full.status, UT_SOLVE_OPTIMAL);
	ck_assert(ut_solver_feasible(&p, full.chosen));
	ck_assert_int_eq(ut_solver_greedy(&p, &greedy), 0);
	ck_assert(ut_solver_feasible(&p, greedy.chosen));
	/* Every bound is below the optimum and every answer above it. */
	ck_assert(greedy.objective >= full.objective - 1e-6);
	ck_assert(greedy.lower_bound <= full.objective + 1e-6);
	if (stopped.status != UT_SOLVE_UNKNOWN) {
		ck_assert(ut_solver_feasible(&p, stopped.chosen));
		ck_assert(stopped.objective >= full.objective - 1e-6);
		ck_assert(stopped.lower_bound <= full.objective + 1e-6);
	} else {
		ck_assert_ptr_null(stopped.chosen);
	}
	ut_solver_result_dispose(&stopped);
	ut_solver_result_dispose(&full);
	ut_solver_result_dispose(&greedy);
	ut_solver_problem_dispose(&p);
}
END_TEST

Suite *solver_suite(void)
{
	Suite *s = suite_create("solver");
	TCase *tc = tcase_create("solver");

	tcase_add_test(tc, z3_finds_the_thesis_optimum);
	tcase_add_test(tc, greedy_and_the_lower_bound_on_the_thesis_example);
	tcase_add_test(tc, greedy_falls_short_where_z3_does_not);
	tcase_add_test(tc, bad_clauses_are_refused);
	tcase_add_test(tc, a_time_limit_stops_z3_with_an_honest_gap);
	suite_add_tcase(s, tc);
	return s;
}
