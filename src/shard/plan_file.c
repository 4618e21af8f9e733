/* plan_file.c: the plan file (plan_file.h), written with util/jsonw and read with the
 * cJSON adapter. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/json.h"
#include "shard/plan_file.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/jsonw.h"
#include "util/map.h"
#include "util/banned.h"

#define PLAN_FORMAT "untangle-plan"
#define PLAN_MAX_BYTES (1024u * 1024u * 1024u)

static void key_hash(ut_jsonw *w, const char *key, uint64_t h)
{
	char hex[17];

	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	ut_jsonw_kstr(w, key, hex);
}

static void write_shard(ut_jsonw *w, const ut_graph *g, const ut_shard *sh, size_t k,
			const double *durations)
{
	size_t i;

	ut_jsonw_obj_begin(w);
	ut_jsonw_kint(w, "shard", (long long)k);
	ut_jsonw_key(w, "duration_s");
	ut_jsonw_fixed(w, sh->cost_s, 3);
	ut_jsonw_kint(w, "repeats", (long long)sh->repeats);
	ut_jsonw_key(w, "tests");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < sh->n; i++)
		ut_jsonw_str(w, g->tests[sh->tests[i]].id);
	ut_jsonw_arr_end(w);
	ut_jsonw_key(w, "durations_s");
	ut_jsonw_arr_begin(w);
	for (i = 0; i < sh->n; i++)
		ut_jsonw_fixed(w, durations[sh->tests[i]], 3);
	ut_jsonw_arr_end(w);
	ut_jsonw_obj_end(w);
}

int ut_plan_file_write(ut_buf *out, const ut_graph *g, const ut_shard_plan *plan,
		       const double *durations, const char *preset, bool preset_inferred,
		       const ut_fingerprint *fp)
{
	ut_jsonw w;
	size_t i;

	ut_jsonw_init(&w, out, true);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "format", PLAN_FORMAT);
	ut_jsonw_kint(&w, "version", UT_PLAN_VERSION);
	ut_jsonw_key(&w, "shards");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < plan->nshards; i++)
		write_shard(&w, g, &plan->shards[i], i + 1, durations);
	ut_jsonw_arr_end(&w);
	ut_jsonw_key(&w, "runner");
	ut_jsonw_obj_begin(&w);
	ut_jsonw_kstr(&w, "preset", preset); /* NULL writes null */
	ut_jsonw_kbool(&w, "preset_inferred", preset_inferred);
	ut_jsonw_obj_end(&w);
	ut_jsonw_key(&w, "fingerprint");
	ut_jsonw_obj_begin(&w);
	key_hash(&w, "hash", fp->hash);
	ut_jsonw_key(&w, "files");
	ut_jsonw_arr_begin(&w);
	for (i = 0; i < fp->n; i++) {
		ut_jsonw_obj_begin(&w);
		ut_jsonw_kstr(&w, "path", fp->files[i].path);
		ut_jsonw_kint(&w, "size", fp->files[i].size);
		key_hash(&w, "hash", fp->files[i].hash);
		ut_jsonw_obj_end(&w);
	}
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ut_jsonw_obj_end(&w);
	return ut_jsonw_end(&w, "plan");
}

typedef struct {
	const char *path, *text;
	size_t len;
	ut_map ids; /* id -> graph index + 1 */
} reader;

static int bad(const reader *r, const char *key, const char *what)
{
	return ut_error_set(UT_EINPUT, "%s:%u: %s", r->path, ut_json_key_line(r->text, r->len, key),
			    what);
}

/* bad() for an entry of shard k (1-based): the line is that of the key's first use. */
static int bad_shard(const reader *r, size_t k, const char *key, const char *what)
{
	return ut_error_set(UT_EINPUT, "%s:%u: shard %zu: %s", r->path,
			    ut_json_key_line(r->text, r->len, key), k, what);
}

static bool read_hash(const ut_json *v, uint64_t *out)
{
	const char *s = ut_json_string(v);
	char *end = NULL;

	if (!s || !*s || strlen(s) > 16)
		return false;
	*out = strtoull(s, &end, 16);
	return *end == '\0';
}

static int read_fingerprint(ut_fingerprint *fp, const reader *r, const ut_json *obj)
{
	const ut_json *files = ut_json_get(obj, "files"), *f;
	size_t n = 0;

	if (!ut_json_is_object(obj) || !read_hash(ut_json_get(obj, "hash"), &fp->hash) ||
	    !ut_json_is_array(files))
		return bad(r, "fingerprint",
			   "'fingerprint' needs a 'hash' (16 hex digits) and a 'files' list");
	for (f = ut_json_first(files); f; f = ut_json_next(f))
		n++;
	fp->files = ut_arena_alloc(&fp->arena, (n ? n : 1) * sizeof(*fp->files));
	if (!fp->files)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (f = ut_json_first(files); f; f = ut_json_next(f)) {
		ut_fp_file *e = &fp->files[fp->n];
		const char *path = ut_json_string(ut_json_get(f, "path"));
		long size = 0;

		if (!path || !ut_json_whole(ut_json_get(f, "size"), -1, LONG_MAX, &size) ||
		    !read_hash(ut_json_get(f, "hash"), &e->hash))
			return bad(r, path ? path : "files",
				   "fingerprint 'files' entries need 'path', 'size' and 'hash'");
		e->path = ut_arena_strdup(&fp->arena, path);
		if (!e->path)
			return ut_error_set(UT_ENOMEM, "out of memory");
		e->size = size;
		fp->n++;
	}
	return 0;
}

/* Pass one: every distinct id, in order of first appearance, into the graph. */
static int read_ids(ut_graph **g, reader *r, const ut_json *shards)
{
	const ut_json *s, *t;
	size_t n = 0, k = 0;
	int rc;

	for (s = ut_json_first(shards); s; s = ut_json_next(s)) {
		const ut_json *tests = ut_json_get(s, "tests");

		k++;
		if (!ut_json_is_object(s) || !ut_json_is_array(tests))
			return bad_shard(r, k, "shards", "needs a 'tests' list");
		for (t = ut_json_first(tests); t; t = ut_json_next(t)) {
			const char *id = ut_json_string(t);

			if (!id)
				return bad_shard(r, k, "tests", "'tests' holds test ids (strings)");
			if (ut_map_get(&r->ids, id, strlen(id)))
				continue;
			if (ut_map_put(&r->ids, id, strlen(id), (void *)(n + 1)) < 0)
				return ut_error_set(UT_ENOMEM, "out of memory");
			n++;
		}
	}
	rc = ut_graph_new(g, n);
	for (s = ut_json_first(shards); s && rc == 0; s = ut_json_next(s))
		for (t = ut_json_first(ut_json_get(s, "tests")); t && rc == 0;
		     t = ut_json_next(t)) {
			const char *id = ut_json_string(t);
			size_t i = (size_t)ut_map_get(&r->ids, id, strlen(id)) - 1;

			if (!(*g)->tests[i].id)
				rc = ut_graph_set_test(*g, i, id, NULL, NULL, 0, 0);
		}
	return rc;
}

/* Pass two: each shard's list as indices, with the durations it was planned with. */
static int read_shard(ut_shard *sh, ut_graph *g, const reader *r, const ut_json *s, size_t k)
{
	const ut_json *tests = ut_json_get(s, "tests"), *durs = ut_json_get(s, "durations_s");
	const ut_json *cost = ut_json_get(s, "duration_s"), *t, *d;
	long repeats = 0;
	size_t n = 0;

	for (t = ut_json_first(tests); t; t = ut_json_next(t))
		n++;
	if (!ut_json_is_number(cost) || ut_json_number(cost) < 0 || !ut_json_is_array(durs))
		return bad_shard(r, k, "shards", "needs 'duration_s' and 'durations_s'");
	if (ut_json_get(s, "repeats") &&
	    !ut_json_whole(ut_json_get(s, "repeats"), 0, LONG_MAX, &repeats))
		return bad_shard(r, k, "repeats", "'repeats' is a count");
	sh->tests = malloc((n ? n : 1) * sizeof(*sh->tests));
	if (!sh->tests)
		return ut_error_set(UT_ENOMEM, "out of memory");
	sh->cost_s = ut_json_number(cost);
	sh->repeats = (size_t)repeats;
	d = ut_json_first(durs);
	for (t = ut_json_first(tests); t; t = ut_json_next(t), d = ut_json_next(d)) {
		const char *id = ut_json_string(t);
		uint32_t i = (uint32_t)((size_t)ut_map_get(&r->ids, id, strlen(id)) - 1);

		if (!d || !ut_json_is_number(d) || ut_json_number(d) < 0)
			return bad_shard(r, k, "durations_s",
					 "'durations_s' needs one duration (seconds) per test");
		g->tests[i].duration_s = ut_json_number(d);
		sh->tests[sh->n++] = i;
	}
	if (d)
		return bad_shard(r, k, "durations_s",
				 "'durations_s' needs one duration (seconds) per test");
	return 0;
}

static int read_plan(ut_plan_file *out, reader *r, const ut_json *doc)
{
	const ut_json *shards = ut_json_get(doc, "shards"), *runner = ut_json_get(doc, "runner");
	const ut_json *s, *preset;
	const char *format = ut_json_string(ut_json_get(doc, "format"));
	long version = 0;
	int rc;

	if (!format || strcmp(format, PLAN_FORMAT))
		return bad(r, "format",
			   "not a plan file (no \"format\": \"" PLAN_FORMAT
			   "\"; 'untangle shard --plan-file' writes them)");
	if (!ut_json_whole(ut_json_get(doc, "version"), 1, LONG_MAX, &version))
		return bad(r, "version", "'version' is a whole number");
	if (version > UT_PLAN_VERSION)
		return ut_error_set(UT_EINPUT,
				    "%s:%u: plan version %ld is newer than this untangle "
				    "reads (%d): write it again with this untangle",
				    r->path, ut_json_key_line(r->text, r->len, "version"), version,
				    UT_PLAN_VERSION);
	if (!ut_json_is_array(shards) || !ut_json_first(shards))
		return bad(r, "shards", "'shards' is a list of at least one shard");
	if (!ut_json_is_object(runner))
		return bad(r, "runner", "'runner' is an object with 'preset'");
	rc = read_ids(&out->g, r, shards);
	if (rc < 0)
		return rc;
	for (s = ut_json_first(shards); s; s = ut_json_next(s))
		out->plan.nshards++;
	if (out->plan.nshards > UT_SHARD_MAX)
		return bad(r, "shards", "more shards than untangle plans");
	out->plan.shards = calloc(out->plan.nshards, sizeof(*out->plan.shards));
	if (!out->plan.shards)
		return ut_error_set(UT_ENOMEM, "out of memory");
	out->plan.nshards = 0;
	for (s = ut_json_first(shards); s && rc == 0; s = ut_json_next(s)) {
		rc = read_shard(&out->plan.shards[out->plan.nshards], out->g, r, s,
				out->plan.nshards + 1);
		out->plan.nshards++;
		out->plan.nonempty += out->plan.shards[out->plan.nshards - 1].n > 0;
	}
	out->plan.ntests = out->g->ntests;
	if (rc < 0)
		return rc;
	preset = ut_json_get(runner, "preset");
	if (preset && !ut_json_is_null(preset) && !ut_json_is_string(preset))
		return bad(r, "preset", "'preset' is a preset name or null");
	if (ut_json_string(preset)) {
		out->preset = ut_graph_intern(out->g, ut_json_string(preset));
		if (!out->preset)
			return ut_error_set(UT_ENOMEM, "out of memory");
	}
	out->preset_inferred = ut_json_true(ut_json_get(runner, "preset_inferred"));
	return read_fingerprint(&out->fp, r, ut_json_get(doc, "fingerprint"));
}

int ut_plan_file_read(ut_plan_file *out, const char *path)
{
	ut_buf text = UT_BUF_INIT;
	ut_json *doc = NULL;
	reader r;
	int rc;

	memset(out, 0, sizeof(*out));
	out->plan.chain_test = -1;
	memset(&r, 0, sizeof(r));
	rc = ut_fs_read(&text, path, PLAN_MAX_BYTES);
	if (rc == UT_ENOTFOUND)
		rc = ut_error_set(UT_ENOTFOUND,
				  "%s: no such plan file ('untangle shard "
				  "--plan-file %s' writes it)",
				  path, path);
	if (rc == 0)
		rc = ut_json_parse(&doc, text.ptr ? text.ptr : "", text.len, path);
	if (rc == 0 && !ut_json_is_object(doc))
		rc = ut_error_set(UT_EINPUT, "%s:1: not a plan file (not a JSON object)", path);
	r.path = path;
	r.text = text.ptr;
	r.len = text.len;
	if (rc == 0)
		rc = read_plan(out, &r, doc);
	ut_map_dispose(&r.ids);
	ut_json_free(doc);
	ut_buf_dispose(&text);
	if (rc < 0)
		ut_plan_file_dispose(out);
	return rc;
}

void ut_plan_file_dispose(ut_plan_file *pf)
{
	if (!pf)
		return;
	ut_shard_plan_dispose(&pf->plan);
	ut_graph_free(pf->g);
	ut_fingerprint_dispose(&pf->fp);
	memset(pf, 0, sizeof(*pf));
	pf->plan.chain_test = -1;
}
