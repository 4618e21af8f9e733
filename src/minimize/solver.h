/* solver.h: weighted minimisation over Boolean variables (thesis 6.2.2): choose a
 * subset of n variables of least total cost such that every clause "at least one of
 * {vars}" holds, every implication a => b holds, and every pinned variable is chosen.
 *
 * The problem is built and checked here without any solver; ut_solver_solve() hands it
 * to Z3 (solver.c, the only file that includes z3.h), ut_solver_greedy() answers without
 * one. No Z3 type appears in this header. */
#ifndef UT_SOLVER_H
#define UT_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/vec.h"

typedef struct {
	size_t nvars;
	double *cost;                 /* nvars costs, >= 0 (seconds for tests) */
	bool *pinned;                 /* nvars; a pinned variable is always chosen */
	UT_VEC(uint32_t) clause_start; /* offsets into clause_vars; one more than clauses */
	UT_VEC(uint32_t) clause_vars;  /* the members of every clause, clause after clause */
	UT_VEC(uint32_t) implies;      /* pairs a, b: choosing a chooses b */
} ut_solver_problem;

typedef enum {
	UT_SOLVE_OPTIMAL,  /* chosen is a least-cost solution, proven */
	UT_SOLVE_FEASIBLE, /* chosen is a solution; lower_bound says how far from the optimum
			    * it can be at most (the time limit stopped Z3, or greedy) */
	UT_SOLVE_UNKNOWN   /* no solution: Z3 failed, or stopped before it found one */
} ut_solve_status;

typedef struct {
	ut_solve_status status;
	bool stopped;       /* the time limit stopped the search */
	bool *chosen;       /* nvars flags (heap, the result's), NULL when UNKNOWN */
	size_t nchosen;
	double objective;   /* the cost of chosen (sum of the real costs, not the scaled ones) */
	double lower_bound; /* no solution costs less; == objective when OPTIMAL */
	const char *reason; /* why Z3 gave no proven answer ("canceled", an error), or NULL;
			     * owned by the result */
	double seconds;     /* time spent solving */
} ut_solver_result;

/* An empty problem over nvars variables of cost 0, none pinned. 0 or UT_ENOMEM. */
int ut_solver_problem_init(ut_solver_problem *p, size_t nvars);
void ut_solver_problem_dispose(ut_solver_problem *p);
/* Adds "at least one of vars[0..n)". UT_EINPUT for an empty clause or a variable out of
 * range; UT_ENOMEM. */
int ut_solver_add_clause(ut_solver_problem *p, const uint32_t *vars, size_t n);
/* Adds a => b. UT_EINPUT for a variable out of range; UT_ENOMEM. */
int ut_solver_add_implication(ut_solver_problem *p, uint32_t a, uint32_t b);
size_t ut_solver_nclauses(const ut_solver_problem *p);

/* Whether chosen satisfies every clause, implication and pin. */
bool ut_solver_feasible(const ut_solver_problem *p, const bool *chosen);
/* A lower bound on the optimum that needs no solver: the cost of what is forced (pins,
 * clauses of one member, and everything they imply) plus a feasible dual of the covering
 * LP over the clauses the forced variables leave open (each clause priced at most what its
 * members have left, shortest clauses first; implications are ignored). At least the
 * cheapest member of each of a set of open clauses that share no variable. -1 when out
 * of memory. */
double ut_solver_lower_bound(const ut_solver_problem *p);

/*
 * Solves with Z3's Optimize: one Boolean per variable, hard clauses, implications and
 * pins, and one soft constraint "not chosen" per variable weighted by its cost in whole
 * milliseconds (costs are scaled to integers so that Z3's MaxSAT engine works on exact
 * integer weights; the objective reported is the sum of the real costs).
 * time_limit_s <= 0 means no limit. Z3's own bounds are not read after a stop (4.8.12
 * reports a "lower" bound above the optimum once canceled); a stopped search reports
 * ut_solver_lower_bound() instead, and a model Z3 returns is used only when it is
 * feasible. *out belongs to the caller (ut_solver_result_dispose), whatever the result.
 * Returns 0 (see out->status) or UT_ENOMEM; a Z3 error is status UNKNOWN with reason.
 */
int ut_solver_solve(const ut_solver_problem *p, double time_limit_s, ut_solver_result *out);

/*
 * The greedy answer: pins and their implications first, then repeatedly the variable
 * with the least cost per newly satisfied clause, closed under implications; finally
 * chosen variables whose clauses are all satisfied by others and that nothing chosen
 * implies are dropped, most expensive first. Status OPTIMAL when the result meets
 * ut_solver_lower_bound(), else FEASIBLE. Returns 0 or UT_ENOMEM.
 */
int ut_solver_greedy(const ut_solver_problem *p, ut_solver_result *out);

void ut_solver_result_dispose(ut_solver_result *r);

/* "Z3 4.8.12" */
const char *ut_solver_version(void);

#endif
