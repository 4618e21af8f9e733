/* http.c: the libcurl adapter; the only file that includes curl's header. */
#include "post/http.h"

#include <curl/curl.h>
#include <stdio.h>

#include "util/banned.h"

const char *ut_http_version(void)
{
	static char buf[48];
	const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);

	snprintf(buf, sizeof(buf), "libcurl %s", v && v->version ? v->version : "?");
	return buf;
}
