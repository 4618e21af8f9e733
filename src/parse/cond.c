/* cond.c: the truth of a condition when it is static: literals, comparisons of values that
 * resolve, negation. Registration code (if (false) { describe(...) }) and helpers whose
 * branches depend on literal arguments are read with it. */
#include <string.h>

#include "parse/internal.h"
#include "util/banned.h"

static const ut_syn *only_operand(const ut_syn *n, const ut_syn **second)
{
	const ut_syn *c, *first = NULL;
	int count = 0;

	*second = NULL;
	for (c = up_syn_first(n); c; c = up_syn_next(c)) {
		if (count == 0)
			first = c;
		else if (count == 1)
			*second = c;
		count++;
	}
	return count >= 1 ? first : NULL;
}

static int cond_depth(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n,
		      int depth)
{
	const ut_syn *a, *b;
	up_val va, vb;

	if (!n || depth > UT_MAX_EVAL_DEPTH)
		return -1;
	if (up_syn_is(n, UT_R_TRUE))
		return 1;
	if (up_syn_is(n, UT_R_FALSE))
		return 0;
	if (up_syn_is(n, UT_R_NOT) || up_syn_is(n, UT_R_PAREN) || up_syn_is(n, UT_R_IF_COND)) {
		int v;

		a = only_operand(n, &b);
		if (!a || b)
			return -1;
		v = cond_depth(ix, env, f, a, depth + 1);
		return v < 0 || !up_syn_is(n, UT_R_NOT) ? v : !v;
	}
	if (up_syn_is(n, UT_R_EQ) || up_syn_is(n, UT_R_NE)) {
		a = only_operand(n, &b);
		/* operands inside a wrapper that is not captured (typeof x === 'string') are
		 * not what is compared */
		if (!a || !b || up_syn_next(b) || a->start != n->start || b->end != n->end)
			return -1;
		va = up_eval(ix, env, f, a);
		vb = up_eval(ix, env, f, b);
		if (va.kind != UP_V_STR || vb.kind != UP_V_STR)
			return -1;
		/* a number and a string that read the same are not === in JavaScript */
		if (up_syn_is(a, UT_R_NUM) != up_syn_is(b, UT_R_NUM) &&
		    (up_syn_is(a, UT_R_NUM) || up_syn_is(b, UT_R_NUM)))
			return -1;
		return (va.n == vb.n && memcmp(va.s, vb.s, va.n) == 0) == up_syn_is(n, UT_R_EQ);
	}
	if (up_syn_is(n, UT_R_NUM)) {
		size_t len = n->end - n->start;

		return !(len == 1 && f->src.ptr[n->start] == '0');
	}
	if (up_syn_is(n, UT_R_STR) || up_syn_is(n, UT_R_IDENT) || up_syn_is(n, UT_R_MEMBER) ||
	    up_syn_is(n, UT_R_CONCAT)) {
		/* a value that resolves to a string: only '' is false */
		va = up_eval(ix, env, f, n);
		if (va.kind != UP_V_STR)
			return -1;
		/* a name bound to the number 0 is false, to the string '0' true: not known */
		if (!up_syn_is(n, UT_R_STR) && va.n == 1 && va.s[0] == '0')
			return -1;
		return va.n > 0;
	}
	return -1;
}

int up_cond(const up_index *ix, const up_env *env, const up_file *f, const ut_syn *n)
{
	return cond_depth(ix, env, f, n, 0);
}
