/* check_util.c: string buffer, arena, map, JSON writer. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/esc.h"
#include "util/fs.h"
#include "util/glob.h"
#include "util/jsonw.h"
#include "util/lock.h"
#include "util/map.h"

Suite *util_suite(void);

START_TEST(buf_grows_and_bounds)
{
	ut_buf b = UT_BUF_INIT;
	int i;

	ck_assert_str_eq(b.ptr, "");
	for (i = 0; i < 1000; i++)
		ck_assert_int_eq(ut_buf_printf(&b, "%d,", i), 0);
	ck_assert_uint_eq(b.len, strlen(b.ptr));
	ck_assert(strncmp(b.ptr, "0,1,2,", 6) == 0);
	ut_buf_dispose(&b);
	ut_buf_init(&b, 8);
	ck_assert_int_eq(ut_buf_puts(&b, "12345678"), 0);
	ck_assert_int_eq(ut_buf_puts(&b, "9"), UT_ENOMEM);
	ck_assert(b.failed);
	ck_assert_str_eq(b.ptr, "12345678");
	ut_buf_dispose(&b);
}
END_TEST

/* A sink that collects what a draining buffer hands it, and can be told to fail. */
typedef struct {
	ut_buf got;
	int calls, fail;
} collector;

static int collect(void *ctx, const char *p, size_t n)
{
	collector *c = ctx;

	c->calls++;
	if (c->fail)
		return UT_EENV;
	return ut_buf_put(&c->got, p, n);
}

START_TEST(buf_drains_into_its_sink)
{
	ut_buf b = UT_BUF_INIT, plain = UT_BUF_INIT;
	collector c = {UT_BUF_INIT, 0, 0};
	size_t i, total = 0;

	b.sink = collect;
	b.sink_ctx = &c;
	/* 3 MiB in 99-byte records: the buffer never holds more than a drain's worth. */
	for (i = 0; i < 3 * 10600; i++) {
		ck_assert_int_eq(ut_buf_printf(&b, "%099zu", i), 0);
		ut_buf_printf(&plain, "%099zu", i);
		total += 99;
		ck_assert_int_eq(ut_buf_drain(&b), 0);
		ck_assert_uint_lt(b.len, UT_BUF_DRAIN_AT);
	}
	ck_assert_int_eq(c.calls, 3);
	ck_assert_int_eq(ut_buf_flush(&b), 0);
	ck_assert_int_eq(c.calls, 4);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_eq(c.got.len, total);
	ck_assert(memcmp(c.got.ptr, plain.ptr, total) == 0);
	/* A failing sink fails the buffer and the error comes back. */
	c.fail = 1;
	ck_assert_int_eq(ut_buf_puts(&b, "x"), 0);
	ck_assert_int_eq(ut_buf_flush(&b), UT_EENV);
	ck_assert(b.failed);
	/* Without a sink, drain and flush keep everything. */
	ck_assert_int_eq(ut_buf_drain(&plain), 0);
	ck_assert_int_eq(ut_buf_flush(&plain), 0);
	ck_assert_uint_eq(plain.len, total);
	ut_buf_dispose(&b);
	ut_buf_dispose(&plain);
	ut_buf_dispose(&c.got);
}
END_TEST

START_TEST(arena_strings)
{
	ut_arena a = UT_ARENA_INIT;
	char *big = ut_arena_alloc(&a, 1 << 20);
	char *s = ut_arena_strndup(&a, "hello world", 5);

	ck_assert_ptr_nonnull(big);
	ck_assert_str_eq(s, "hello");
	ck_assert_str_eq(ut_arena_printf(&a, "%s-%d", s, 7), "hello-7");
	ck_assert_uint_eq((uintptr_t)ut_arena_alloc(&a, 3) % 16, 0);
	ut_arena_dispose(&a);
	ut_arena_dispose(NULL);
}
END_TEST

START_TEST(map_put_get)
{
	ut_map m = UT_MAP_INIT;
	static const char *keys[] = {"a", "b", "c", "login", "logout"};
	char buf[64][8];
	int i;

	for (i = 0; i < 5; i++)
		ck_assert_int_eq(ut_map_put(&m, keys[i], strlen(keys[i]), (void *)keys[i]), 0);
	for (i = 0; i < 64; i++) {
		snprintf(buf[i], sizeof(buf[i]), "k%d", i);
		ck_assert_int_eq(ut_map_put(&m, buf[i], strlen(buf[i]), buf[i]), 0);
	}
	ck_assert_ptr_eq(ut_map_get(&m, "login", 5), keys[3]);
	ck_assert_ptr_eq(ut_map_get(&m, "k63", 3), buf[63]);
	ck_assert_ptr_null(ut_map_get(&m, "log", 3));
	ck_assert_uint_eq(m.n, 69);
	ut_map_put(&m, "a", 1, NULL);
	ck_assert_int_eq(ut_map_find(&m, "a", 1, NULL), 1);
	ck_assert_uint_eq(m.n, 69);
	ut_map_dispose(&m);
}
END_TEST

START_TEST(json_writer_escapes_and_repairs_utf8)
{
	ut_buf b = UT_BUF_INIT;
	ut_jsonw w;

	ut_jsonw_init(&w, &b, false);
	ut_jsonw_obj_begin(&w);
	ut_jsonw_key(&w, "s");
	ut_jsonw_str(&w, "a\"b\\c\n\x01 caf\xc3\xa9 bad\xe9");
	ut_jsonw_key(&w, "n");
	ut_jsonw_int(&w, -3);
	ut_jsonw_key(&w, "l");
	ut_jsonw_arr_begin(&w);
	ut_jsonw_bool(&w, true);
	ut_jsonw_null(&w);
	ut_jsonw_double(&w, 1.5);
	ut_jsonw_arr_end(&w);
	ut_jsonw_obj_end(&w);
	ck_assert_str_eq(b.ptr, "{\"s\":\"a\\\"b\\\\c\\n\\u0001 caf\xc3\xa9 bad\xef\xbf\xbd\","
				"\"n\":-3,\"l\":[true,null,1.5]}");
	ut_buf_dispose(&b);
}
END_TEST

START_TEST(utf8_validation)
{
	ck_assert_uint_eq(ut_utf8_valid((const unsigned char *)"\xc3\xa9", 2), 2);
	ck_assert_uint_eq(ut_utf8_valid((const unsigned char *)"\xe2\x82\xac", 3), 3);
	ck_assert_uint_eq(ut_utf8_valid((const unsigned char *)"\xed\xa0\x80", 3), 0); /* surrogate */
	ck_assert_uint_eq(ut_utf8_valid((const unsigned char *)"\xc0\xaf", 2), 0);     /* overlong */
	ck_assert_uint_eq(ut_utf8_valid((const unsigned char *)"\xe2\x82", 2), 0);     /* cut */
}
END_TEST

START_TEST(lock_names_its_holder)
{
	char dir[] = "/tmp/ut-lock-XXXXXX", path[64];
	int first = -1, second = -1;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lock", dir);
	ck_assert_int_eq(ut_lock_take(&first, path, "detect"), 0);
	ck_assert_int_ge(first, 0);
	/* another open file description conflicts, even in the same process */
	ck_assert_int_eq(ut_lock_take(&second, path, "check"), UT_EENV);
	ck_assert_int_eq(second, -1);
	ck_assert_msg(strstr(ut_error_message(), "`untangle detect`") &&
			      strstr(ut_error_message(), "since ") && strstr(ut_error_message(), "pid "),
		      "%s", ut_error_message());
	close(first);
	ck_assert_int_eq(ut_lock_take(&second, path, "check"), 0);
	close(second);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(find_upward_stops_at_the_repository)
{
	char dir[] = "/tmp/ut-up-XXXXXX", path[128], *sub = NULL, *old = getcwd(NULL, 0);
	unsigned up = 9;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/repo/.git/x/a/b", dir);
	ck_assert_int_eq(ut_fs_mkdirs(path), 0);
	snprintf(path, sizeof(path), "%s/repo/x/a/b", dir);
	ck_assert_int_eq(ut_fs_mkdirs(path), 0);
	snprintf(path, sizeof(path), "%s/untangle.json", dir); /* outside the repository */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/repo/x/a/b", dir);
	ck_assert_int_eq(chdir(path), 0);
	ck_assert_int_eq(ut_fs_find_upward("untangle.json", ".git", &sub, &up), UT_ENOTFOUND);
	ck_assert_ptr_null(sub);
	snprintf(path, sizeof(path), "%s/repo/x/untangle.json", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(ut_fs_find_upward("untangle.json", ".git", &sub, &up), 0);
	ck_assert_str_eq(sub, "a/b/");
	ck_assert_uint_eq(up, 2);
	free(sub);
	snprintf(path, sizeof(path), "%s/repo/x", dir);
	ck_assert_int_eq(chdir(path), 0);
	ck_assert_int_eq(ut_fs_find_upward("untangle.json", ".git", &sub, &up), 0);
	ck_assert_str_eq(sub, "");
	ck_assert_uint_eq(up, 0);
	free(sub);
	ck_assert_int_eq(chdir(old), 0);
	free(old);
}
END_TEST

START_TEST(one_glob_for_mocha_and_surefire)
{
	/* mocha's specs (minimatch) */
	ck_assert(ut_glob_match("test/**/*.spec.js", "test/a.spec.js"));
	ck_assert(ut_glob_match("test/**/*.spec.js", "test/x/y/a.spec.js"));
	ck_assert(!ut_glob_match("test/*.spec.js", "test/x/a.spec.js"));
	ck_assert(ut_glob_match("test/*.{js,cjs}", "test/a.cjs"));
	ck_assert(!ut_glob_match("test/*.{js,cjs}", "test/a.ts"));
	ck_assert(ut_glob_match("spec/[a-c]?.js", "spec/b1.js"));
	ck_assert(!ut_glob_match("spec/[!a-c]?.js", "spec/b1.js"));
	ck_assert(ut_glob_match("test/**", "test/x/y/z.js"));
	/* "**" inside a name is a '*' */
	ck_assert(!ut_glob_match("test/**.spec.js", "test/x/a.spec.js"));
	ck_assert(ut_glob_match("test/**.spec.js", "test/a.spec.js"));
	/* Surefire's includes (Ant) */
	ck_assert(ut_glob_match("**/*Test.java", "shop/cart/PayTest.java"));
	ck_assert(ut_glob_match("**/Test*.java", "TestPay.java"));
	ck_assert(!ut_glob_match("**/*Test.java", "shop/cart/PayTests.java"));
	ck_assert(ut_glob_match("**/*IT.java", "a/b/CheckoutIT.java"));
	/* bounded on a pathological pattern */
	ck_assert(!ut_glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
				 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
	ck_assert(ut_path_under("a/b", "a") && !ut_path_under("a/bc", "a/b") &&
		  ut_path_under("x", ".") && !ut_path_under("../x", "."));
}
END_TEST

/* util/esc: the text rule (a terminal, a CI log) and the Markdown rule. */
static char *escaped(void (*esc)(ut_buf *out, const char *s), const char *s)
{
	static char out[512];
	ut_buf b = UT_BUF_INIT;

	esc(&b, s);
	ck_assert(!b.failed && b.len < sizeof(out));
	memcpy(out, b.ptr, b.len + 1);
	ut_buf_dispose(&b);
	return out;
}

#define esc_text(s) escaped(ut_esc_text, s)
#define esc_md(s) escaped(ut_esc_markdown, s)

START_TEST(text_escape_keeps_names_on_one_line)
{
	ck_assert_str_eq(esc_text("plain name, caf\xc3\xa9 a\\b"), "plain name, caf\xc3\xa9 a\\b");
	ck_assert(!ut_esc_text_needed("t.py::test_x[a\\b]"));
	ck_assert_str_eq(esc_text("x\n::warning file=x.js::PWNED"),
			 "x\\n::warning file=x.js::PWNED");
	ck_assert_str_eq(esc_text("a\\b\r\t"), "a\\\\b\\r\\t");
	ck_assert_str_eq(esc_text("\x1b]8;;http://e/\x07l\x1b[2J\x7f"),
			 "\\x1b]8;;http://e/\\x07l\\x1b[2J\\x7f");
	/* bidirectional controls, C1 controls, separators, invalid UTF-8 */
	ck_assert_str_eq(esc_text("\xe2\x80\xaegnp.exe \xe2\x81\xa6x\xe2\x81\xa9"),
			 "\\u202egnp.exe \\u2066x\\u2069");
	ck_assert_str_eq(esc_text("a\xc2\x9b" "2J\xe2\x80\xa8\xff\xd8\x9c"),
			 "a\\u009b2J\\u2028\\xff\\u061c");
	/* a workflow command at the start of a line, after spaces too */
	ck_assert_str_eq(esc_text("::warning ::x"), "\\x3a:warning ::x");
	ck_assert_str_eq(esc_text("  ::error::x"), "  \\x3a:error::x");
	ck_assert_str_eq(esc_text("a ::error::x"), "a ::error::x");
	ck_assert_str_eq(esc_text("\xc2\xa0\xe3\x80\x80::error::x"),
			 "\xc2\xa0\xe3\x80\x80\\x3a:error::x");
	ck_assert(ut_esc_text_needed("::x"));
	ck_assert_str_eq(esc_text(""), "");
	/* JSON keeps the same string and escapes what could drive a terminal showing it */
	{
		ut_buf b = UT_BUF_INIT;

		ut_json_escape(&b, "a\xe2\x80\xae\x7f\xc2\x9b" "b\xc3\xa9", 10);
		ck_assert_str_eq(b.ptr, "a\\u202e\\u007f\\u009bb\xc3\xa9");
		ut_buf_dispose(&b);
	}
}
END_TEST

START_TEST(markdown_escape_pings_and_links_nobody)
{
	ck_assert_str_eq(esc_md("new @octocat sees #12"),
			 "new @\xe2\x80\x8boctocat sees \\#\xe2\x80\x8b" "12");
	ck_assert_str_eq(esc_md("@team a@b"), "@\xe2\x80\x8bteam a@b");
	ck_assert_str_eq(esc_md("<img src=x>&|`x`"), "\\<img src=x\\>&amp;\\|\\`x\\`");
	ck_assert_str_eq(esc_md("a\nb\x1b" "c\xe2\x80\xae"), "a<br>b c\\\\u202e");
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, buf_grows_and_bounds);
	tcase_add_test(tc, buf_drains_into_its_sink);
	tcase_add_test(tc, arena_strings);
	tcase_add_test(tc, map_put_get);
	tcase_add_test(tc, json_writer_escapes_and_repairs_utf8);
	tcase_add_test(tc, utf8_validation);
	tcase_add_test(tc, text_escape_keeps_names_on_one_line);
	tcase_add_test(tc, markdown_escape_pings_and_links_nobody);
	tcase_add_test(tc, lock_names_its_holder);
	tcase_add_test(tc, find_upward_stops_at_the_repository);
	tcase_add_test(tc, one_glob_for_mocha_and_surefire);
	suite_add_tcase(s, tc);
	return s;
}
