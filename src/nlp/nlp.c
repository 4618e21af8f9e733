/* nlp.c: the analyzer object: lexicon, per-word and per-verb WordNet caches, suite words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlp/internal.h"
#include "util/error.h"
#include "util/banned.h"

static const char *const crud[UT_NLP_NCRUD] = {"create", "read", "update", "delete"};

static const char *arena_key(ut_nlp *nlp, const char *s)
{
	return ut_arena_strdup(&nlp->arena, s);
}

/* "Sign-In", "sign_in", " sign  in " -> "sign in"; NULL when empty or over two words. */
static char *normalize_verb(ut_nlp *nlp, const char *s)
{
	ut_nlp_words words;

	ut_nlp_split(s, &words);
	if (words.n == 1)
		return ut_arena_strdup(&nlp->arena, words.w[0]);
	if (words.n == 2)
		return ut_arena_printf(&nlp->arena, "%s %s", words.w[0], words.w[1]);
	return NULL;
}

static int add_verb(ut_nlp *nlp, const char *verb, ut_verb_class cls, bool weak, const char *origin,
		    bool user)
{
	ut_nlp_lexverb *v = ut_arena_alloc(&nlp->arena, sizeof(*v));

	if (!v)
		return UT_ENOMEM;
	v->verb = verb;
	v->cls = cls;
	v->weak = weak;
	v->user = user;
	v->reason = ut_arena_printf(&nlp->arena, "%s: '%s' is a %s verb", origin, verb,
				    ut_verb_class_name(cls));
	if (!v->reason)
		return UT_ENOMEM;
	return ut_map_put(&nlp->lexicon, verb, strlen(verb), v);
}

static int add_user_verbs(ut_nlp *nlp, const char *const *verbs, size_t n, ut_verb_class cls,
			  const char *list)
{
	size_t i;
	char *v;
	const ut_nlp_lexverb *old;

	for (i = 0; i < n; i++) {
		if (!verbs[i])
			return ut_error_set(UT_EINPUT, "nlp.%s: entry %zu is not a string", list,
					    i);
		v = normalize_verb(nlp, verbs[i]);
		if (!v)
			return ut_error_set(UT_EINPUT,
					    "nlp.%s: '%s' is not a verb of one or two words", list,
					    verbs[i]);
		old = ut_map_get(&nlp->lexicon, v, strlen(v));
		if (old && old->user && old->cls != cls)
			return ut_error_set(UT_EINPUT,
					    "nlp.%s: '%s' is in both read_verbs and write_verbs",
					    list, verbs[i]);
		if (add_verb(nlp, v, cls, false,
			     cls == UT_VERB_READ ? "nlp.read_verbs" : "nlp.write_verbs", true))
			return UT_ENOMEM;
	}
	return 0;
}

static int make(ut_nlp **out, bool builtin, const char *const *read_verbs, size_t nread,
		const char *const *write_verbs, size_t nwrite)
{
	ut_nlp *nlp = NULL;
	const ut_nlp_lexgroup *lex;
	size_t nlex, i, j;
	int rc;

	*out = NULL;
	rc = ut_wordnet_open();
	if (rc)
		goto done;
	nlp = calloc(1, sizeof(*nlp));
	if (!nlp) {
		rc = ut_error_set(UT_ENOMEM, "out of memory");
		goto done;
	}
	ut_arena_init(&nlp->arena);
	nlp->rules = builtin;
	lex = ut_nlp_lexicon(&nlex);
	for (i = 0; builtin && i < nlex; i++) {
		for (j = 0; j < lex[i].n; j++) {
			rc = add_verb(nlp, lex[i].verbs[j], lex[i].cls, lex[i].weak, "lexicon",
				      false);
			if (rc) {
				ut_error_set(rc, "out of memory");
				goto done;
			}
		}
	}
	rc = add_user_verbs(nlp, read_verbs, nread, UT_VERB_READ, "read_verbs");
	if (!rc)
		rc = add_user_verbs(nlp, write_verbs, nwrite, UT_VERB_WRITE, "write_verbs");
	if (rc == UT_ENOMEM)
		ut_error_set(rc, "out of memory");
	if (rc)
		goto done;
	*out = nlp;
	nlp = NULL;
done:
	ut_nlp_free(nlp);
	return rc;
}

int ut_nlp_new(ut_nlp **out, const char *const *read_verbs, size_t nread,
	       const char *const *write_verbs, size_t nwrite)
{
	return make(out, true, read_verbs, nread, write_verbs, nwrite);
}

int ut_nlp_new_wordnet_only(ut_nlp **out)
{
	return make(out, false, NULL, 0, NULL, 0);
}

void ut_nlp_free(ut_nlp *nlp)
{
	if (!nlp)
		return;
	ut_map_dispose(&nlp->lexicon);
	ut_map_dispose(&nlp->words);
	ut_map_dispose(&nlp->wnverbs);
	ut_map_dispose(&nlp->names);
	ut_map_dispose(&nlp->suite);
	ut_arena_dispose(&nlp->arena);
	free(nlp);
}

const ut_nlp_lexverb *ut_nlp_lexicon_find(const ut_nlp *nlp, const char *key)
{
	return ut_map_get(&nlp->lexicon, key, strlen(key));
}

static bool all_digits(const char *s)
{
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool doubled_end(const char *s, size_t n)
{
	return n >= 2 && s[n - 1] == s[n - 2] && !strchr("aeiouls", s[n - 1]);
}

/* Base forms of a word WordNet does not know as a verb ("unfollows", "favorited",
 * "unpinned"), tried against the lexicon. "-ings" is a plural noun ("settings"), never
 * a verb form. */
static void guess_bases(ut_nlp *nlp, ut_nlp_word *w)
{
	const char *s = w->text;
	size_t n = strlen(s);
	char b[UT_NLP_MAXWORDLEN + 1];
	const char *cand[4];
	size_t nc = 0, i;

	if (n < 4 || n > UT_NLP_MAXWORDLEN)
		return;
	memcpy(b, s, n + 1);
	if (n > 4 && strcmp(s + n - 3, "ies") == 0) {
		cand[nc++] = ut_arena_printf(&nlp->arena, "%.*sy", (int)n - 3, s);
	} else if (n > 4 && strcmp(s + n - 4, "ings") == 0) {
		return;
	} else if (s[n - 1] == 's' && !strchr("su", s[n - 2])) {
		cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 1);
		if (s[n - 2] == 'e')
			cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 2);
	} else if (strcmp(s + n - 2, "ed") == 0) {
		cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 1);
		cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 2);
		if (doubled_end(s, n - 2))
			cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 3);
	} else if (n > 5 && strcmp(s + n - 3, "ing") == 0) {
		cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 3);
		cand[nc++] = ut_arena_printf(&nlp->arena, "%.*se", (int)n - 3, s);
		if (doubled_end(s, n - 3))
			cand[nc++] = ut_arena_strndup(&nlp->arena, s, n - 4);
	}
	for (i = 0; i < nc && w->nbases < 4; i++)
		if (cand[i])
			w->bases[w->nbases++] = cand[i];
}

/* The singular of a plural that WordNet does not know ("todos", "repos", "wishlists"),
 * so that domain nouns match across names; NULL when it does not look plural. */
static char *singular(ut_nlp *nlp, const char *s)
{
	size_t n = strlen(s);

	if (n < 4 || s[n - 1] != 's' || strchr("siu", s[n - 2]))
		return NULL;
	if (strcmp(s + n - 3, "ies") == 0)
		return ut_arena_printf(&nlp->arena, "%.*sy", (int)n - 3, s);
	if (n > 4 && (strcmp(s + n - 4, "ches") == 0 || strcmp(s + n - 4, "shes") == 0 ||
		      strcmp(s + n - 3, "xes") == 0 || strcmp(s + n - 4, "sses") == 0))
		return ut_arena_strndup(&nlp->arena, s, n - 2);
	return ut_arena_strndup(&nlp->arena, s, n - 1);
}

static int lookup_word(ut_nlp *nlp, const char *text, ut_nlp_word *w)
{
	char lemma[UT_WN_MAXWORD + 1];
	size_t i;

	w->text = text;
	w->wclass = ut_nlp_wordclass_of(text);
	if (all_digits(text))
		w->stop = "number";
	else if (w->wclass != UT_NLP_WORD || strlen(text) < 2)
		w->stop = "stop word";
	w->bases[w->nbases++] = text;
	w->plain = text;
	if (w->stop)
		return 0;
	if (ut_wordnet_lemma(text, UT_WN_NOUN, lemma, sizeof(lemma))) {
		w->noun = arena_key(nlp, lemma);
		if (!w->noun)
			return UT_ENOMEM;
		w->noun_senses = ut_wordnet_senses(lemma, UT_WN_NOUN);
	}
	if (ut_wordnet_lemma(text, UT_WN_VERB, lemma, sizeof(lemma))) {
		w->verb = arena_key(nlp, lemma);
		if (!w->verb)
			return UT_ENOMEM;
		w->verb_senses = ut_wordnet_senses(lemma, UT_WN_VERB);
	}
	if (ut_wordnet_lemma(text, UT_WN_ADJ, lemma, sizeof(lemma))) {
		w->adj = arena_key(nlp, lemma);
		if (!w->adj)
			return UT_ENOMEM;
	}
	w->adv = ut_wordnet_lemma(text, UT_WN_ADV, NULL, 0);
	w->plain = text;
	if (!w->noun && !w->verb && !w->adj && !w->adv) {
		w->plain = singular(nlp, text);
		if (!w->plain)
			w->plain = text;
	}
	if (w->verb && strcmp(w->verb, text) != 0)
		w->bases[w->nbases++] = w->verb;
	else if (!w->verb)
		guess_bases(nlp, w);
	for (i = 0; i < w->nbases && !w->lex; i++) {
		w->lex = ut_nlp_lexicon_find(nlp, w->bases[i]);
		w->inflected = w->lex && i > 0;
	}
	/* "resend", "resubmits": re- and a lexicon verb WordNet does not know with it */
	for (i = 0; i < w->nbases && !w->lex && !w->verb; i++) {
		if (strncmp(w->bases[i], "re", 2) != 0 || strlen(w->bases[i]) < 5)
			continue;
		w->lex = ut_nlp_lexicon_find(nlp, w->bases[i] + 2);
		w->inflected = w->lex && i > 0;
	}
	if (!w->lex)
		w->inflected = w->verb && strcmp(w->verb, text) != 0;
	return 0;
}

int ut_nlp_word_get(ut_nlp *nlp, const char *text, const ut_nlp_word **out)
{
	size_t n = strlen(text);
	ut_nlp_word *w = ut_map_get(&nlp->words, text, n);
	const char *key;

	if (w) {
		*out = w;
		return 0;
	}
	*out = NULL;
	key = ut_arena_strndup(&nlp->arena, text, n);
	w = ut_arena_alloc(&nlp->arena, sizeof(*w));
	if (!key || !w || lookup_word(nlp, key, w) || ut_map_put(&nlp->words, key, n, w))
		return ut_error_set(UT_ENOMEM, "out of memory");
	*out = w;
	return 0;
}

int ut_nlp_wnverb_get(ut_nlp *nlp, const char *lemma, const ut_nlp_wnverb **out)
{
	size_t n = strlen(lemma), i;
	ut_nlp_wnverb *v = ut_map_get(&nlp->wnverbs, lemma, n);
	double read, write = -1;
	const char *best = crud[0];
	const char *key;

	if (v) {
		*out = v;
		return 0;
	}
	*out = NULL;
	key = ut_arena_strndup(&nlp->arena, lemma, n);
	v = ut_arena_alloc(&nlp->arena, sizeof(*v));
	if (!key || !v)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; i < UT_NLP_NCRUD; i++)
		v->wup[i] = ut_wordnet_wup_verb(lemma, crud[i]);
	read = v->wup[UT_NLP_READ];
	for (i = 0; i < UT_NLP_NCRUD; i++) {
		if (i != UT_NLP_READ && v->wup[i] > write) {
			write = v->wup[i];
			best = crud[i];
		}
	}
	/* Scores are ratios of small integers: equal ones compare equal up to rounding. */
	if (read < 0 || (read - write < 1e-9 && write - read < 1e-9))
		v->cls = UT_VERB_UNKNOWN;
	else
		v->cls = read > write ? UT_VERB_READ : UT_VERB_WRITE;
	v->reason = ut_arena_printf(
	    &nlp->arena, "Wu-Palmer: create %.3f, read %.3f, update %.3f, delete %.3f: %s%s%s",
	    v->wup[UT_NLP_CREATE], v->wup[UT_NLP_READ], v->wup[UT_NLP_UPDATE],
	    v->wup[UT_NLP_DELETE], v->cls == UT_VERB_UNKNOWN ? "read ties with " : "",
	    v->cls == UT_VERB_READ ? "read" : best,
	    v->cls == UT_VERB_UNKNOWN ? ", no verdict"
	    : v->cls == UT_VERB_READ  ? " is closest (a read)"
				      : " is closest (a write)");
	if (!v->reason || ut_map_put(&nlp->wnverbs, key, n, v))
		return ut_error_set(UT_ENOMEM, "out of memory");
	*out = v;
	return 0;
}

/* Counts, for every word, the names it occurs in (once per name). An existing entry
 * keeps its key, so only a new word needs a copy that outlives `words`. */
static int count_suite_words(ut_nlp *nlp, ut_map *count, const char *const *names, size_t n)
{
	ut_nlp_words words;
	size_t i, j, k, len;
	uintptr_t c;
	const char *key;

	for (i = 0; i < n; i++) {
		ut_nlp_split(names[i] ? names[i] : "", &words);
		for (j = 0; j < words.n; j++) {
			for (k = 0; k < j && strcmp(words.w[k], words.w[j]) != 0; k++)
				;
			if (k < j)
				continue;
			len = strlen(words.w[j]);
			c = (uintptr_t)ut_map_get(count, words.w[j], len);
			key = c ? words.w[j] : arena_key(nlp, words.w[j]);
			if (!key || ut_map_put(count, key, len, (void *)(c + 1)))
				return UT_ENOMEM;
		}
	}
	return 0;
}

int ut_nlp_set_suite_names(ut_nlp *nlp, const char *const *names, size_t n)
{
	ut_map count = UT_MAP_INIT;
	size_t i;
	int rc = 0;

	ut_map_dispose(&nlp->suite);
	ut_map_dispose(&nlp->names);
	if (n < 3)
		goto done;
	rc = count_suite_words(nlp, &count, names, n);
	for (i = 0; !rc && i < count.cap; i++) {
		const ut_map_slot *s = &count.slots[i];

		if (s->hash && (uintptr_t)s->value == n)
			rc = ut_map_put(&nlp->suite, s->key, s->klen, (void *)s->key);
	}
	if (rc)
		ut_error_set(rc, "out of memory");
done:
	ut_map_dispose(&count);
	return rc;
}

int ut_nlp_analyze(ut_nlp *nlp, const char *name, const ut_name_info **out)
{
	ut_name_info *info = NULL;
	int rc = 0;

	if (!name)
		name = "";
	info = ut_map_get(&nlp->names, name, strlen(name));
	if (!info) {
		rc = ut_nlp_analyze_name(nlp, name, &info);
		if (!rc && ut_map_put(&nlp->names, info->name, strlen(info->name), info))
			rc = ut_error_set(UT_ENOMEM, "out of memory");
	}
	*out = rc ? NULL : info;
	return rc;
}
