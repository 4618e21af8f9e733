/* fingerprint.c: what a plan was made from, by file hash (plan_file.h): cheap enough to
 * check before every CI job, where parsing the suite again is what the plan avoids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/config_opts.h"
#include "parse/parse.h"
#include "shard/plan_file.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/map.h"
#include "util/banned.h"

#define FP_MAX_FILE (1024u * 1024u * 1024u)

int ut_fingerprint_files(ut_fingerprint *out, const char *const *paths, size_t n)
{
	ut_buf data = UT_BUF_INIT;
	size_t i;
	int rc = 0;

	ut_fingerprint_dispose(out);
	out->files = ut_arena_alloc(&out->arena, (n ? n : 1) * sizeof(*out->files));
	if (!out->files)
		return ut_error_set(UT_ENOMEM, "out of memory");
	out->hash = UT_HASH_BASIS;
	for (i = 0; i < n && rc == 0; i++) {
		ut_fp_file *f = &out->files[i];
		char num[32];

		f->path = ut_arena_strdup(&out->arena, ut_path_relative(paths[i], "."));
		if (!f->path) {
			rc = ut_error_set(UT_ENOMEM, "out of memory");
			break;
		}
		rc = ut_fs_read(&data, paths[i], FP_MAX_FILE);
		if (rc == UT_ENOTFOUND) {
			rc = 0;
			f->size = -1;
			f->hash = 0;
		} else if (rc < 0) {
			break;
		} else {
			f->size = (long long)data.len;
			f->hash = ut_hash(data.ptr ? data.ptr : "", data.len);
		}
		snprintf(num, sizeof(num), "%lld %llx", f->size, (unsigned long long)f->hash);
		out->hash = ut_hash_seq(ut_hash_seq(out->hash, f->path), num);
		out->n++;
	}
	ut_buf_dispose(&data);
	return rc;
}

static int project_files(ut_fingerprint *out, const ut_config *cfg, bool with_graph)
{
	ut_pathlist files = {0};
	ut_parse_opts po;
	ut_arena arena = UT_ARENA_INIT;
	int rc = ut_parse_opts_from_config(&po, cfg, ".", &arena);

	if (rc == 0)
		rc = ut_parse_source_files(&files, &po);
	/* what the parse and the plan read besides the sources */
	if (rc == 0 && ut_pathlist_add(&files, "untangle.json") < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && with_graph && cfg->store.graph &&
	    ut_pathlist_add(&files, cfg->store.graph) < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && po.order_file && ut_pathlist_add(&files, po.order_file) < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0 && po.testng_xml && ut_pathlist_add(&files, po.testng_xml) < 0)
		rc = ut_error_set(UT_ENOMEM, "out of memory");
	if (rc == 0)
		rc = ut_fingerprint_files(out, (const char *const *)files.paths, files.n);
	ut_pathlist_dispose(&files);
	ut_arena_dispose(&arena);
	return rc;
}

int ut_fingerprint_project(ut_fingerprint *out, const ut_config *cfg)
{
	return project_files(out, cfg, true);
}

int ut_fingerprint_sources(ut_fingerprint *out, const ut_config *cfg)
{
	return project_files(out, cfg, false);
}

bool ut_fingerprint_sources_hex(const ut_config *cfg, char hex[17])
{
	ut_fingerprint fp;
	int rc;

	memset(&fp, 0, sizeof(fp));
	rc = ut_fingerprint_sources(&fp, cfg);
	if (rc == 0)
		snprintf(hex, 17, "%016llx", (unsigned long long)fp.hash);
	else
		ut_error_clear();
	ut_fingerprint_dispose(&fp);
	return rc == 0;
}

void ut_fingerprint_dispose(ut_fingerprint *fp)
{
	if (!fp)
		return;
	ut_arena_dispose(&fp->arena);
	memset(fp, 0, sizeof(*fp));
}

static int index_files(ut_map *m, const ut_fingerprint *fp)
{
	size_t i;

	for (i = 0; i < fp->n; i++)
		if (ut_map_put(m, fp->files[i].path, strlen(fp->files[i].path),
			       (void *)&fp->files[i]) < 0)
			return ut_error_set(UT_ENOMEM, "out of memory");
	return 0;
}

int ut_fingerprint_diff(ut_fp_drift *out, const ut_fingerprint *was, const ut_fingerprint *now)
{
	ut_map in_now = UT_MAP_INIT, in_was = UT_MAP_INIT;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = index_files(&in_now, now);
	if (rc == 0)
		rc = index_files(&in_was, was);
	for (i = 0; rc == 0 && i < was->n; i++) {
		const ut_fp_file *w = &was->files[i];
		const ut_fp_file *n = ut_map_get(&in_now, w->path, strlen(w->path));
		long long size = n ? n->size : -1;

		if (w->size < 0 && size < 0)
			continue;
		if (size < 0) {
			if (!out->removed++)
				out->first_removed = w->path;
		} else if (w->size < 0) {
			if (!out->added++)
				out->first_added = w->path;
		} else if (w->size != size || w->hash != n->hash) {
			if (!out->changed++) {
				out->first_changed = w;
				out->now_size = size;
			}
		}
	}
	for (i = 0; rc == 0 && i < now->n; i++) {
		const ut_fp_file *n = &now->files[i];

		if (n->size >= 0 && !ut_map_get(&in_was, n->path, strlen(n->path)) && !out->added++)
			out->first_added = n->path;
	}
	ut_map_dispose(&in_now);
	ut_map_dispose(&in_was);
	return rc;
}
