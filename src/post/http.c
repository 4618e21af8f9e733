/* http.c: the libcurl adapter; the only file that includes curl's header. */
#include "post/http.h"

#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/error.h"
#include "util/banned.h"

const char *ut_http_version(void)
{
	static char buf[48];
	const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);

	snprintf(buf, sizeof(buf), "libcurl %s", v && v->version ? v->version : "?");
	return buf;
}

void ut_http_response_init(ut_http_response *r)
{
	r->status = 0;
	r->sent = false;
	ut_buf_init(&r->body, UT_HTTP_MAX_BODY);
	ut_buf_init(&r->headers, UT_HTTP_MAX_HEADERS);
}

void ut_http_response_dispose(ut_http_response *r)
{
	if (!r)
		return;
	ut_buf_dispose(&r->body);
	ut_buf_dispose(&r->headers);
}

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
	ut_buf *b = ctx;

	/* a short count makes curl stop with CURLE_WRITE_ERROR */
	return ut_buf_put(b, data, size * n) ? 0 : size * n;
}

static size_t on_header(char *data, size_t size, size_t n, void *ctx)
{
	ut_buf *b = ctx;

	/* a new status line: an interim (100) or redirected response came before */
	if (size * n >= 5 && !strncmp(data, "HTTP/", 5))
		ut_buf_clear(b);
	return ut_buf_put(b, data, size * n) ? 0 : size * n;
}

static int has_line_break(const char *s)
{
	return s && strpbrk(s, "\r\n") != NULL;
}

int ut_http_send(ut_http_response *out, const ut_http_request *req)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *list = NULL, *grown;
	CURL *curl = NULL;
	CURLcode cc;
	size_t i;
	int rc = 0;

	out->status = 0;
	out->sent = false;
	ut_buf_clear(&out->body);
	ut_buf_clear(&out->headers);
	out->body.failed = out->headers.failed = false;
	if (strncmp(req->url, "http://", 7) && strncmp(req->url, "https://", 8)) {
		rc = ut_error_set(UT_EINPUT, "'%s' is not an http(s) URL", req->url);
		goto done;
	}
	for (i = 0; i < req->nheaders; i++) {
		/* the value may be a secret: say which header, never what it holds */
		if (has_line_break(req->headers[i])) {
			rc =
			    ut_error_set(UT_EINPUT, "request header %zu holds a line break", i + 1);
			goto done;
		}
		grown = curl_slist_append(list, req->headers[i]);
		if (!grown) {
			rc = ut_error_set(UT_ENOMEM, "out of memory building a request");
			goto done;
		}
		list = grown;
	}
	/* the body goes at once, without waiting for "100 Continue" */
	grown = curl_slist_append(list, "Expect:");
	curl = curl_easy_init();
	if (!grown || !curl) {
		rc = ut_error_set(UT_ENOMEM, "out of memory starting a request");
		goto done;
	}
	list = grown;
	curl_easy_setopt(curl, CURLOPT_URL, req->url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, req->method);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, req->timeout_s > 0 ? req->timeout_s : 30L);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out->body);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, &out->headers);
	if (req->body) {
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req->body);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
	}
	cc = curl_easy_perform(curl);
	{
		long request_size = 0;

		curl_easy_getinfo(curl, CURLINFO_REQUEST_SIZE, &request_size);
		out->sent = request_size > 0;
	}
	if (cc != CURLE_OK) {
		rc = ut_error_set(UT_EENV, "%s %s: %s", req->method, req->url,
				  *errbuf ? errbuf : curl_easy_strerror(cc));
		goto done;
	}
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
done:
	curl_easy_cleanup(curl);
	curl_slist_free_all(list);
	return rc;
}

int ut_http_header(const ut_http_response *r, const char *name, char *value, size_t size)
{
	size_t klen = strlen(name);
	const char *line = r->headers.ptr;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > klen && line[klen] == ':' && !strncasecmp(line, name, klen)) {
			const char *v = line + klen + 1;
			const char *e = line + len;

			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			while (e > v && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
				e--;
			snprintf(value, size, "%.*s", (int)(e - v), v);
			return 1;
		}
		if (!end)
			break;
		line = end + 1;
	}
	return 0;
}
