/* check_util.c: string buffer, arena, map, JSON writer, lock, diagnostics, state files. */
#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/suite.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/diag.h"
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

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void expect(const char *path, const char *text)
{
	char got[64] = "";
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	got[fread(got, 1, sizeof(got) - 1, f)] = '\0';
	fclose(f);
	ck_assert_str_eq(got, text);
}

/* Issue 29: untangle's files are never written through a link, whatever link is planted. */
START_TEST(state_files_follow_no_link)
{
	char dir[] = "/tmp/ut-nofollow-XXXXXX", victim[128], path[128], tmp[160];
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	put(victim, "precious");
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	ck_assert_int_eq(symlink(victim, path), 0);
	fd = ut_fs_open_nofollow(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(fd, UT_EENV);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "journal.jsonl' is a symbolic link"));
	/* the temporary file of an atomic write planted as a link: removed, not followed */
	snprintf(path, sizeof(path), "%s/graph.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	ck_assert_int_eq(symlink(victim, tmp), 0);
	ck_assert_int_eq(ut_fs_write_atomic(path, "{}", 2), 0);
	expect(path, "{}");
	expect(victim, "precious");
	ck_assert_int_ne(access(tmp, F_OK), 0);
	/* the state folder, or a folder of its path, a link */
	snprintf(path, sizeof(path), "%s/state", dir);
	ck_assert_int_eq(symlink(dir, path), 0);
	ck_assert_int_eq(ut_fs_state_dir(path), UT_EENV);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "is a symbolic link"));
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_int_eq(ut_fs_state_dir("state/tmp"), UT_EENV);
	ck_assert_ptr_nonnull(strstr(ut_error_message(), "'state' is a symbolic link"));
	ck_assert_int_eq(ut_fs_state_dir("real/tmp"), 0);
	ck_assert_int_eq(chdir("/"), 0);
}
END_TEST

/* Past the limit diagnostics are only counted, except a file not read: shard and run
 * must see every one. */
START_TEST(unread_files_are_never_dropped)
{
	ut_diags d;
	const ut_diag *first = NULL;
	ut_suite *s = NULL;

	ut_diags_init(&d);
	d.limit = 2;
	ut_diags_add(&d, UT_DIAG_WARNING, "a.py", 1, "one");
	ut_diags_add(&d, UT_DIAG_WARNING, "a.py", 2, "two");
	ut_diags_add(&d, UT_DIAG_WARNING, "a.py", 3, "dropped");
	ut_diags_add_kind(&d, UT_DIAG_WARNING, UT_DIAG_UNREAD, "deep.py", 7, "skipped: deep");
	ck_assert_uint_eq(d.items.n, 3);
	ck_assert_uint_eq(d.dropped, 1);
	ck_assert_int_eq(ut_suite_new(&s), 0);
	ck_assert_uint_eq(ut_suite_unread(s, &d, &first), 1);
	ck_assert_str_eq(first->file, "deep.py");
	s->origin.runner = true; /* the runner's list has what the file holds */
	ck_assert_uint_eq(ut_suite_unread(s, &d, &first), 0);
	ck_assert_ptr_null(first);
	ut_suite_free(s);
	ut_diags_dispose(&d);
}
END_TEST

static long name_pid(const char *name)
{
	return strncmp(name, "f-", 2) == 0 ? strtol(name + 2, NULL, 10) : 0;
}

START_TEST(leftovers_of_dead_processes)
{
	char dir[] = "/tmp/ut-leftovers-XXXXXX", path[160];
	pid_t dead = fork();
	size_t removed = 9;

	ck_assert_int_ge(dead, 0);
	if (dead == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(dead, NULL, 0), dead);
	ck_assert_int_eq(ut_fs_tmp_pid("graph.json.tmp.123"), 123);
	ck_assert_int_eq(ut_fs_tmp_pid("a.tmp.b.tmp.7"), 7);
	ck_assert_int_eq(ut_fs_tmp_pid("graph.json.tmp.12x"), 0);
	ck_assert_int_eq(ut_fs_tmp_pid("graph.json.tmp.0"), 0);
	ck_assert_int_eq(ut_fs_tmp_pid(".tmp.5"), 0);
	ck_assert_int_eq(ut_fs_tmp_pid("graph.json"), 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f-%ld", dir, (long)dead);
	put(path, "dead");
	snprintf(path, sizeof(path), "%s/f-%ld", dir, (long)getppid());
	put(path, "alive");
	snprintf(path, sizeof(path), "%s/f-%ld", dir, (long)getpid());
	put(path, "mine");
	ck_assert_int_eq(ut_fs_remove_dead(dir, name_pid, false, &removed), 0);
	ck_assert_uint_eq(removed, 1);
	snprintf(path, sizeof(path), "%s/f-%ld", dir, (long)dead);
	ck_assert_int_ne(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/f-%ld", dir, (long)getppid());
	expect(path, "alive");
	ck_assert_int_eq(ut_fs_remove_dead(dir, name_pid, true, &removed), 0);
	ck_assert_uint_eq(removed, 1);
	snprintf(path, sizeof(path), "%s/f-%ld", dir, (long)getpid());
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(ut_fs_remove_dead("/nonexistent-ut", name_pid, true, &removed), 0);
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
	tcase_add_test(tc, state_files_follow_no_link);
	tcase_add_test(tc, leftovers_of_dead_processes);
	tcase_add_test(tc, unread_files_are_never_dropped);
	suite_add_tcase(s, tc);
	return s;
}
