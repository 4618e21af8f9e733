/* wordnet.c: the libwordnet adapter; the only file that includes wn.h. */
#include "nlp/wordnet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wn.h>

#include "util/error.h"
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

bool ut_wordnet_available(void)
{
	static int state = -1;

	if (state < 0)
		state = wninit() == 0;
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
	IndexPtr idx;
	int n;

	if (!copy_word(buf, word))
		return 0;
	idx = index_lookup(buf, wn_pos(pos));
	if (!idx)
		return 0;
	n = idx->off_cnt;
	free_index(idx);
	return n;
}

int ut_wordnet_lemma(const char *word, int pos, char *out, size_t outsz)
{
	char buf[UT_WN_MAXWORD + 1], base[UT_WN_MAXWORD + 1] = "";
	const char *lemma = NULL;
	char *m;
	int p = wn_pos(pos);
	bool listed;

	if (!copy_word(buf, word))
		return 0;
	listed = in_wn(buf, p) != 0;
	m = morphstr(buf, p);
	if (m && strlen(m) <= UT_WN_MAXWORD && strcmp(m, word) != 0)
		memcpy(base, m, strlen(m) + 1);
	/* "boards" is a noun of its own (the stage) but far more often the plural of
	 * "board"; "gas" is not the plural of "ga": the form with more senses wins. */
	if (base[0] && (!listed || ut_wordnet_senses(base, pos) >= ut_wordnet_senses(word, pos)))
		lemma = base;
	else if (listed)
		lemma = word;
	if (!lemma)
		return 0;
	if (out && outsz)
		snprintf(out, outsz, "%s", lemma);
	return 1;
}

static void add_path(paths *out, const path *p)
{
	if (out->n < PATH_MAXPATHS)
		out->p[out->n++] = *p;
}

/* Every hypernym path from a root down to the synset at `off`, appended to `out`. */
static void trace(long off, int depth, paths *out)
{
	SynsetPtr s;
	paths up;
	path self;
	int i, j, nhyper = 0;

	if (depth >= PATH_MAXDEPTH)
		return;
	s = read_synset(VERB, off, NULL);
	if (!s)
		return;
	up.n = 0;
	for (i = 0; i < s->ptrcount; i++) {
		if (s->ptrtyp[i] != HYPERPTR || s->ppos[i] != VERB)
			continue;
		nhyper++;
		trace(s->ptroff[i], depth + 1, &up);
	}
	free_synset(s);
	if (nhyper == 0) {
		self.len = 1;
		self.off[0] = off;
		add_path(out, &self);
		return;
	}
	for (j = 0; j < up.n; j++) {
		if (up.p[j].len >= PATH_MAXDEPTH)
			continue;
		up.p[j].off[up.p[j].len++] = off;
		add_path(out, &up.p[j]);
	}
}

/* The hypernym paths of every verb sense of `word`; false when it is not a verb. */
static bool verb_paths(const char *word, paths *out)
{
	char buf[UT_WN_MAXWORD + 1];
	IndexPtr idx;
	int i;

	out->n = 0;
	if (!copy_word(buf, word))
		return false;
	idx = index_lookup(buf, VERB);
	if (!idx)
		return false;
	for (i = 0; i < idx->off_cnt; i++)
		trace((long)idx->offset[i], 0, out);
	free_index(idx);
	return out->n > 0;
}

double ut_wordnet_wup_verb(const char *a, const char *b)
{
	/* Two path sets are about 16 KiB each: too much for small thread stacks. */
	paths *pa = malloc(sizeof(*pa)), *pb = malloc(sizeof(*pb));
	double best = -1;
	int i, j, k;

	if (!pa || !pb || !verb_paths(a, pa) || !verb_paths(b, pb))
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
	free(pb);
	return best;
}
