/* wordnet.c: the libwordnet adapter; the only file that includes wn.h. */
#include "nlp/wordnet.h"

#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <wn.h>

#include "util/arena.h"
#include "util/error.h"
#include "util/map.h"
#include "util/banned.h"

/* Verb hierarchies are at most about 13 synsets deep; the bounds only guard against a
 * corrupt database and against the rare verbs with several hypernyms multiplying paths. */
#define PATH_MAXDEPTH 32
#define PATH_MAXPATHS 64

typedef struct {
	long off[PATH_MAXDEPTH]; /* root first */
	int len;
} path;

typedef struct {
	path p[PATH_MAXPATHS];
	int n;
} paths;

const char *ut_wordnet_version(void)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "WordNet %s", wnrelease ? wnrelease : "?");
	return buf;
}

/* Copies an open database file into memory and swaps the stream for one reading that
 * copy: libwordnet binary-searches its index files with fseek and getc on every lookup,
 * which costs a system call each time (about 75 per word looked up). On failure the
 * file stream stays. The copies live as long as the process. */
static const char *load_in_memory(FILE **fp, size_t *sizep)
{
	char *buf = NULL;
	FILE *mem;
	long size;

	if (!*fp || fseek(*fp, 0, SEEK_END) != 0)
		return NULL;
	size = ftell(*fp);
	if (size <= 0 || fseek(*fp, 0, SEEK_SET) != 0)
		return NULL;
	buf = malloc((size_t)size);
	if (!buf || fread(buf, 1, (size_t)size, *fp) != (size_t)size) {
		free(buf);
		return NULL;
	}
	mem = fmemopen(buf, (size_t)size, "r");
	if (!mem) {
		free(buf);
		return NULL;
	}
	/* Every seek refills the buffer by copying: a line's worth is enough. */
	setvbuf(mem, NULL, _IOFBF, 1024);
	/* libwordnet reads with getc: skip the stream lock, WordNet is single-threaded */
	__fsetlocking(mem, FSETLOCKING_BYCALLER);
	fclose(*fp);
	*fp = mem;
	*sizep = (size_t)size;
	return buf;
}

/* Every lemma of an index file with its number of senses, so that the commonest
 * questions (is this word a noun? how many senses has it?) need no binary search. Keys
 * point into the file's copy ("lemma pos synset_cnt ..." per line; the licence lines at
 * the top start with a space). */
static ut_map lemmas[ADV + 1];
static bool lemmas_loaded[ADV + 1];

static bool load_lemmas(int pos, const char *buf, size_t size)
{
	const char *line = buf, *end = buf + size, *nl, *sp;
	unsigned long senses;

	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		sp = memchr(line, ' ', (size_t)(nl - line));
		if (!sp || sp == line)
			continue;
		/* the synset count is the third field: skip " pos " */
		senses = sp + 3 < nl ? strtoul(sp + 3, NULL, 10) : 0;
		if (ut_map_put(&lemmas[pos], line, (size_t)(sp - line), (void *)(uintptr_t)senses))
			return false;
	}
	return true;
}

/* Whether `word` is a lemma of `pos`; *senses is its number of senses. */
static bool lookup_lemma(char *word, int pos, int *senses)
{
	IndexPtr idx;
	void *v = NULL;

	*senses = 0;
	if (lemmas_loaded[pos]) {
		if (!ut_map_find(&lemmas[pos], word, strlen(word), &v))
			return false;
		*senses = (int)(uintptr_t)v;
		return true;
	}
	idx = index_lookup(word, pos);
	if (!idx)
		return false;
	*senses = idx->off_cnt;
	free_index(idx);
	return true;
}

/*
 * The inflected forms of WordNet's exception lists (noun.exc: "children child"), by
 * part of speech. morphstr() reads these lists from disk on every call, which makes it
 * the slowest lookup; with them in memory, ut_wordnet_lemma() calls it only when it can
 * find something: for a listed form, or a word with one of Morphy's suffixes.
 */
static ut_map exc[ADV + 1];
static ut_arena exc_arena;
static bool exc_loaded;

static bool load_exceptions(void)
{
	static const char *const file[ADV + 1] = {NULL, "noun", "verb", "adj", "adv"};
	const char *dir = getenv("WNSEARCHDIR"), *home = getenv("WNHOME");
	char file_path[4096], line[512];
	FILE *f;
	int pos;

	for (pos = NOUN; pos <= ADV; pos++) {
		/* where libwordnet looks: WNSEARCHDIR, WNHOME/dict, Debian's default */
		if (dir && *dir)
			snprintf(file_path, sizeof(file_path), "%s/%s.exc", dir, file[pos]);
		else if (home && *home)
			snprintf(file_path, sizeof(file_path), "%s/dict/%s.exc", home, file[pos]);
		else
			snprintf(file_path, sizeof(file_path), "/usr/share/wordnet/%s.exc",
				 file[pos]);
		f = fopen(file_path, "r");
		if (!f)
			return false;
		while (fgets(line, sizeof(line), f)) {
			size_t n = strcspn(line, " \n");
			char *key = ut_arena_strndup(&exc_arena, line, n);

			if (!key || ut_map_put(&exc[pos], key, n, key)) {
				fclose(f);
				return false;
			}
		}
		fclose(f);
	}
	return true;
}

static bool ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n > k && memcmp(s + n - k, suffix, k) == 0;
}

/* Whether morphstr(word, pos) can return a base form (morph.c's rules for one word). */
static bool may_inflect(const char *word, int pos)
{
	size_t n = strlen(word);

	if (!exc_loaded || strpbrk(word, "_- ") || ut_map_get(&exc[pos], word, n))
		return true;
	switch (pos) {
	case NOUN:
		return n > 2 && !ends(word, n, "ss") &&
		       (ends(word, n, "s") || ends(word, n, "men") || ends(word, n, "ful"));
	case VERB:
		return ends(word, n, "s") || ends(word, n, "ed") || ends(word, n, "ing");
	case ADJ:
		return ends(word, n, "er") || ends(word, n, "est");
	default:
		return false;
	}
}

bool ut_wordnet_available(void)
{
	static int state = -1;
	size_t size = 0;
	int pos;

	if (state < 0) {
		state = wninit() == 0;
		for (pos = NOUN; state == 1 && pos <= ADV; pos++) {
			const char *buf = load_in_memory(&indexfps[pos], &size);

			lemmas_loaded[pos] = buf && load_lemmas(pos, buf, size);
		}
		if (state == 1) {
			load_in_memory(&datafps[VERB], &size);
			exc_loaded = load_exceptions();
		}
	}
	return state == 1;
}

int ut_wordnet_open(void)
{
	const char *dir = getenv("WNSEARCHDIR");

	if (ut_wordnet_available())
		return 0;
	return ut_error_set(UT_EENV,
			    "WordNet data not found in '%s' (install Debian's wordnet-base, or set "
			    "WNSEARCHDIR to the folder holding index.verb)",
			    dir && *dir ? dir : "/usr/share/wordnet");
}

static int wn_pos(int pos)
{
	switch (pos) {
	case UT_WN_NOUN:
		return NOUN;
	case UT_WN_VERB:
		return VERB;
	case UT_WN_ADJ:
		return ADJ;
	default:
		return ADV;
	}
}

/* libwordnet takes char * and may write to it, so every call gets a private copy. */
static bool copy_word(char *dst, const char *word)
{
	size_t n = strlen(word);

	if (n == 0 || n > UT_WN_MAXWORD)
		return false;
	memcpy(dst, word, n + 1);
	return true;
}

int ut_wordnet_senses(const char *word, int pos)
{
	char buf[UT_WN_MAXWORD + 1];
	int n = 0;

	if (copy_word(buf, word))
		lookup_lemma(buf, wn_pos(pos), &n);
	return n;
}

int ut_wordnet_lemma(const char *word, int pos, char *out, size_t outsz)
{
	char buf[UT_WN_MAXWORD + 1], base[UT_WN_MAXWORD + 1] = "";
	const char *lemma = NULL;
	char *m;
	int p = wn_pos(pos), senses;
	bool listed;

	if (!copy_word(buf, word))
		return 0;
	listed = lookup_lemma(buf, p, &senses);
	m = may_inflect(buf, p) ? morphstr(buf, p) : NULL;
	if (m && strlen(m) <= UT_WN_MAXWORD && strcmp(m, word) != 0)
		memcpy(base, m, strlen(m) + 1);
	/* "boards" is a noun of its own (the stage) but far more often the plural of
	 * "board"; "gas" is not the plural of "ga": the form with more senses wins. */
	if (base[0] && (!listed || ut_wordnet_senses(base, pos) >= senses))
		lemma = base;
	else if (listed)
		lemma = word;
	if (!lemma)
		return 0;
	if (out && outsz)
		snprintf(out, outsz, "%s", lemma);
	return 1;
}

/* Hypernyms of the verb synsets seen so far, by offset: WordNet reads a synset from its
 * data file on every call, and every verb's paths climb through the same few hundred
 * synsets near the roots. */
#define HYPER_SLOTS 32768 /* WordNet 3.0 has 13,767 verb synsets */
#define HYPER_MAX 4

typedef struct {
	long off; /* 0 = empty slot (no synset lives at offset 0: the file opens with a licence) */
	int n;
	long up[HYPER_MAX];
} hyper;

static hyper *hyper_memo;
static hyper hyper_spare; /* when the memo could not be allocated */

static const hyper *hypernyms(long off)
{
	size_t i = (size_t)off * 2654435761u % HYPER_SLOTS, probes;
	SynsetPtr s;
	hyper *h = NULL;
	int k;

	if (!hyper_memo)
		hyper_memo = calloc(HYPER_SLOTS, sizeof(*hyper_memo));
	for (probes = 0; hyper_memo && probes < HYPER_SLOTS; probes++) {
		h = &hyper_memo[(i + probes) % HYPER_SLOTS];
		if (h->off == off)
			return h;
		if (h->off == 0)
			break;
		h = NULL;
	}
	if (!h)
		h = &hyper_spare;
	s = read_synset(VERB, off, NULL);
	if (!s)
		return NULL;
	h->off = off;
	h->n = 0;
	for (k = 0; k < s->ptrcount; k++)
		if (s->ptrtyp[k] == HYPERPTR && s->ppos[k] == VERB && h->n < HYPER_MAX)
			h->up[h->n++] = s->ptroff[k];
	free_synset(s);
	return h;
}

/* Climbs from `off` to every root; chain[0..len) is the way up so far. Each root
 * reached adds the path root-first to `out`. */
static void climb(long off, long *chain, int len, paths *out)
{
	const hyper *found;
	hyper h = {off, 0, {0}};
	path *p;
	int i;

	if (len >= PATH_MAXDEPTH || out->n >= PATH_MAXPATHS)
		return;
	chain[len++] = off;
	found = hypernyms(off);
	if (found)
		h = *found;
	if (h.n > 0) {
		for (i = 0; i < h.n; i++)
			climb(h.up[i], chain, len, out);
		return;
	}
	p = &out->p[out->n++];
	p->len = len;
	for (i = 0; i < len; i++)
		p->off[i] = chain[len - 1 - i];
}

/* The hypernym paths of every verb sense of `word`; false when it is not a verb. */
static bool verb_paths(const char *word, paths *out)
{
	char buf[UT_WN_MAXWORD + 1];
	long chain[PATH_MAXDEPTH];
	IndexPtr idx;
	int i;

	out->n = 0;
	if (!copy_word(buf, word))
		return false;
	idx = index_lookup(buf, VERB);
	if (!idx)
		return false;
	for (i = 0; i < idx->off_cnt; i++)
		climb((long)idx->offset[i], chain, 0, out);
	free_index(idx);
	return out->n > 0;
}

/* The paths of the few words that every comparison is made with (the CRUD verbs). */
#define TARGETS 8

static struct {
	char word[UT_WN_MAXWORD + 1];
	paths *p; /* NULL when the word is not a verb */
} targets[TARGETS];
static int ntargets;

static const paths *target_paths(const char *word, paths *scratch)
{
	int i;

	for (i = 0; i < ntargets; i++)
		if (strcmp(targets[i].word, word) == 0)
			return targets[i].p;
	if (!verb_paths(word, scratch))
		return NULL;
	if (ntargets == TARGETS || strlen(word) > UT_WN_MAXWORD)
		return scratch;
	targets[ntargets].p = malloc(sizeof(*scratch));
	if (!targets[ntargets].p)
		return scratch;
	*targets[ntargets].p = *scratch;
	snprintf(targets[ntargets].word, sizeof(targets[ntargets].word), "%s", word);
	return targets[ntargets++].p;
}

double ut_wordnet_wup_verb(const char *a, const char *b)
{
	/* Two path sets are about 16 KiB each: too much for small thread stacks. */
	paths *pa = malloc(sizeof(*pa)), *scratch = malloc(sizeof(*scratch));
	const paths *pb = NULL;
	double best = -1;
	int i, j, k;

	if (!pa || !scratch || !verb_paths(a, pa))
		goto done;
	pb = target_paths(b, scratch);
	if (!pb)
		goto done;
	for (i = 0; i < pa->n; i++) {
		for (j = 0; j < pb->n; j++) {
			const path *x = &pa->p[i], *y = &pb->p[j];
			double s;

			/* The virtual root adds one synset to each path and to their overlap. */
			for (k = 0; k < x->len && k < y->len && x->off[k] == y->off[k]; k++)
				;
			s = 2.0 * (k + 1) / (double)(x->len + 1 + y->len + 1);
			if (s > best)
				best = s;
		}
	}
done:
	free(pa);
	free(scratch);
	return best;
}
