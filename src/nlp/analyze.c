/* analyze.c: one test name: stop words, tags, the verb and its class, direct object, nouns. */
#include <stdio.h>
#include <string.h>

#include "nlp/internal.h"
#include "util/error.h"
#include "util/banned.h"

/* A word (or phrasal verb) that may be the name's verb. */
typedef struct {
	size_t at, span;	   /* first word, and 1 or 2 words */
	const char *base;	   /* base form of the first word ("logs" -> "log") */
	const ut_nlp_lexverb *lex; /* its lexicon verb, or NULL: WordNet classifies it */
	const char *wnkey;	   /* WordNet lemma for Wu-Palmer ("log_in") */
	bool inflected;		   /* an -s/-ed/-ing form */
} cand;

typedef struct {
	ut_nlp *nlp;
	ut_nlp_words words;
	const ut_nlp_word *w[UT_NLP_MAXWORDS];
	const char *stop[UT_NLP_MAXWORDS];
	size_t n;
	size_t first; /* first word that is not a stop word in the searched range */
} ctx;

static bool nounish(const ut_nlp_word *w)
{
	return w->noun || (!w->verb && !w->adj && !w->adv);
}

/* Marks stop words; a word found in every suite name is one at its first occurrence. */
static int load_words(ctx *c, const char *name)
{
	size_t i, j;
	int rc;

	ut_nlp_split(name, &c->words);
	c->n = c->words.n;
	for (i = 0; i < c->n; i++) {
		const char *t = c->words.w[i];

		rc = ut_nlp_word_get(c->nlp, t, &c->w[i]);
		if (rc)
			return rc;
		c->stop[i] = c->w[i]->stop;
		if (c->stop[i] || !ut_map_get(&c->nlp->suite, t, strlen(t)))
			continue;
		for (j = 0; j < i && strcmp(c->words.w[j], t) != 0; j++)
			;
		if (j == i)
			c->stop[i] = "in every suite name";
	}
	return 0;
}

/* The lexicon verb at word i: a phrasal verb with the next word, else the word alone. */
static bool lexicon_at(ctx *c, size_t i, cand *out)
{
	const ut_nlp_word *w = c->w[i];
	char key[2 * UT_NLP_MAXWORDLEN + 2];
	size_t b;

	if (i + 1 < c->n && c->w[i + 1]->wclass == UT_NLP_PARTICLE) {
		for (b = 0; b < w->nbases; b++) {
			snprintf(key, sizeof(key), "%s %s", w->bases[b], c->words.w[i + 1]);
			out->lex = ut_nlp_lexicon_find(c->nlp, key);
			if (out->lex) {
				*out = (cand){i, 2, w->bases[b], out->lex, NULL, b > 0};
				return true;
			}
		}
	}
	if (!w->lex)
		return false;
	*out = (cand){i, 1, w->bases[0], w->lex, NULL, w->inflected};
	for (b = 1; b < w->nbases && w->inflected; b++)
		if (ut_nlp_lexicon_find(c->nlp, w->bases[b]) == w->lex)
			out->base = w->bases[b];
	return true;
}

/* The WordNet verb at word i: a collocation with a particle ("log_in"), else the word. */
static int wordnet_at(ctx *c, size_t i, cand *out, bool *found)
{
	const ut_nlp_word *w = c->w[i], *coll;
	char key[2 * UT_NLP_MAXWORDLEN + 2];
	int rc;

	*found = false;
	if (!w->verb)
		return 0;
	*out = (cand){i, 1, w->verb, NULL, w->verb, strcmp(w->verb, w->text) != 0};
	*found = true;
	if (i + 1 < c->n && c->w[i + 1]->wclass == UT_NLP_PARTICLE) {
		snprintf(key, sizeof(key), "%s_%s", w->verb, c->words.w[i + 1]);
		rc = ut_nlp_word_get(c->nlp, key, &coll);
		if (rc)
			return rc;
		if (coll->verb) {
			out->span = 2;
			out->wnkey = coll->verb;
		}
	}
	return 0;
}

/* Whether a later candidate is a noun form rather than the verb of a subject when the
 * name opens with a lexicon verb: the last word ("viewThreadReplies": replies) or an
 * -ing form ("test_view_borrowing_history", "schedule_property_viewing"). */
static bool noun_form(const ctx *c, const cand *first, const cand *later, size_t hi)
{
	const char *t = c->words.w[later->at];
	size_t n = strlen(t), i;

	if (!first->lex)
		return false;
	if (n > 4 && strcmp(t + n - 3, "ing") == 0)
		return true;
	for (i = later->at + later->span; i < hi && c->stop[i]; i++)
		;
	return i >= hi;
}

/*
 * Which candidate is the verb: the first, unless the name opens with a word that is
 * mostly a noun and a later candidate is an inflected verb right after a noun
 * ("orderHistoryDisplaysOrders", "settings page loads"): then that subject-verb form.
 * When the first candidate is not the name's first word, an inflected candidate wins
 * ("Boards adds a board": "adds").
 */
static size_t pick(const ctx *c, const cand *cs, size_t n, size_t hi)
{
	const ut_nlp_word *f = c->w[c->first];
	size_t j;

	if (cs[0].at == c->first) {
		if (cs[0].inflected || !f->noun || f->noun_senses < f->verb_senses)
			return 0;
		for (j = 1; j < n; j++)
			if (cs[j].inflected && !c->stop[cs[j].at - 1] &&
			    nounish(c->w[cs[j].at - 1]) && !noun_form(c, &cs[0], &cs[j], hi))
				return j;
		return 0;
	}
	for (j = 0; j < n; j++)
		if (cs[j].inflected)
			return j;
	return 0;
}

/* Whether word i, not the first, stands where a verb cannot: after a determiner ("reject
 * a duplicate email") or as an adjective before a noun ("checkEmptyCartMessage"). */
static bool modifier(const ctx *c, size_t i)
{
	const ut_nlp_word *w = c->w[i];

	if (i == c->first)
		return false;
	if (c->w[i - 1]->wclass == UT_NLP_DETERMINER)
		return true;
	return w->adj && i + 1 < c->n && !c->stop[i + 1] && nounish(c->w[i + 1]);
}

/* Finds the verb among words [lo, hi); false when there is none. */
static int find_verb(ctx *c, size_t lo, size_t hi, cand *out, bool *found)
{
	cand strong[UT_NLP_MAXWORDS], weak[UT_NLP_MAXWORDS], wn[UT_NLP_MAXWORDS], x;
	size_t ns = 0, nw = 0, nn = 0, i;
	bool ok;
	int rc;

	*found = false;
	for (c->first = lo; c->first < hi && c->stop[c->first]; c->first++)
		;
	if (c->first == hi)
		return 0;
	for (i = c->first; i < hi; i++) {
		if (c->stop[i] || modifier(c, i))
			continue;
		if (lexicon_at(c, i, &x)) {
			if (x.lex->weak)
				weak[nw++] = x;
			else
				strong[ns++] = x;
			continue;
		}
		rc = wordnet_at(c, i, &x, &ok);
		if (rc)
			return rc;
		if (ok)
			wn[nn++] = x;
	}
	/* A first word that is mostly a verb in WordNet is the verb, lexicon or not. */
	if (nn && wn[0].at == c->first && !c->w[c->first]->adj &&
	    c->w[c->first]->verb_senses > c->w[c->first]->noun_senses)
		*out = wn[0];
	else if (ns)
		*out = strong[pick(c, strong, ns, hi)];
	else if (nw)
		*out = weak[0];
	else if (nn)
		*out = wn[pick(c, wn, nn, hi)];
	else
		return 0;
	*found = true;
	return 0;
}

/* given_X_when_Y_then_Z: the action is in Y, so Y is searched first. */
static int find_verb_bdd(ctx *c, cand *out, bool *found)
{
	size_t when = 0, then, i;
	int rc;

	if (c->n && strcmp(c->words.w[0], "given") == 0)
		for (i = 1; i < c->n && !when; i++)
			if (strcmp(c->words.w[i], "when") == 0)
				when = i;
	if (when) {
		for (then = when + 1; then < c->n && strcmp(c->words.w[then], "then"); then++)
			;
		rc = find_verb(c, when + 1, then, out, found);
		if (rc || *found)
			return rc;
	}
	return find_verb(c, 0, c->n, out, found);
}

static int classify(ctx *c, const cand *v, ut_name_info *info)
{
	const ut_nlp_wnverb *wv;
	char *lemma;
	int rc, i;

	for (i = 0; i < UT_NLP_NCRUD; i++)
		info->wup[i] = -1;
	if (v->lex) {
		info->verb = v->lex->verb;
		info->verb_class = v->lex->cls;
		info->verb_reason = v->lex->reason;
		return 0;
	}
	rc = ut_nlp_wnverb_get(c->nlp, v->wnkey, &wv);
	if (rc)
		return rc;
	lemma = ut_arena_strdup(&c->nlp->arena, v->wnkey);
	if (!lemma)
		return ut_error_set(UT_ENOMEM, "out of memory");
	for (i = 0; lemma[i]; i++)
		if (lemma[i] == '_')
			lemma[i] = ' ';
	info->verb = lemma;
	info->verb_class = wv->cls;
	info->verb_reason = wv->reason;
	for (i = 0; i < UT_NLP_NCRUD; i++)
		info->wup[i] = wv->wup[i];
	return 0;
}

static void tag_word(const ctx *c, size_t i, ut_nlp_token *t)
{
	const ut_nlp_word *w = c->w[i];
	/* "duplicate user", "invalid credentials": an adjective that is also a noun is an
	 * adjective in front of a noun. */
	bool modifier = w->adj && i + 1 < c->n && !c->stop[i + 1] && nounish(c->w[i + 1]);

	t->lemma = w->text;
	t->tag = UT_NLP_TAG_OTHER;
	if (c->stop[i])
		return;
	if (w->noun && !modifier) {
		t->tag = UT_NLP_TAG_NOUN;
		t->lemma = w->noun;
	} else if (w->adj) {
		t->tag = UT_NLP_TAG_ADJ;
		t->lemma = w->adj;
	} else if (w->verb) {
		t->tag = UT_NLP_TAG_VERB;
		t->lemma = w->verb;
	} else if (nounish(w)) {
		t->tag = UT_NLP_TAG_NOUN;
		t->lemma = w->plain;
	}
}

/* The last noun of the noun phrase right after the verb, determiners skipped. */
static const char *direct_object(const ctx *c, const ut_name_info *info)
{
	size_t j = info->verb_at + info->verb_words;
	const char *head = NULL;

	while (j < c->n && c->w[j]->wclass == UT_NLP_DETERMINER)
		j++;
	for (; j < c->n && !c->stop[j]; j++) {
		const char *t = c->words.w[j];
		size_t n = strlen(t);

		if (info->tokens[j].tag == UT_NLP_TAG_NOUN)
			head = info->tokens[j].lemma;
		else if (info->tokens[j].tag != UT_NLP_TAG_ADJ &&
			 !(n > 4 && strcmp(t + n - 2, "ed") == 0 && !head)) /* "failed jobs" */
			break;
	}
	return head;
}

/*
 * Words that make a test negative: it expects the action of its verb to be refused
 * ("guestCannotCheckout", "signup_duplicate_email", "should not save an empty title",
 * "withdraw_whenBalanceTooLow_showsError"), so it writes nothing (the label rule of
 * tests/fixtures/nlp: a validation message without saving anything is a read).
 */
static const char *const negative_words[] = {
    "cannot",  "cant",	 "not",	      "unable",	      "never",	      "fail",	  "fails",
    "failed",  "denied", "forbidden", "unauthorized", "unauthorised", "invalid",  "error",
    "errors",  "wrong",	 "incorrect", "rejected",     "disallowed",   "prevents", "prevent",
    "blocked", "doesn",	 "don",	      "didn",	      "shouldn"};

/* Negative words that, right before a noun after the verb, describe the object
 * ("rerun_failed_pipeline", "archive rejected applications"), not the outcome. */
static bool is_participle(const char *w)
{
	return strcmp(w, "failed") == 0 || strcmp(w, "rejected") == 0 ||
	       strcmp(w, "blocked") == 0 || strcmp(w, "denied") == 0;
}

/* The first negative word of the name other than its verb, or NULL. "duplicate" and
 * "existing" are negative only with a creating verb ("signup_duplicate_email",
 * "addExistingUser"): merging or deleting duplicates writes. */
static const char *negative_word(const ctx *c, const cand *v, const char *verb)
{
	size_t i, k;

	for (i = 0; i < c->n; i++) {
		if (i >= v->at && i < v->at + v->span)
			continue;
		if (i > v->at && is_participle(c->words.w[i]) && i + 1 < c->n && !c->stop[i + 1] &&
		    nounish(c->w[i + 1]))
			continue;
		if ((strcmp(c->words.w[i], "duplicate") == 0 ||
		     strcmp(c->words.w[i], "existing") == 0) &&
		    ut_nlp_lexicon_creates(verb))
			return c->words.w[i];
		for (k = 0; k < sizeof(negative_words) / sizeof(*negative_words); k++)
			if (strcmp(c->words.w[i], negative_words[k]) == 0)
				return negative_words[k];
	}
	return NULL;
}

/* The word after the verb that makes the verb write ("open" an account), or NULL. */
static const char *writing_object(const ctx *c, const cand *v, const char *verb)
{
	size_t i;

	for (i = v->at + v->span; i < c->n; i++) {
		const ut_nlp_word *w = c->w[i];

		if (w->noun && ut_nlp_lexicon_object_writes(verb, w->noun))
			return w->noun;
		if (ut_nlp_lexicon_object_writes(verb, w->text))
			return w->text;
	}
	return NULL;
}

static int build(ctx *c, const char *name, const cand *v, bool has_verb, ut_name_info *info)
{
	ut_arena *a = &c->nlp->arena;
	const char *neg, *obj;
	size_t i, j;
	int rc;

	info->name = ut_arena_strdup(a, name);
	info->tokens = ut_arena_alloc(a, (c->n ? c->n : 1) * sizeof(*info->tokens));
	info->nouns = ut_arena_alloc(a, (c->n ? c->n : 1) * sizeof(*info->nouns));
	if (!info->name || !info->tokens || !info->nouns)
		return ut_error_set(UT_ENOMEM, "out of memory");
	info->ntokens = c->n;
	for (i = 0; i < c->n; i++) {
		ut_nlp_token *t = &info->tokens[i];

		t->text = c->w[i]->text;
		t->stop = c->stop[i];
		t->in_wordnet = c->w[i]->noun || c->w[i]->verb || c->w[i]->adj || c->w[i]->adv;
		tag_word(c, i, t);
	}
	if (!has_verb) {
		for (i = 0; i < UT_NLP_NCRUD; i++)
			info->wup[i] = -1;
		info->verb_reason = "no verb in the name";
	} else {
		rc = classify(c, v, info);
		if (rc)
			return rc;
		obj =
		    c->nlp->rules && info->verb_class != UT_VERB_WRITE && !(v->lex && v->lex->user)
			? writing_object(c, v, info->verb)
			: NULL;
		if (obj) {
			info->verb_class = UT_VERB_WRITE;
			info->verb_reason = ut_arena_printf(a, "object: '%s' with '%s' writes (%s)",
							    info->verb, obj, info->verb_reason);
			if (!info->verb_reason)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
		neg = c->nlp->rules && info->verb_class == UT_VERB_WRITE
			  ? negative_word(c, v, info->verb)
			  : NULL;
		if (neg) {
			info->verb_class = UT_VERB_READ;
			info->verb_reason = ut_arena_printf(
			    a,
			    "negative test: '%s' says the %s is refused, nothing is written "
			    "(%s)",
			    neg, info->verb, info->verb_reason);
			if (!info->verb_reason)
				return ut_error_set(UT_ENOMEM, "out of memory");
		}
		info->verb_at = v->at;
		info->verb_words = v->span;
		for (i = v->at; i < v->at + v->span; i++) {
			info->tokens[i].tag = UT_NLP_TAG_VERB;
			info->tokens[i].stop = NULL; /* the particle of "log in" */
		}
		info->tokens[v->at].lemma = v->base;
		info->dobj = direct_object(c, info);
	}
	for (i = 0; i < c->n; i++) {
		const char *l = info->tokens[i].lemma;

		if (info->tokens[i].tag != UT_NLP_TAG_NOUN)
			continue;
		for (j = 0; j < info->nnouns && strcmp(info->nouns[j], l) != 0; j++)
			;
		if (j == info->nnouns)
			info->nouns[info->nnouns++] = l;
	}
	return 0;
}

int ut_nlp_analyze_name(ut_nlp *nlp, const char *name, ut_name_info **out)
{
	ctx c;
	ut_name_info *info = ut_arena_alloc(&nlp->arena, sizeof(*info));
	cand v;
	bool found = false;
	int rc;

	*out = NULL;
	if (!info)
		return ut_error_set(UT_ENOMEM, "out of memory");
	c.nlp = nlp;
	rc = load_words(&c, name);
	if (!rc)
		rc = find_verb_bdd(&c, &v, &found);
	if (!rc)
		rc = build(&c, name, &v, found, info);
	if (!rc)
		*out = info;
	return rc;
}
