/*
 * The value tree: constructors, maps (small and indexed), lists, and what
 * templates see of each kind (truthiness, interpolated text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "value.h"

static int passed, failed;

#define CHECK(cond) check((cond), #cond, __LINE__)

static void
check(int ok, const char *what, int line)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL test_value.c:%d: %s\n", line, what);
}

/* The interpolated text of v equals want. */
static int
text_is(const struct val *v, const char *want)
{
	size_t len;
	const char *s = val_text(v, &len);

	if (len == strlen(want) && memcmp(s, want, len) == 0)
		return 1;
	printf("  text \"%.*s\", expected \"%s\"\n", (int)len, s, want);
	return 0;
}

static void
test_scalars(void)
{
	struct val *v;
	size_t len;
	char *own;

	v = val_num(1.210);
	CHECK(val_kind(v) == VAL_NUM && text_is(v, "1.21"));
	CHECK(val_as_num(v) == 1.21);
	CHECK(val_as_str(v) == NULL);
	val_free(v);
	v = val_num(85);
	CHECK(text_is(v, "85"));
	val_free(v);
	v = val_num(-3);
	CHECK(text_is(v, "-3"));
	val_free(v);
	v = val_num(0.1 + 0.2);	/* not 0.3: the text reads back exactly */
	CHECK(strtod(val_text(v, &len), NULL) == 0.1 + 0.2);
	val_free(v);
	v = val_num(1234567890123.0);
	CHECK(text_is(v, "1234567890123"));
	val_free(v);

	v = val_str(NULL);
	CHECK(val_kind(v) == VAL_STR && strcmp(val_as_str(v), "") == 0);
	val_free(v);
	v = val_str("héllo");
	CHECK(strcmp(val_as_str(v), "héllo") == 0);
	val_free(v);
	v = val_strn("a\0b", 3);
	CHECK(val_text(v, &len) != NULL && len == 3 &&
	    memcmp(val_as_str(v), "a\0b", 3) == 0);
	val_free(v);
	v = val_strn("abcdef", 2);
	CHECK(strcmp(val_as_str(v), "ab") == 0);
	val_free(v);
	own = xstrdup("owned");
	v = val_str_own(own);
	CHECK(val_as_str(v) == own);
	val_free(v);

	v = val_bool(7);
	CHECK(val_kind(v) == VAL_BOOL && val_as_bool(v) == 1);
	CHECK(text_is(v, "true"));
	val_free(v);
	v = val_null();
	CHECK(val_kind(v) == VAL_NULL && text_is(v, ""));
	val_free(v);
	CHECK(val_kind(NULL) == VAL_NULL);
	val_free(NULL);
}

static void
test_truthy(void)
{
	struct val *v;

	CHECK(!val_truthy(NULL));
	v = val_null();
	CHECK(!val_truthy(v));
	val_free(v);
	v = val_bool(0);
	CHECK(!val_truthy(v));
	val_free(v);
	v = val_num(0);
	CHECK(!val_truthy(v));
	val_free(v);
	v = val_num(0.5);
	CHECK(val_truthy(v));
	val_free(v);
	v = val_str("");
	CHECK(!val_truthy(v));
	val_free(v);
	v = val_str("0");
	CHECK(val_truthy(v));
	val_free(v);
	v = val_list();
	CHECK(!val_truthy(v));
	val_push(v, val_null());
	CHECK(val_truthy(v));
	val_free(v);
	v = val_map();
	CHECK(val_truthy(v) && text_is(v, ""));
	val_free(v);
}

static void
test_lists(void)
{
	struct val *l = val_list(), *s = val_str("x");
	int i;

	for (i = 0; i < 100; i++)
		val_push(l, val_num(i));
	CHECK(val_len(l) == 100);
	CHECK(text_is(val_at(l, 0), "0") && text_is(val_at(l, 99), "99"));
	CHECK(val_at(l, 100) == NULL);
	CHECK(val_len(s) == 0 && val_at(s, 0) == NULL);
	val_push(s, val_num(1));	/* not a list: the item is freed */
	CHECK(val_len(s) == 0);
	CHECK(val_get(l, "0") == NULL);
	val_free(s);
	val_free(l);
}

static void
test_maps(void)
{
	struct val *m = val_map(), *big = val_map();
	char key[32];
	int i, ok;

	val_set_str(m, "title", "A");
	val_set_num(m, "n", 2);
	val_set_bool(m, "draft", 0);
	val_set_str(m, "none", NULL);	/* sets nothing */
	val_set(m, "nested", val_map());
	CHECK(val_map_len(m) == 4);
	CHECK(val_get(m, "none") == NULL);
	CHECK(strcmp(val_as_str(val_get(m, "title")), "A") == 0);
	CHECK(val_kind(val_get(m, "draft")) == VAL_BOOL);
	CHECK(val_get(m, "missing") == NULL);
	CHECK(val_getn(m, "titles", 5, val_hash("title", 5)) ==
	    val_get(m, "title"));

	/* Replacing keeps the key's place. */
	val_set_str(m, "title", "B");
	CHECK(val_map_len(m) == 4);
	CHECK(strcmp(val_as_str(val_get(m, "title")), "B") == 0);
	CHECK(strcmp(val_key_at(m, 0), "title") == 0);
	CHECK(strcmp(val_key_at(m, 1), "n") == 0);
	CHECK(strcmp(val_key_at(m, 3), "nested") == 0);
	CHECK(val_value_at(m, 3) == val_get(m, "nested"));
	CHECK(val_key_at(m, 4) == NULL && val_value_at(m, 4) == NULL);
	CHECK(val_get(val_get(m, "title"), "x") == NULL);
	CHECK(val_map_len(val_get(m, "title")) == 0);

	/* Big maps are indexed; every key stays reachable and in order. */
	for (i = 0; i < 300; i++) {
		snprintf(key, sizeof(key), "key%d", i);
		val_set_num(big, key, i);
	}
	for (i = 0; i < 300; i += 3) {
		snprintf(key, sizeof(key), "key%d", i);
		val_set_num(big, key, -i);
	}
	CHECK(val_map_len(big) == 300);
	ok = 1;
	for (i = 0; i < 300; i++) {
		snprintf(key, sizeof(key), "key%d", i);
		if (val_as_num(val_get(big, key)) != (i % 3 ? i : -i) ||
		    strcmp(val_key_at(big, (size_t)i), key) != 0)
			ok = 0;
	}
	CHECK(ok);
	CHECK(val_get(big, "key300") == NULL && val_get(big, "") == NULL);
	val_set(m, "big", big);
	CHECK(val_get(m, "big") == big);
	val_free(m);
}

/* A view reads as its map, cannot change it, and frees only itself. */
static void
test_views(void)
{
	struct val *m = val_map(), *v, *w;

	val_set_str(m, "title", "Hello");
	val_set_num(m, "n", 3);
	v = val_view(m);
	w = val_view(m);
	CHECK(val_kind(v) == VAL_MAP);
	CHECK(val_map_len(v) == 2);
	CHECK(text_is(val_get(v, "title"), "Hello"));
	CHECK(text_is(val_get(w, "n"), "3"));
	CHECK(strcmp(val_key_at(v, 1), "n") == 0);
	val_set_str(v, "title", "Changed");	/* no effect, no leak */
	val_set_str(v, "other", "x");
	CHECK(text_is(val_get(m, "title"), "Hello"));
	CHECK(val_get(m, "other") == NULL);
	val_free(v);
	/* the map and the other view are still whole */
	CHECK(text_is(val_get(w, "title"), "Hello"));
	CHECK(text_is(val_get(m, "n"), "3"));
	val_free(w);
	val_free(m);
	/* a view of something that is not a map is null */
	m = val_str("s");
	v = val_view(m);
	CHECK(val_kind(v) == VAL_NULL);
	val_free(v);
	val_free(m);
}

int
main(void)
{
	test_scalars();
	test_truthy();
	test_lists();
	test_maps();
	test_views();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
