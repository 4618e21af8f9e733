/* syntax.c: questions about the role tree that need the analysed file or the index's
 * arena: a node's text (as is, compacted), the parts of a call, a function's explicit
 * self. They know no scope and evaluate nothing: eval.c, resolve.c and index.c all stand
 * on them (the layers are in internal.h). */
#include <ctype.h>
#include <string.h>

#include "parse/internal.h"
#include "util/banned.h"

bool up_text_is(const up_file *f, const ut_syn *n, const char *s)
{
	size_t len = n ? n->end - n->start : 0;

	/* a missing node (a call without a name in broken source) is no name at all */
	return n && strlen(s) == len && memcmp(f->src.ptr + n->start, s, len) == 0;
}

bool up_text_in(const up_file *f, const ut_syn *n, const char *const *set)
{
	for (; *set; set++)
		if (up_text_is(f, n, *set))
			return true;
	return false;
}

bool up_is_self(const up_file *f, const ut_syn *n)
{
	static const char *const names[] = {"self", "this", "cls", NULL};

	return up_text_in(f, n, names);
}

const char *up_compact_text_buf(const up_index *ix, const up_file *f, const ut_syn *n, char *buf,
				size_t size)
{
	size_t len = n->end - n->start, i, j = 0;
	const char *s = f->src.ptr + n->start;
	char *out = buf;

	if (len > UT_MAX_VALUE_LEN)
		len = UT_MAX_VALUE_LEN;
	if (len >= size)
		out = ut_arena_alloc(ix->temp, len + 1);
	if (!out)
		return "";
	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			out[j++] = s[i];
	out[j] = '\0';
	return out;
}

const char *up_compact_text(const up_index *ix, const up_file *f, const ut_syn *n)
{
	return up_compact_text_buf(ix, f, n, NULL, 0);
}

const ut_syn *up_call_name(const ut_syn *call)
{
	return up_syn_find(call, UT_R_CALL_NAME,
			   UT_ROLE(UT_R_CALL_ARGS) | UT_ROLE(UT_R_CALL) | UT_ROLE(UT_R_CALL_RECV));
}

const ut_syn *up_call_recv(const ut_syn *call)
{
	return up_syn_find(call, UT_R_CALL_RECV, UT_ROLE(UT_R_CALL_ARGS) | UT_ROLE(UT_R_CALL));
}

const ut_syn *up_call_args(const ut_syn *call)
{
	return up_syn_find(call, UT_R_CALL_ARGS, UT_ROLE(UT_R_CALL) | UT_ROLE(UT_R_FUNC));
}

const ut_syn *up_arg_expr(const ut_syn *arg)
{
	int guard = 0;

	while (arg && !(arg->roles & UT_VALUE_ROLES) && up_syn_first(arg) &&
	       !up_syn_next(up_syn_first(arg)) && guard++ < 8)
		arg = up_syn_first(arg);
	return arg;
}

size_t up_call_nargs(const ut_syn *call)
{
	const ut_syn *args = up_call_args(call), *c;
	size_t n = 0;

	for (c = args ? up_syn_first(args) : NULL; c; c = up_syn_next(c))
		if (up_syn_is(c, UT_R_ARG) && !up_syn_is(c, UT_R_ARG_KW))
			n++;
	return n;
}

size_t up_fn_self_params(const up_fn *fn)
{
	return fn->nparams && fn->file->lang == UT_LANG_PYTHON &&
	       up_is_self(fn->file, fn->params[0]);
}
