/* findings.c: the findings of a check, ordered most important first. */
#include "report/findings.h"
#include "util/map.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/banned.h"

static const struct {
	const char *name, *title;
	ut_severity severity;
} kinds[UT_FINDING_NKINDS] = {
    {"broken-dependency", "Broken dependency", UT_SEVERITY_ERROR},
    {"removed-prerequisite", "Removed prerequisite", UT_SEVERITY_ERROR},
    {"reorder", "Dependent runs before its prerequisite", UT_SEVERITY_ERROR},
    {"new-dependency", "New dependency", UT_SEVERITY_WARNING},
};

static const char *const severities[UT_SEVERITY_N] = {"error", "warning", "notice"};

const char *ut_finding_kind_name(ut_finding_kind k)
{
	return (unsigned)k < UT_FINDING_NKINDS ? kinds[k].name : "?";
}

const char *ut_finding_kind_title(ut_finding_kind k)
{
	return (unsigned)k < UT_FINDING_NKINDS ? kinds[k].title : "?";
}

ut_severity ut_finding_kind_severity(ut_finding_kind k)
{
	return (unsigned)k < UT_FINDING_NKINDS ? kinds[k].severity : UT_SEVERITY_ERROR;
}

const char *ut_severity_name(ut_severity s)
{
	return (unsigned)s < UT_SEVERITY_N ? severities[s] : "?";
}

int ut_finding_kind_parse(const char *name, ut_finding_kind *out)
{
	int i;

	for (i = 0; i < UT_FINDING_NKINDS; i++) {
		if (name && !strcmp(name, kinds[i].name)) {
			*out = (ut_finding_kind)i;
			return 0;
		}
	}
	return ut_error_set(UT_EINPUT, "unknown finding kind '%s'", name ? name : "");
}

int ut_severity_parse(const char *name, ut_severity *out)
{
	int i;

	for (i = 0; i < UT_SEVERITY_N; i++) {
		if (name && !strcmp(name, severities[i])) {
			*out = (ut_severity)i;
			return 0;
		}
	}
	return ut_error_set(UT_EINPUT, "unknown severity '%s'", name ? name : "");
}

void ut_findings_init(ut_findings *fs)
{
	memset(fs, 0, sizeof(*fs));
	ut_arena_init(&fs->arena);
}

void ut_findings_dispose(ut_findings *fs)
{
	if (!fs)
		return;
	ut_arena_dispose(&fs->arena);
	ut_vec_free(&fs->v);
	memset(fs, 0, sizeof(*fs));
}

/* NULL stays NULL; a failed copy is reported through *failed. */
static const char *dup(ut_arena *a, const char *s, int *failed)
{
	char *c;

	if (!s)
		return NULL;
	c = ut_arena_strdup(a, s);
	if (!c)
		*failed = 1;
	return c;
}

/* NULL for none; a failed copy is reported through *failed. */
static ut_finding_test *dup_tests(ut_arena *a, const ut_finding_test *v, size_t n, int *failed)
{
	ut_finding_test *c;

	if (!n)
		return NULL;
	c = ut_arena_alloc(a, n * sizeof(*c));
	if (!c) {
		*failed = 1;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		c[i].id = dup(a, v[i].id ? v[i].id : "", failed);
		c[i].file = dup(a, v[i].file, failed);
		c[i].line = v[i].line;
	}
	return c;
}

int ut_findings_add(ut_findings *fs, const ut_finding *f)
{
	ut_finding c = *f;
	int failed = 0;

	if (!f->test || (unsigned)f->kind >= UT_FINDING_NKINDS ||
	    (unsigned)f->severity >= UT_SEVERITY_N)
		return ut_error_set(UT_EINPUT, "finding without a test, kind or severity");
	c.test = dup(&fs->arena, f->test, &failed);
	c.file = dup(&fs->arena, f->file, &failed);
	c.title = dup(&fs->arena, f->title, &failed);
	c.message = dup(&fs->arena, f->message ? f->message : "", &failed);
	if (c.end_line < c.line)
		c.end_line = c.line;
	c.evidence = NULL;
	c.related = dup_tests(&fs->arena, f->related, f->nrelated, &failed);
	c.dependents = dup_tests(&fs->arena, f->dependents, f->ndependents, &failed);
	if (f->nevidence) {
		c.evidence = ut_arena_alloc(&fs->arena, f->nevidence * sizeof(*c.evidence));
		failed |= !c.evidence;
		if (c.evidence)
			memcpy(c.evidence, f->evidence, f->nevidence * sizeof(*c.evidence));
	}
	if (failed || ut_vec_push(&fs->v, c))
		return ut_error_set(UT_ENOMEM, "out of memory adding a finding");
	fs->count[c.severity]++;
	return 0;
}

static int strcmp_null(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Sorting pointers into the vector and comparing their addresses last keeps equal keys in
 * insertion order (qsort is not stable). */
static int compare(const void *pa, const void *pb)
{
	const ut_finding *a = *(const ut_finding *const *)pa, *b = *(const ut_finding *const *)pb;
	size_t i;
	int c;

	if (ut_finding_is_root(a) != ut_finding_is_root(b))
		return ut_finding_is_root(a) ? -1 : 1;
	if (a->severity != b->severity)
		return a->severity < b->severity ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	c = strcmp(a->test, b->test);
	if (!c)
		c = strcmp_null(a->file, b->file);
	if (!c && a->line != b->line)
		c = a->line < b->line ? -1 : 1;
	for (i = 0; !c && i < a->nrelated && i < b->nrelated; i++)
		c = strcmp(a->related[i].id, b->related[i].id);
	if (!c && a->nrelated != b->nrelated)
		c = a->nrelated < b->nrelated ? -1 : 1;
	if (!c)
		c = a < b ? -1 : a > b;
	return c;
}

void ut_findings_sort(ut_findings *fs)
{
	const ut_finding **order = NULL;
	ut_finding *sorted = NULL;
	size_t i, n = fs->v.n;

	if (n < 2)
		return;
	order = malloc(n * sizeof(*order));
	sorted = malloc(n * sizeof(*sorted));
	if (!order || !sorted) {
		/* out of memory: the findings keep the order they were added in */
		goto done;
	}
	for (i = 0; i < n; i++)
		order[i] = &fs->v.v[i];
	qsort(order, n, sizeof(*order), compare);
	for (i = 0; i < n; i++)
		sorted[i] = *order[i];
	memcpy(fs->v.v, sorted, n * sizeof(*sorted));
done:
	free(order);
	free(sorted);
}

bool ut_finding_is_root(const ut_finding *f)
{
	return f->kind == UT_FINDING_REMOVED && f->ndependents > 0;
}

const char *ut_finding_title(const ut_finding *f)
{
	return f->title && *f->title ? f->title : ut_finding_kind_title(f->kind);
}

/* FNV-1a over s and a separator 0xff, so that ("ab", "c") and ("a", "bc") differ */
static uint64_t fnv(uint64_t h, const char *s)
{
	h = ut_hash_more(h, s ? s : "", s ? strlen(s) : 0);
	return ut_hash_more(h, "\xff", 1);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

void ut_finding_fingerprint(const ut_finding *f, char out[33])
{
	uint64_t h[2] = {UT_HASH_BASIS, 0x9e3779b97f4a7c15ULL};
	uint64_t rel[2] = {0, 0};
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		h[k] = fnv(h[k], ut_finding_kind_name(f->kind));
		h[k] = fnv(h[k], f->test);
		/* a sum of mixed hashes does not depend on the order of the related tests */
		for (i = 0; i < f->nrelated; i++)
			rel[k] += mix(fnv(h[k] ^ 0x5bd1e995, f->related[i].id));
		h[k] = mix(h[k] ^ mix(rel[k] + f->nrelated));
	}
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}
