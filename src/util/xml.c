/* xml.c: the expat adapter; the only file that includes expat's header. */
#include "util/xml.h"

#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/banned.h"

/* Where the filter is in the document: text, or inside one kind of markup. */
typedef enum {
	S_TEXT, S_LT, S_BANG, S_CDATA_OPEN, S_COMMENT, S_CDATA, S_PI, S_TAG, S_VALUE, S_DECL
} scan_state;

#define MAX_REF 32 /* past max_value, an entity reference is kept up to this long */

struct ut_xml {
	XML_Parser parser;
	const ut_xml_handlers *h;
	void *ud;
	ut_xml_limits lim;
	scan_state st;
	size_t token;  /* bytes of the current markup kept */
	size_t value;  /* bytes of the current attribute value kept */
	size_t ref;    /* bytes since '&' inside a value; 0 when outside a reference */
	size_t run;    /* matched bytes of "[CDATA[", or closing '-', ']' or '?' seen */
	int depth;     /* '[' nesting inside a DOCTYPE */
	char name[32]; /* the attribute name being read in a tag (cut to 31 bytes) */
	size_t name_len;
	bool whole;    /* the current value is never cut (lim.whole names it) */
	char quote;    /* the quote of the value or DOCTYPE literal being read, or 0 */
	bool dropping; /* the rest of the current value is dropped */
	bool too_long;
	char *pending; /* the buffer given by ut_xml_buffer */
};

static void XMLCALL on_start(void *data, const XML_Char *el, const XML_Char **atts)
{
	ut_xml *x = data;

	if (x->h->start)
		x->h->start(x->ud, el, atts);
}

static void XMLCALL on_end(void *data, const XML_Char *el)
{
	ut_xml *x = data;

	if (x->h->end)
		x->h->end(x->ud, el);
}

static void XMLCALL on_text(void *data, const XML_Char *s, int len)
{
	ut_xml *x = data;

	if (x->h->text && len > 0)
		x->h->text(x->ud, s, (size_t)len);
}

static void XMLCALL on_entity(void *data, const XML_Char *name, int is_param, const XML_Char *value,
			      int value_length, const XML_Char *base, const XML_Char *system_id,
			      const XML_Char *public_id, const XML_Char *notation)
{
	ut_xml *x = data;

	(void)name, (void)is_param, (void)value, (void)value_length, (void)base;
	(void)system_id, (void)public_id, (void)notation;
	if (x->h->entity)
		x->h->entity(x->ud);
	XML_StopParser(x->parser, XML_FALSE);
}

ut_xml *ut_xml_new(const ut_xml_handlers *h, void *ud)
{
	ut_xml *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->parser = XML_ParserCreate("UTF-8");
	if (!x->parser) {
		free(x);
		return NULL;
	}
	x->h = h;
	x->ud = ud;
	XML_SetUserData(x->parser, x);
	XML_SetElementHandler(x->parser, on_start, on_end);
	XML_SetCharacterDataHandler(x->parser, on_text);
	XML_SetEntityDeclHandler(x->parser, on_entity);
	return x;
}

void ut_xml_free(ut_xml *x)
{
	if (!x)
		return;
	XML_ParserFree(x->parser);
	free(x);
}

void ut_xml_set_limits(ut_xml *x, const ut_xml_limits *l)
{
	x->lim = *l;
}

/* Whether the attribute just named in a tag is one of lim.whole. */
static bool is_whole(ut_xml *x)
{
	const char *const *w;

	for (w = x->lim.whole; w && *w; w++)
		if (strlen(*w) == x->name_len && memcmp(*w, x->name, x->name_len) == 0)
			return true;
	return false;
}

/* One byte inside an attribute value: false when it is dropped. */
static bool value_byte(ut_xml *x, unsigned char c)
{
	if (c == (unsigned char)x->quote) {
		x->st = S_TAG;
		x->dropping = false;
		x->name_len = 0;
		return true;
	}
	if (x->dropping)
		return false;
	if (x->lim.max_value && !x->whole && x->value >= x->lim.max_value && (c & 0xC0) != 0x80 &&
	    (x->ref == 0 || x->ref > MAX_REF)) {
		x->dropping = true;
		return false;
	}
	x->value++;
	x->ref = c == '&' ? 1 : c == ';' ? 0 : x->ref ? x->ref + 1 : 0;
	return true;
}

/* Moves the scanner over one byte of markup (not S_TEXT); false when it is dropped. */
static bool markup_byte(ut_xml *x, unsigned char c)
{
	switch (x->st) {
	case S_LT:
		x->st = c == '!' ? S_BANG : c == '?' ? S_PI : S_TAG;
		x->run = x->name_len = 0;
		break;
	case S_BANG:
		x->st = c == '-' ? S_COMMENT : c == '[' ? S_CDATA_OPEN : S_DECL;
		x->run = c == '[' ? 1 : 0;
		x->quote = 0;
		x->depth = 0;
		break;
	case S_CDATA_OPEN:
		if (c != (unsigned char)"[CDATA["[x->run])
			x->st = S_DECL;
		else if (++x->run == 7)
			x->st = S_CDATA, x->run = 0;
		break;
	case S_COMMENT:
	case S_CDATA:
	case S_PI:
		if (c == '>' && (x->st == S_PI ? x->run >= 1 : x->run >= 2))
			x->st = S_TEXT;
		x->run = c == (x->st == S_COMMENT ? '-' : x->st == S_CDATA ? ']' : '?') ? x->run + 1 : 0;
		break;
	case S_TAG:
		if (c == '"' || c == '\'') {
			x->st = S_VALUE;
			x->quote = (char)c;
			x->value = x->ref = 0;
			x->whole = is_whole(x);
		} else if (c == '>')
			x->st = S_TEXT;
		else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '=')
			x->name_len = c == '=' ? x->name_len : 0;
		else if (x->name_len < sizeof(x->name) - 1)
			x->name[x->name_len++] = (char)c;
		break;
	case S_VALUE:
		return value_byte(x, c);
	case S_DECL:
		if (x->quote)
			x->quote = c == (unsigned char)x->quote ? 0 : x->quote;
		else if (c == '"' || c == '\'')
			x->quote = (char)c;
		else if (c == '[' || c == ']')
			x->depth += c == '[' ? 1 : -1;
		else if (c == '>' && x->depth <= 0)
			x->st = S_TEXT;
		break;
	case S_TEXT:
		break;
	}
	return true;
}

/* Cuts long values out of buf in place and measures markup; the bytes kept, or -1 when a
 * token is longer than max_token. CDATA content is text to expat (reported in pieces),
 * so it is not counted. */
static long filter(ut_xml *x, char *buf, size_t n)
{
	size_t i = 0, w = 0, len;
	const char *lt;

	if (x->lim.max_value == 0 && x->lim.max_token == 0)
		return (long)n;
	while (i < n) {
		if (x->st == S_TEXT) {
			lt = memchr(buf + i, '<', n - i);
			len = lt ? (size_t)(lt - (buf + i)) + 1 : n - i;
			if (w != i)
				memmove(buf + w, buf + i, len);
			w += len;
			i += len;
			if (!lt)
				break;
			x->st = S_LT;
			x->token = 1;
			continue;
		}
		if (!markup_byte(x, (unsigned char)buf[i])) {
			i++;
			continue;
		}
		buf[w++] = buf[i++];
		if (x->st != S_CDATA && x->st != S_TEXT && x->lim.max_token &&
		    ++x->token > x->lim.max_token) {
			x->too_long = true;
			return -1;
		}
	}
	return (long)w;
}

int ut_xml_feed(ut_xml *x, const char *data, size_t n, bool final)
{
	void *buf = ut_xml_buffer(x, n);

	if (!buf)
		return -1;
	if (n)
		memcpy(buf, data, n);
	return ut_xml_feed_buffer(x, n, final);
}

void *ut_xml_buffer(ut_xml *x, size_t n)
{
	x->pending = XML_GetBuffer(x->parser, (int)(n ? n : 1));
	return x->pending;
}

int ut_xml_feed_buffer(ut_xml *x, size_t n, bool final)
{
	long kept;

	if (x->too_long || (n && !x->pending))
		return -1;
	kept = filter(x, x->pending, n);
	x->pending = NULL;
	if (kept < 0)
		return -1;
	return XML_ParseBuffer(x->parser, (int)kept, final) == XML_STATUS_ERROR ? -1 : 0;
}

void ut_xml_stop(ut_xml *x)
{
	XML_StopParser(x->parser, XML_FALSE);
}

unsigned long ut_xml_line(const ut_xml *x)
{
	return (unsigned long)XML_GetCurrentLineNumber(x->parser);
}

bool ut_xml_too_long(const ut_xml *x)
{
	return x->too_long;
}

const char *ut_xml_error(const ut_xml *x)
{
	if (x->too_long)
		return "token longer than the limit";
	return XML_ErrorString(XML_GetErrorCode(x->parser));
}

const char *ut_xml_version(void)
{
	return XML_ExpatVersion();
}

const char *ut_xml_attr(const char **atts, const char *key)
{
	size_t i;

	for (i = 0; atts[i]; i += 2)
		if (strcmp(atts[i], key) == 0)
			return atts[i + 1];
	return NULL;
}

void ut_xml_escape(ut_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strlen(s) : 0, i = 0, start = 0;

	while (i < n) {
		const char *rep = NULL;
		size_t len = p[i] < 0x80 ? 1 : ut_utf8_valid(p + i, n - i);

		if (len == 3 && p[i] == 0xef && p[i + 1] == 0xbf && p[i + 2] >= 0xbe)
			len = 0; /* U+FFFE, U+FFFF */
		if (len > 1) {
			i += len;
			continue;
		}
		switch (len ? p[i] : 0) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		case '\t': rep = "&#9;"; break;
		case '\n': rep = "&#10;"; break;
		case '\r': rep = "&#13;"; break;
		default:
			if (!len || p[i] < 0x20 || p[i] == 0x7f)
				rep = "\xef\xbf\xbd";
			break;
		}
		if (rep) {
			ut_buf_put(out, s + start, i - start);
			ut_buf_puts(out, rep);
			start = i + 1;
		}
		i++;
	}
	ut_buf_put(out, s + start, n - start);
}
