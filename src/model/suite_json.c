/* suite_json.c: writes the suite model in the schema of `untangle tests --json`. */
#include "model/suite_json.h"

#include "model/hooks.h"

#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

/* in_hook: an action of a hook, whose file and setup mark are the hook's. */
static void write_action(ut_jsonw *w, const ut_action *a, bool in_hook)
{
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "kind", ut_action_kind_name(a->kind));
	ut_jsonw_kint(w, "line", a->line);
	if (a->file && !in_hook) {
		ut_jsonw_kstr(w, "file", a->file);
	}
	ut_jsonw_key(w, "values");
	ut_jsonw_strs(w, a->values, a->nvalues);
	if (a->nunresolved) {
		ut_jsonw_key(w, "unresolved");
		ut_jsonw_strs(w, a->unresolved, a->nunresolved);
	}
	if (a->setup && !in_hook) {
		ut_jsonw_kbool(w, "setup", true);
	}
	if (a->via) {
		ut_jsonw_kstr(w, "via", a->via);
	}
	ut_jsonw_obj_end(w);
}

/* "collection": which tests, ids and order, and from where (docs/collection.md). */
static void write_origin(ut_jsonw *w, const ut_suite_origin *o)
{
	ut_jsonw_key(w, "collection");
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "by", o->runner ? "runner" : "sources");
	ut_jsonw_kstr(w, o->runner ? "command" : "why", o->why);
	if (o->runner) {
		ut_jsonw_kint(w, "listed", (long long)o->listed);
		ut_jsonw_kint(w, "joined_by_id", (long long)o->by_id);
		ut_jsonw_kint(w, "joined_by_place", (long long)o->by_place);
		ut_jsonw_kint(w, "runner_only", (long long)o->runner_only);
		ut_jsonw_kint(w, "sources_only", (long long)o->static_only);
		ut_jsonw_kint(w, "pending", (long long)o->pending);
	}
	ut_jsonw_obj_end(w);
}

static void write_actions(ut_jsonw *w, const ut_action *a, size_t n, bool in_hook)
{
	size_t i;

	ut_jsonw_key(w, "actions");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < n; i++)
		write_action(w, &a[i], in_hook);
	ut_jsonw_arr_end(w);
}

static void write_refs(ut_jsonw *w, const char *key, const uint32_t *refs, size_t n)
{
	size_t i;

	ut_jsonw_key(w, key);
	ut_jsonw_arr_begin(w);
	for (i = 0; i < n; i++)
		ut_jsonw_int(w, refs[i]);
	ut_jsonw_arr_end(w);
}

/* "hooks": each shared setup or teardown block once. */
static void write_hooks(ut_jsonw *w, const ut_suite_hooks *h, bool actions)
{
	size_t i;

	ut_jsonw_key(w, "hooks");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < h->hooks.n; i++) {
		const ut_hook *k = &h->hooks.v[i];

		ut_jsonw_obj_begin(w);
		ut_jsonw_kint(w, "index", (long long)i);
		ut_jsonw_kstr(w, "file", k->file);
		ut_jsonw_kint(w, "line", k->line);
		ut_jsonw_kint(w, "end_line", k->end_line);
		ut_jsonw_key(w, "counts");
		ut_jsonw_obj_begin(w);
		ut_jsonw_kint(w, "actions", (long long)k->nactions);
		ut_jsonw_kint(w, "tests", (long long)k->ntests);
		ut_jsonw_obj_end(w);
		if (actions)
			write_actions(w, k->actions, k->nactions, true);
		ut_jsonw_obj_end(w);
		ut_buf_drain(w->out);
	}
	ut_jsonw_arr_end(w);
}

static void write_test(ut_jsonw *w, const ut_test *t, const ut_suite_hooks *h, size_t i,
		       bool actions)
{
	const ut_test_hooks *th = &h->of[i];

	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "id", t->id);
	ut_jsonw_kstr(w, "name", t->name);
	ut_jsonw_kstr(w, "file", t->file);
	ut_jsonw_kint(w, "line", t->line);
	ut_jsonw_kint(w, "end_line", t->end_line);
	ut_jsonw_kint(w, "index", (long long)t->index);
	ut_jsonw_kstr(w, "language", ut_lang_name(t->language));
	ut_jsonw_kstr(w, "framework", t->framework);
	if (t->ndepends) {
		ut_jsonw_key(w, "depends_on");
		ut_jsonw_strs(w, t->depends_on, t->ndepends);
	}
	write_refs(w, "setup", ut_suite_hooks_setup(h, i), th->nsetup);
	write_refs(w, "teardown", ut_suite_hooks_teardown(h, i), th->nteardown);
	ut_jsonw_key(w, "counts");
	ut_jsonw_obj_begin(w);
	ut_jsonw_kint(w, "actions", (long long)(th->own_end - th->own_at));
	ut_jsonw_kint(w, "setup", (long long)th->own_at);
	ut_jsonw_kint(w, "teardown", (long long)(t->nactions - th->own_end));
	ut_jsonw_obj_end(w);
	if (actions)
		write_actions(w, t->actions + th->own_at, th->own_end - th->own_at, false);
	ut_jsonw_obj_end(w);
}

static void write_warnings(ut_jsonw *w, const ut_diags *diags)
{
	size_t i;

	ut_jsonw_key(w, "warnings");
	ut_jsonw_arr_begin(w);
	for (i = 0; diags && i < diags->items.n; i++) {
		const ut_diag *d = &diags->items.v[i];

		ut_jsonw_obj_begin(w);
		ut_jsonw_kstr(w, "file", d->file);
		ut_jsonw_kint(w, "line", d->line);
		ut_jsonw_kstr(w, "message", d->message);
		ut_jsonw_obj_end(w);
	}
	ut_jsonw_arr_end(w);
}

int ut_suite_write_json(ut_buf *out, const ut_suite *s, const ut_diags *diags, bool actions,
			bool pretty)
{
	ut_suite_hooks h;
	ut_jsonw w;
	size_t i;
	int rc;

	rc = ut_suite_hooks_build(&h, s);
	if (rc < 0)
		goto done;
	ut_jsonw_init(&w, out, pretty);
	ut_jsonw_obj_begin(&w);
	write_origin(&w, &s->origin);
	write_hooks(&w, &h, actions);
	ut_jsonw_key(&w, "tests");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < s->tests.n; i++) {
		write_test(&w, &s->tests.v[i], &h, i, actions);
		ut_buf_drain(out);
	}
	ut_jsonw_arr_end(&w);
	write_warnings(&w, diags);
	ut_jsonw_obj_end(&w);
	if (ut_buf_flush(out) == 0 && !out->failed)
		goto done;
	rc = ut_error_set(UT_ENOMEM, out->sink ? "could not write the output"
					       : "out of memory writing JSON");
done:
	ut_suite_hooks_dispose(&h);
	return rc;
}
