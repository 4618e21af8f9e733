/* sim.c: the simulated runner's behaviour (sim.h). Plain C11, no untangle headers: the
 * benchmarks compile it with simrun.c by cc alone. */
#include "sim.h"

uint64_t sim_draw(uint64_t seed, uint32_t t, long turn)
{
	uint64_t z = seed ^ (0x9e3779b97f4a7c15ull * ((uint64_t)t + 1)) ^
		     (0xbf58476d1ce4e5b9ull * (uint64_t)turn);

	/* splitmix64's finaliser: neighbouring inputs give unrelated outputs */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

bool sim_flipped(uint64_t seed, uint32_t t, long n, long every)
{
	/* another stream than the intermittent failures' of the same seed */
	return every > 0 && sim_draw(seed ^ 0x5851f42d4c957f2dull, t, n) % (uint64_t)every == 0;
}

sim_verdict sim_judge(const sim_test *tests, uint32_t t, const unsigned char *passed,
		      uint64_t seed, sim_turn_fn turn, void *ctx, long *detail)
{
	const sim_test *x = &tests[t];
	long dummy, k;
	uint32_t i;

	if (!detail)
		detail = &dummy;
	*detail = 0;
	for (i = 0; i < x->nprereqs; i++) {
		if (!passed[x->prereqs[i]]) {
			*detail = (long)x->prereqs[i];
			return SIM_NEEDS;
		}
	}
	if (x->broken_by >= 0 && passed[x->broken_by] && (x->unless < 0 || !passed[x->unless])) {
		*detail = x->broken_by;
		return SIM_BROKEN;
	}
	if (!turn || (x->flaky_every <= 0 && x->intermittent <= 0))
		return SIM_PASS;
	k = turn(ctx, t);
	*detail = k;
	if (x->flaky_every > 0 && k % x->flaky_every == 0)
		return SIM_FLAKY;
	if (x->intermittent > 0 && sim_draw(seed, t, k) % (uint64_t)x->intermittent == 0)
		return SIM_INTERMITTENT;
	*detail = 0;
	return SIM_PASS;
}
