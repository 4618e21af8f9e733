/* xml.c: the expat adapter; the only file that includes expat's header. */
#include "util/xml.h"

#include <expat.h>
#include <stdlib.h>
#include <string.h>

#include "util/banned.h"

struct ut_xml {
	XML_Parser parser;
	const ut_xml_handlers *h;
	void *ud;
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

int ut_xml_feed(ut_xml *x, const char *data, size_t n, bool final)
{
	return XML_Parse(x->parser, data, (int)n, final) == XML_STATUS_ERROR ? -1 : 0;
}

void *ut_xml_buffer(ut_xml *x, size_t n)
{
	return XML_GetBuffer(x->parser, (int)n);
}

int ut_xml_feed_buffer(ut_xml *x, size_t n, bool final)
{
	return XML_ParseBuffer(x->parser, (int)n, final) == XML_STATUS_ERROR ? -1 : 0;
}

void ut_xml_stop(ut_xml *x)
{
	XML_StopParser(x->parser, XML_FALSE);
}

unsigned long ut_xml_line(const ut_xml *x)
{
	return (unsigned long)XML_GetCurrentLineNumber(x->parser);
}

const char *ut_xml_error(const ut_xml *x)
{
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
