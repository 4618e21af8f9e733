/* solver.h: the minimization stage's solver (Z3). */
#ifndef UT_SOLVER_H
#define UT_SOLVER_H

/* "Z3 4.8.12" */
const char *ut_solver_version(void);

#endif
