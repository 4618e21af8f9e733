/* xml.h: a streaming XML reader, expat's adapter (the only file that includes expat's
 * header). A document is read in bounded memory whatever its size. Entity declarations
 * stop the parse (nothing can expand); external entities and DTDs are never loaded.
 * With limits set, it is also read in linear time: expat 2.5 rescans an unfinished token
 * on every chunk (quadratic in the token's length), so long attribute values are cut
 * before expat sees them and longer markup stops the parse. */
#ifndef UT_XML_H
#define UT_XML_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

typedef struct ut_xml ut_xml;

/* Called as the document is read; ud is the reader's user data. atts holds name, value
 * pairs and ends with NULL. `entity` is called on an entity declaration, after which the
 * parse stops (ut_xml_feed fails). text and entity may be NULL. */
typedef struct {
	void (*start)(void *ud, const char *el, const char **atts);
	void (*end)(void *ud, const char *el);
	void (*text)(void *ud, const char *s, size_t n);
	void (*entity)(void *ud);
} ut_xml_handlers;

/* Bounds on what expat sees, applied as the bytes are fed. */
typedef struct {
	size_t max_value; /* an attribute value is cut to its first max_value bytes (at a
			   * character and reference boundary); 0: kept whole */
	size_t max_token; /* a tag, comment, processing instruction or DOCTYPE longer than
			   * this (after the cut) stops the parse; 0: no limit */
	const char *const *whole; /* attributes never cut (NULL-terminated), or NULL */
} ut_xml_limits;

/* A reader; NULL when out of memory. h must outlive it. */
ut_xml *ut_xml_new(const ut_xml_handlers *h, void *ud);
/* Accepts NULL. */
void ut_xml_free(ut_xml *x);

/* Parses the next n bytes of the document (final: they are the last). 0, or -1 when the
 * document is not well-formed or a handler stopped the parse (ut_xml_error says which). */
int ut_xml_feed(ut_xml *x, const char *data, size_t n, bool final);
/* A buffer of n bytes to read the next chunk into, then parsed by ut_xml_feed_buffer with
 * the number of bytes read; NULL when out of memory. */
void *ut_xml_buffer(ut_xml *x, size_t n);
int ut_xml_feed_buffer(ut_xml *x, size_t n, bool final);

/* Sets the limits (before the first feed). */
void ut_xml_set_limits(ut_xml *x, const ut_xml_limits *l);

/* From a handler: stops the parse; the current ut_xml_feed fails. */
void ut_xml_stop(ut_xml *x);
/* Whether max_token stopped the parse. */
bool ut_xml_too_long(const ut_xml *x);
/* The line being read (1-based). */
unsigned long ut_xml_line(const ut_xml *x);
/* The parser's message for a document that is not well-formed, or "token longer than
 * the limit" when max_token stopped it. */
const char *ut_xml_error(const ut_xml *x);
/* "expat_2.5.0" */
const char *ut_xml_version(void);

/* Appends s to out as XML character data, fit for an attribute value in double quotes
 * or for text: & < > " ' as entities; tab, newline and carriage return as character
 * references (an attribute keeps them); other control bytes, invalid UTF-8, U+FFFE and
 * U+FFFF (which XML 1.0 cannot hold) as U+FFFD. NULL appends nothing. The one XML
 * escaping of untangle. */
void ut_xml_escape(ut_buf *out, const char *s);

/* The value of attribute key in atts (as given to `start`), or NULL. */
const char *ut_xml_attr(const char **atts, const char *key);

#endif
