/* nlp_bench.c: measures the NLP stage: read/write classification of labelled test names
 * (precision and recall), analysis speed, and explains single names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nlp/nlp.h"
#include "util/buf.h"
#include "util/error.h"

#define MAXLINE 1024

typedef struct {
	int tp, fp, fn;
} counts;

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double ratio(int a, int b)
{
	return b ? 100.0 * a / b : 0.0;
}

static void report(const char *cls, const counts *c)
{
	printf("  %-5s precision %5.1f%% (%d/%d)  recall %5.1f%% (%d/%d)\n", cls,
	       ratio(c->tp, c->tp + c->fp), c->tp, c->tp + c->fp, ratio(c->tp, c->tp + c->fn),
	       c->tp, c->tp + c->fn);
}

/* Classifies every "name<TAB>read|write" line of `path`; UNKNOWN counts as predicting
 * neither class (a miss for recall, no false positive for precision). */
static int classify(ut_nlp *nlp, const char *path, int verbose)
{
	FILE *f = fopen(path, "r");
	char line[MAXLINE];
	counts read = {0, 0, 0}, write = {0, 0, 0};
	int total = 0, unknown = 0, correct = 0;

	if (!f) {
		fprintf(stderr, "nlp_bench: cannot open '%s'\n", path);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *label;
		const ut_name_info *info;
		ut_verb_class want, got;

		if (line[0] == '#' || !tab)
			continue;
		*tab = '\0';
		label = tab + 1;
		label[strcspn(label, "\r\n")] = '\0';
		want = strcmp(label, "read") == 0 ? UT_VERB_READ : UT_VERB_WRITE;
		if (ut_nlp_analyze(nlp, line, &info)) {
			fprintf(stderr, "nlp_bench: %s\n", ut_error_message());
			fclose(f);
			return 2;
		}
		got = info->verb_class;
		total++;
		unknown += got == UT_VERB_UNKNOWN;
		correct += got == want;
		read.tp += want == UT_VERB_READ && got == UT_VERB_READ;
		read.fp += want != UT_VERB_READ && got == UT_VERB_READ;
		read.fn += want == UT_VERB_READ && got != UT_VERB_READ;
		write.tp += want == UT_VERB_WRITE && got == UT_VERB_WRITE;
		write.fp += want != UT_VERB_WRITE && got == UT_VERB_WRITE;
		write.fn += want == UT_VERB_WRITE && got != UT_VERB_WRITE;
		if (verbose && got != want)
			printf("  miss: %-50s want %-5s got %-7s verb %s (%s)\n", line, label,
			       ut_verb_class_name(got), info->verb ? info->verb : "-",
			       info->verb_reason);
	}
	fclose(f);
	printf("  %d names: %d classified right (%.1f%%), %d unknown\n", total, correct,
	       ratio(correct, total), unknown);
	report("write", &write);
	report("read", &read);
	printf("  both  precision %5.1f%%  recall %5.1f%%  (micro-averaged over the two "
	       "classes)\n",
	       ratio(read.tp + write.tp, read.tp + write.tp + read.fp + write.fp),
	       ratio(read.tp + write.tp, read.tp + write.tp + read.fn + write.fn));
	/* The costly error: a write called a read lets the verb filter drop the edges of
	 * the tests that need it. A read called a write, or no verdict, only keeps edges. */
	printf("  unsafe: %d of %d writes called read (%.1f%%); %d reads called write, %d "
	       "unknown (edges kept)\n",
	       read.fp, write.tp + write.fn, ratio(read.fp, write.tp + write.fn), write.fp,
	       unknown);
	return 0;
}

/* Realistic suite names from a vocabulary of web verbs, entities and qualifiers, in the
 * three styles (camelCase, snake_case, titles); `unique` adds a made-up word to each,
 * so that every name needs WordNet lookups of its own (the worst case). */
static char **make_names(size_t n, int unique)
{
	static const char *verbs[] = {
	    "add",	"create",  "delete",  "remove",	 "update",  "edit",	 "rename", "share",
	    "view",	"list",	   "search",  "filter",	 "sort",    "open",	 "login",  "logout",
	    "register", "archive", "restore", "publish", "upload",  "download",	 "export", "import",
	    "invite",	"assign",  "move",    "copy",	 "approve", "reject",	 "cancel", "book",
	    "pay",	"refund",  "follow",  "like",	 "comment", "subscribe", "print",  "count"};
	static const char *nouns[] = {
	    "user",	"board",    "list",    "card",	  "project",	 "task",    "issue",
	    "comment",	"post",	    "order",   "invoice", "payment",	 "product", "cart",
	    "item",	"account",  "profile", "team",	  "member",	 "file",    "folder",
	    "document", "report",   "message", "event",	  "ticket",	 "label",   "tag",
	    "page",	"setting",  "token",   "key",	  "role",	 "group",   "repository",
	    "branch",	"customer", "address", "review",  "subscription"};
	static const char *quals[] = {"",      "new",	  "shared", "archived", "duplicate",
				      "empty", "default", "public", "private",	"recent"};
	size_t nv = sizeof(verbs) / sizeof(*verbs), nn = sizeof(nouns) / sizeof(*nouns);
	size_t nq = sizeof(quals) / sizeof(*quals);
	char **names = calloc(n, sizeof(*names));
	size_t i;

	for (i = 0; names && i < n; i++) {
		const char *v = verbs[i % nv], *o = nouns[(i / nv) % nn];
		const char *q = quals[(i / (nv * nn)) % nq], *o2 = nouns[(i * 7 + 3) % nn];
		char made[16] = "";
		char buf[256];

		if (unique)
			snprintf(made, sizeof(made), "zq%c%c%c", 'a' + (int)(i % 26),
				 'a' + (int)(i / 26 % 26), 'a' + (int)(i / 676 % 26));
		switch (i % 3) {
		case 0:
			snprintf(buf, sizeof(buf), "%s%c%s%s%c%sTo%c%s%sTest%zu", v,
				 *q ? q[0] - 32 : 'A', *q ? q + 1 : "", *q ? "" : "n", o[0] - 32,
				 o + 1, o2[0] - 32, o2 + 1, made, i);
			break;
		case 1:
			snprintf(buf, sizeof(buf), "test_%s_%s%s%s_in_%s%s%s_%zu", v, q,
				 *q ? "_" : "", o, o2, *made ? "_" : "", made, i);
			break;
		default:
			snprintf(buf, sizeof(buf), "%ss the %s%s%s of the %s %s (%zu)", v, q,
				 *q ? " " : "", o, o2, made, i);
			break;
		}
		names[i] = strdup(buf);
	}
	return names;
}

/* Reads every `step`-th plain word of a WordNet index file (its first column). */
static size_t read_words(const char *path, size_t step, char **out, size_t max)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t n = 0, k = 0;

	while (f && n < max && fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, " ");

		line[len] = '\0';
		if (line[0] == ' ' || strspn(line, "abcdefghijklmnopqrstuvwxyz") != len || len < 3)
			continue;
		if (k++ % step == 0)
			out[n++] = strdup(line);
	}
	if (f)
		fclose(f);
	return n;
}

/* Names from a large real vocabulary: 1,000 WordNet verbs and 4,000 nouns (about 5,000
 * distinct words, each looked up in WordNet once), as a big suite's names may have. */
static char **vocabulary_names(size_t n)
{
	static char *verbs[1000], *nouns[4000];
	size_t nv = read_words("/usr/share/wordnet/index.verb", 8, verbs, 1000);
	size_t nn = read_words("/usr/share/wordnet/index.noun", 25, nouns, 4000);
	char **names = calloc(n, sizeof(*names));
	char buf[256];
	size_t i;

	if (!nv || !nn) {
		free(names);
		return NULL;
	}
	for (i = 0; names && i < n; i++) {
		snprintf(buf, sizeof(buf), "test_%s_%s_with_%s", verbs[i % nv], nouns[i % nn],
			 nouns[(i * 7 + 1) % nn]);
		names[i] = strdup(buf);
	}
	return names;
}

static int speed(size_t n, int unique)
{
	char **names = unique == 2 ? vocabulary_names(n) : make_names(n, unique);
	static const char *const kind[] = {"realistic", "made-up-word", "large-vocabulary"};
	ut_nlp *nlp = NULL;
	const ut_name_info *info;
	double t0, t1, t2, c0, c2;
	size_t i, unknown = 0;
	int rc = 2;

	if (!names)
		return 2;
	t0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	if (ut_nlp_new(&nlp, NULL, 0, NULL, 0) ||
	    ut_nlp_set_suite_names(nlp, (const char *const *)names, n))
		goto done;
	t1 = now(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		if (ut_nlp_analyze(nlp, names[i], &info))
			goto done;
		unknown += info->verb_class == UT_VERB_UNKNOWN;
	}
	t2 = now(CLOCK_MONOTONIC);
	c2 = now(CLOCK_PROCESS_CPUTIME_ID);
	printf("  %zu %s names (e.g. '%s'): new + suite words %.3f s, analyze %.3f s "
	       "(%.1f us/name), total %.3f s wall, %.3f s cpu, %zu unknown\n",
	       n, kind[unique], names[n / 2], t1 - t0, t2 - t1, 1e6 * (t2 - t1) / (double)n,
	       t2 - t0, c2 - c0, unknown);
	rc = 0;
done:
	if (rc)
		fprintf(stderr, "nlp_bench: %s\n", ut_error_message());
	ut_nlp_free(nlp);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int explain(ut_nlp *nlp, int argc, char **argv)
{
	ut_buf out = UT_BUF_INIT;
	const ut_name_info *info;
	int i;

	for (i = 0; i < argc; i++) {
		if (ut_nlp_analyze(nlp, argv[i], &info) || ut_nlp_explain(info, &out)) {
			fprintf(stderr, "nlp_bench: %s\n", ut_error_message());
			ut_buf_dispose(&out);
			return 2;
		}
		ut_buf_putc(&out, '\n');
	}
	fwrite(out.ptr, 1, out.len, stdout);
	ut_buf_dispose(&out);
	return 0;
}

int main(int argc, char **argv)
{
	ut_nlp *nlp = NULL;
	int rc = 2, verbose = argc > 1 && strcmp(argv[1], "-v") == 0;

	if (verbose) {
		argc--;
		argv++;
	}
	if (argc >= 3 && strcmp(argv[1], "--speed") == 0)
		/* "realistic" (or nothing), "unique" or "vocabulary" */
		return speed(strtoul(argv[2], NULL, 10), argc < 4			      ? 0
							 : strcmp(argv[3], "unique") == 0     ? 1
							 : strcmp(argv[3], "vocabulary") == 0 ? 2
											      : 0);
	if (argc < 3 || (strcmp(argv[1], "--classify") && strcmp(argv[1], "--explain") &&
			 strcmp(argv[1], "--wordnet-only"))) {
		fprintf(stderr, "usage: nlp_bench [-v] --classify|--wordnet-only NAMES.tsv\n"
				"       nlp_bench --explain NAME...\n"
				"       nlp_bench --speed N [unique|vocabulary]\n");
		return 2;
	}
	if (strcmp(argv[1], "--wordnet-only") == 0)
		rc = ut_nlp_new_wordnet_only(&nlp);
	else
		rc = ut_nlp_new(&nlp, NULL, 0, NULL, 0);
	if (rc) {
		fprintf(stderr, "nlp_bench: %s\n", ut_error_message());
		return 2;
	}
	if (strcmp(argv[1], "--explain") == 0)
		rc = explain(nlp, argc - 2, argv + 2);
	else
		rc = classify(nlp, argv[2], verbose);
	ut_nlp_free(nlp);
	return rc;
}
