/* ceiling.c: how fast tree-sitter alone parses a generated suite, the bound on what
 * `untangle tests` can reach on one core. A measuring tool, not part of untangle: it
 * calls tree-sitter directly (untangle itself only through src/parse/treesitter.c).
 *
 *     ceiling LANG TESTS < FILE_LIST
 *
 * Parses every file of the list (one path a line) with ts_parser_parse_string, once with
 * tree-sitter's own allocator and once with untangle's pool (src/util/pool.c), and prints
 * the best CPU time of RUNS (environment, default 2) for each, in MB/s and tests/s. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tree_sitter/api.h>

#include "util/pool.h"

const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);

typedef struct {
	char *data;
	size_t len;
} source;

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int slurp(const char *path, source *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t got, cap = 0;

	out->data = NULL;
	out->len = 0;
	if (!f)
		return -1;
	for (;;) {
		got = fread(chunk, 1, sizeof(chunk), f);
		if (!got)
			break;
		if (out->len + got > cap) {
			char *grown;

			cap = 2 * (out->len + got);
			grown = realloc(out->data, cap);
			if (!grown)
				break;
			out->data = grown;
		}
		memcpy(out->data + out->len, chunk, got);
		out->len += got;
	}
	got = got || ferror(f); /* stopped early */
	fclose(f);
	return got ? -1 : 0;
}

/* CPU seconds to parse every source once; the trees are deleted as untangle does. */
static double parse_all(const TSLanguage *lang, const source *src, size_t n)
{
	TSParser *p = ts_parser_new();
	double t0;
	size_t i;

	ts_parser_set_language(p, lang);
	t0 = cpu_now();
	for (i = 0; i < n; i++) {
		TSTree *tree = ts_parser_parse_string(p, NULL, src[i].data, (uint32_t)src[i].len);

		ts_tree_delete(tree);
	}
	t0 = cpu_now() - t0;
	ts_parser_delete(p);
	return t0;
}

static double best_of(int runs, const TSLanguage *lang, const source *src, size_t n)
{
	double best = 0;
	int r;

	for (r = 0; r < runs; r++) {
		double t = parse_all(lang, src, n);

		if (r == 0 || t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	const TSLanguage *lang;
	source *src = NULL;
	size_t n = 0, cap = 0, bytes = 0;
	char line[4096];
	double plain, pooled, tests;
	int runs = getenv("RUNS") ? atoi(getenv("RUNS")) : 2;

	if (argc != 3) {
		fprintf(stderr, "usage: ceiling java|python|javascript TESTS < FILE_LIST\n");
		return 2;
	}
	lang = strcmp(argv[1], "java") == 0     ? tree_sitter_java()
	       : strcmp(argv[1], "python") == 0 ? tree_sitter_python()
						: tree_sitter_javascript();
	tests = strtod(argv[2], NULL);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			src = realloc(src, cap * sizeof(*src));
			if (!src)
				return 2;
		}
		if (slurp(line, &src[n]) < 0) {
			fprintf(stderr, "ceiling: cannot read '%s'\n", line);
			return 2;
		}
		bytes += src[n++].len;
	}
	if (runs < 1)
		runs = 1;
	/* the default allocator first: the pool, once set, stays */
	plain = best_of(runs, lang, src, n);
	ts_set_allocator(ut_pool_malloc, ut_pool_calloc, ut_pool_realloc, ut_pool_free);
	pooled = best_of(runs, lang, src, n);
	printf("%-10s ceil %6zu files %6.1f MB src | tree-sitter alone: cpu %5.2f s = %5.2f MB/s "
	       "= %6.0f tests/s | with untangle's pool: cpu %5.2f s = %6.0f tests/s\n",
	       argv[1], n, (double)bytes / 1e6, plain, (double)bytes / 1e6 / plain,
	       tests / plain, pooled, tests / pooled);
	while (n > 0)
		free(src[--n].data);
	free(src);
	return 0;
}
