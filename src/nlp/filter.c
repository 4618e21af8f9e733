/* filter.c: the verb/dobj/noun filters of thesis 5.2.2.2 on a candidate edge, and the
 * explanation of one name's analysis. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nlp/nlp.h"
#include "util/error.h"
#include "util/banned.h"

const char *ut_verb_class_name(ut_verb_class c)
{
	switch (c) {
	case UT_VERB_READ:
		return "read";
	case UT_VERB_WRITE:
		return "write";
	default:
		return "unknown";
	}
}

const char *ut_nlp_config_name(ut_nlp_config cfg)
{
	switch (cfg) {
	case UT_NLP_VERB:
		return "verb";
	case UT_NLP_DOBJ:
		return "dobj";
	default:
		return "noun";
	}
}

int ut_nlp_config_parse(const char *s, ut_nlp_config *out)
{
	ut_nlp_config c;

	for (c = UT_NLP_VERB; c <= UT_NLP_NOUN; c++) {
		if (strcmp(s, ut_nlp_config_name(c)) == 0) {
			*out = c;
			return 0;
		}
	}
	return ut_error_set(UT_EINPUT, "unknown NLP filter '%s' (expected verb, dobj or noun)", s);
}

const char *ut_nlp_tag_name(ut_nlp_tag tag)
{
	switch (tag) {
	case UT_NLP_TAG_VERB:
		return "verb";
	case UT_NLP_TAG_NOUN:
		return "noun";
	case UT_NLP_TAG_ADJ:
		return "adjective";
	default:
		return "other";
	}
}

static bool say(char *reason, size_t sz, bool verdict, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool say(char *reason, size_t sz, bool verdict, const char *fmt, ...)
{
	va_list ap;

	if (reason && sz) {
		va_start(ap, fmt);
		vsnprintf(reason, sz, fmt, ap);
		va_end(ap);
	}
	return verdict;
}

static bool share_noun(const ut_name_info *a, const ut_name_info *b, const char **common)
{
	size_t i, j;

	for (i = 0; i < a->nnouns; i++) {
		for (j = 0; j < b->nnouns; j++) {
			if (strcmp(a->nouns[i], b->nouns[j]) == 0) {
				*common = a->nouns[i];
				return true;
			}
		}
	}
	return false;
}

bool ut_nlp_drops(ut_nlp_config cfg, const ut_name_info *dependent, const ut_name_info *dependee,
		  char *reason, size_t reasonsz)
{
	const char *cn = ut_nlp_config_name(cfg), *common = NULL;
	const char *kind =
	    dependent->verb_class == UT_VERB_READ ? "read-after-write" : "write-after-write";
	const ut_name_info *unknown = dependee->verb_class == UT_VERB_UNKNOWN	 ? dependee
				      : dependent->verb_class == UT_VERB_UNKNOWN ? dependent
										 : NULL;

	if (unknown)
		return say(reason, reasonsz, false, "%s: kept, no verdict: '%s' %s%s%s (%s)", cn,
			   unknown->name, unknown->verb ? "verb '" : "has no verb",
			   unknown->verb ? unknown->verb : "",
			   unknown->verb ? "' is neither read nor write" : "",
			   unknown->verb_reason);
	if (dependee->verb_class == UT_VERB_READ)
		return say(reason, reasonsz, true,
			   "%s: dropped, %s: dependee '%s' verb '%s' is a read", cn,
			   dependent->verb_class == UT_VERB_READ ? "read-after-read"
								 : "write-after-read",
			   dependee->name, dependee->verb);
	if (cfg == UT_NLP_DOBJ && dependent->dobj && dependee->dobj) {
		if (strcmp(dependent->dobj, dependee->dobj) != 0)
			return say(reason, reasonsz, true,
				   "dobj: dropped, %s on different direct objects: '%s' of '%s', "
				   "'%s' of '%s'",
				   kind, dependent->dobj, dependent->name, dependee->dobj,
				   dependee->name);
		return say(reason, reasonsz, false, "dobj: kept, %s on the same direct object '%s'",
			   kind, dependee->dobj);
	}
	if (cfg == UT_NLP_DOBJ)
		return say(reason, reasonsz, false, "dobj: kept, %s and '%s' has no direct object",
			   kind, dependent->dobj ? dependee->name : dependent->name);
	if (cfg == UT_NLP_NOUN && dependent->nnouns && dependee->nnouns) {
		if (share_noun(dependent, dependee, &common))
			return say(reason, reasonsz, false, "noun: kept, %s sharing the noun '%s'",
				   kind, common);
		return say(reason, reasonsz, true,
			   "noun: dropped, %s and '%s' shares no noun with '%s'", kind,
			   dependent->name, dependee->name);
	}
	if (cfg == UT_NLP_NOUN)
		return say(reason, reasonsz, false, "noun: kept, %s and '%s' has no noun", kind,
			   dependent->nnouns ? dependee->name : dependent->name);
	return say(reason, reasonsz, false, "verb: kept, %s: dependee '%s' verb '%s' is a write",
		   kind, dependee->name, dependee->verb);
}

int ut_nlp_explain(const ut_name_info *info, ut_buf *out)
{
	size_t i;

	ut_buf_printf(out, "name: %s\n", info->name);
	for (i = 0; i < info->ntokens; i++) {
		const ut_nlp_token *t = &info->tokens[i];

		ut_buf_printf(out, "  word %zu: %s", i + 1, t->text);
		if (t->stop)
			ut_buf_printf(out, " (stop: %s)", t->stop);
		else
			ut_buf_printf(
			    out, " (%s%s%s%s)", ut_nlp_tag_name(t->tag),
			    strcmp(t->lemma, t->text) ? ", lemma " : "",
			    strcmp(t->lemma, t->text) ? t->lemma : "",
			    t->tag == UT_NLP_TAG_NOUN && !t->in_wordnet ? ", not in WordNet" : "");
		ut_buf_puts(out, "\n");
	}
	if (info->verb)
		ut_buf_printf(out, "verb: %s (%s; %s)\n", info->verb,
			      ut_verb_class_name(info->verb_class), info->verb_reason);
	else
		ut_buf_printf(out, "verb: none (%s)\n", info->verb_reason);
	ut_buf_printf(out, "direct object: %s\n", info->dobj ? info->dobj : "none");
	ut_buf_puts(out, "nouns:");
	for (i = 0; i < info->nnouns; i++)
		ut_buf_printf(out, "%s %s", i ? "," : "", info->nouns[i]);
	ut_buf_puts(out, info->nnouns ? "\n" : " none\n");
	return out->failed ? ut_error_set(UT_ENOMEM, "out of memory") : 0;
}
