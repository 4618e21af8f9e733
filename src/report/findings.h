/* findings.h: what a check found, in one model that every report format is written from
 * (GitHub workflow commands, Markdown, SARIF, GitLab Code Quality, JSON, the check run).
 *
 * A finding is about one test, `test`: the one whose line is annotated (for a removed
 * prerequisite, the dependent that lost it). `related` are the tests that `test` depends
 * on in that finding (its prerequisites that broke, the removed or renamed test, the
 * prerequisite that now runs after it, the new dependee), so every finding draws the
 * edges `test -> related[i]` of the affected part of the graph.
 *
 * A root cause (a removed or renamed test that others depended on) is one finding of kind
 * removed-prerequisite whose `test` is that test and whose `dependents` are the tests that
 * depended on it, the direct ones first, then those that depend on them: its consequences,
 * folded under it (they have no finding of their own). Root causes come first.
 *
 * Producers (untangle check) fill a ut_finding with borrowed pointers and add it; the
 * collection copies everything into its own arena. */
#ifndef UT_FINDINGS_H
#define UT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"
#include "util/vec.h"

typedef enum {
	UT_FINDING_BROKEN,  /* broken-dependency: fails in its schedule with its known prerequisites
			     */
	UT_FINDING_REMOVED, /* removed-prerequisite: a removed or renamed test others depend on */
	UT_FINDING_REORDER, /* reorder: a dependent now runs before its prerequisite */
	UT_FINDING_NEW_EDGE, /* new-dependency: a dependency the change introduced, proven */
	UT_FINDING_NKINDS
} ut_finding_kind;

/* In order of importance: errors first. */
typedef enum {
	UT_SEVERITY_ERROR,
	UT_SEVERITY_WARNING,
	UT_SEVERITY_NOTICE,
	UT_SEVERITY_N
} ut_severity;

typedef struct {
	const char *id;	  /* test id */
	const char *file; /* NULL when unknown (a removed test) */
	unsigned line;	  /* 0 when unknown */
} ut_finding_test;

typedef struct {
	ut_finding_kind kind;
	ut_severity severity;
	const char *test;    /* test id; never NULL in a collection */
	const char *file;    /* path relative to the repository root, or NULL */
	unsigned line;	     /* 1-based; 0 when unknown */
	unsigned end_line;   /* >= line, or 0 when unknown */
	const char *title;   /* one line; NULL: the kind's default title */
	const char *message; /* may hold several lines; never NULL in a collection */
	ut_finding_test *related;
	size_t nrelated;
	long *evidence; /* run ids that prove it */
	size_t nevidence;
	ut_finding_test *dependents; /* a root cause: the tests that depended on `test` */
	size_t ndependents;
} ut_finding;

typedef struct {
	ut_arena arena;
	UT_VEC(ut_finding) v;
	size_t count[UT_SEVERITY_N];
} ut_findings;

/* "broken-dependency", "removed-prerequisite", "reorder", "new-dependency". */
const char *ut_finding_kind_name(ut_finding_kind k);
/* A short human title for a kind ("Broken dependency"). */
const char *ut_finding_kind_title(ut_finding_kind k);
/* The severity a kind has unless the producer says otherwise (new-dependency: warning). */
ut_severity ut_finding_kind_severity(ut_finding_kind k);
/* "error", "warning", "notice". */
const char *ut_severity_name(ut_severity s);
/* 0 and the value, or UT_EINPUT for an unknown name. */
int ut_finding_kind_parse(const char *name, ut_finding_kind *out);
int ut_severity_parse(const char *name, ut_severity *out);

void ut_findings_init(ut_findings *fs);
/* Frees everything the collection holds. Accepts NULL. */
void ut_findings_dispose(ut_findings *fs);

/* Copies f (strings, related tests, evidence) into the collection. `test` must be set;
 * a NULL message becomes "", an end_line below line becomes line. 0, UT_EINPUT for a
 * finding without a test or with an out-of-range kind or severity, or UT_ENOMEM. */
int ut_findings_add(ut_findings *fs, const ut_finding *f);

/* Whether f is a root cause: a removed-prerequisite finding with dependents. */
bool ut_finding_is_root(const ut_finding *f);

/* Orders the findings most important first: root causes, then by severity, then kind
 * (in enum order),
 * then test id, file, line and the related ids; equal keys keep their insertion order.
 * The writers expect a sorted collection. Out of memory, the order stays as added. */
void ut_findings_sort(ut_findings *fs);

/* The title to show: f->title, or the kind's title when none. Borrowed. */
const char *ut_finding_title(const ut_finding *f);

/* A fingerprint that stays the same across runs as long as the finding is about the same
 * thing: 32 hex digits from the kind, the test id and the related ids (sorted), not from
 * lines or messages. out must hold 33 bytes. */
void ut_finding_fingerprint(const ut_finding *f, char out[33]);

#endif
