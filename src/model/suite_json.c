/* suite_json.c: writes the suite model in the schema of `untangle tests --json`. */
#include "model/suite_json.h"

#include "util/error.h"
#include "util/jsonw.h"
#include "util/banned.h"

static void write_action(ut_jsonw *w, const ut_action *a)
{
	ut_jsonw_obj_begin(w);
	ut_jsonw_kstr(w, "kind", ut_action_kind_name(a->kind));
	ut_jsonw_kint(w, "line", a->line);
	if (a->file) {
		ut_jsonw_kstr(w, "file", a->file);
	}
	ut_jsonw_key(w, "values");
	ut_jsonw_strs(w, a->values, a->nvalues);
	if (a->nunresolved) {
		ut_jsonw_key(w, "unresolved");
		ut_jsonw_strs(w, a->unresolved, a->nunresolved);
	}
	if (a->setup) {
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

int ut_suite_write_json(ut_buf *out, const ut_suite *s, const ut_diags *diags, bool pretty)
{
	ut_jsonw w;
	size_t i, j;

	ut_jsonw_init(&w, out, pretty);
	ut_jsonw_obj_begin(&w);
	write_origin(&w, &s->origin);
	ut_jsonw_key(&w, "tests");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < s->tests.n; i++) {
		const ut_test *t = &s->tests.v[i];

		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "id", t->id);
		ut_jsonw_kstr(&w, "name", t->name);
		ut_jsonw_kstr(&w, "file", t->file);
		ut_jsonw_kint(&w, "line", t->line);
		ut_jsonw_kint(&w, "end_line", t->end_line);
		ut_jsonw_kint(&w, "index", (long long)t->index);
		ut_jsonw_kstr(&w, "language", ut_lang_name(t->language));
		ut_jsonw_kstr(&w, "framework", t->framework);
		if (t->ndepends) {
			ut_jsonw_key(&w, "depends_on");
			ut_jsonw_arr_begin(&w);
			for (j = 0; j < t->ndepends; j++)
				ut_jsonw_str(&w, t->depends_on[j]);
			ut_jsonw_arr_end(&w);
		}
		ut_jsonw_key(&w, "actions");
		ut_jsonw_arr_begin(&w);
		for (j = 0; j < t->nactions; j++)
			write_action(&w, &t->actions[j]);
		ut_jsonw_arr_end(&w);
		ut_jsonw_obj_end(&w);
		ut_buf_drain(out);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "warnings");
	ut_jsonw_arr_begin(&w);
	for (i = 0; diags && i < diags->items.n; i++) {
		const ut_diag *d = &diags->items.v[i];

		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "file", d->file);
		ut_jsonw_kint(&w, "line", d->line);
		ut_jsonw_kstr(&w, "message", d->message);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	if (ut_buf_flush(out) == 0 && !out->failed)
		return 0;
	return ut_error_set(UT_ENOMEM, out->sink ? "could not write the output"
						 : "out of memory writing JSON");
}
