/* env.c: the evaluation context. Scopes (up_env: the bindings of a body and of the
 * bodies around it) and the cycle guard of an up_ctx over the definitions being evaluated
 * or typed, taken and given back in one call (up_def_guarded). */
#include <string.h>

#include "parse/internal.h"
#include "util/error.h"
#include "util/banned.h"

void up_ctx_init(up_ctx *ctx, up_type_memo *types)
{
	ctx->nbusy = 0;
	ctx->types = types;
}

static bool def_enter(up_ctx *ctx, const up_const_def *def)
{
	size_t i;

	if (def == &up_ambiguous || ctx->nbusy == UP_MAX_BUSY)
		return false;
	for (i = 0; i < ctx->nbusy; i++)
		if (ctx->busy[i] == def)
			return false;
	ctx->busy[ctx->nbusy++] = def;
	return true;
}

bool up_def_guarded(up_ctx *ctx, const up_const_def *def, void (*run)(void *arg), void *arg)
{
	if (!def_enter(ctx, def))
		return false;
	run(arg);
	ctx->nbusy--;
	return true;
}

size_t up_def_busy(const up_ctx *ctx)
{
	return ctx->nbusy;
}

void up_env_init(up_env *env, up_env *parent, const up_file *file, const up_cls *cls)
{
	memset(env, 0, sizeof(*env));
	env->parent = parent;
	env->self = parent ? parent->self : NULL;
	env->file = file;
	env->cls = cls;
}

void up_env_dispose(up_env *env)
{
	if (env)
		ut_vec_free(&env->locals);
}

int up_env_bind_typed(up_env *env, const char *name, size_t nlen, up_val val, up_ty ty)
{
	up_binding b;

	b.name = name;
	b.nlen = nlen;
	b.val = val;
	b.ty = ty;
	return ut_vec_push(&env->locals, b) < 0 ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}

int up_env_bind(up_env *env, const char *name, size_t nlen, up_val val)
{
	up_ty unknown = {0};

	return up_env_bind_typed(env, name, nlen, val, unknown);
}

const up_binding *up_env_find(const up_env *env, const char *name, size_t nlen)
{
	size_t i;

	for (; env; env = env->parent)
		for (i = env->locals.n; i-- > 0;) {
			const up_binding *b = &env->locals.v[i];

			if (b->nlen == nlen && memcmp(b->name, name, nlen) == 0)
				return b;
		}
	return NULL;
}

const up_cls *up_env_class(const up_env *env)
{
	for (; env; env = env->parent)
		if (env->cls)
			return env->cls;
	return NULL;
}
