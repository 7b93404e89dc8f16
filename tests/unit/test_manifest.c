/*
 * The list of a build's outputs (manifest.h): what the next build trusts
 * to skip a page and what it removes. Saved and loaded as it was; stale
 * files removed with their compressed copies and emptied folders, and
 * nothing that the list does not name.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "manifest.h"
#include "tap.h"

static char dir[64];

static void
put(const char *rel)
{
	char p[256], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (s = p + strlen(dir) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	fputs(rel, f);
	fclose(f);
}

static int
there(const char *rel)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return stat(p, &st) == 0;
}

int
main(void)
{
	struct manifest *m = manifest_new(), *l, *cur;
	struct diag *d = diag_new();
	char list[128];
	uint64_t fp, base;
	int found;
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/test_manifest.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(list, sizeof(list), "%s/list.txt", dir);

	manifest_add(m, "index.html", 0x1234, 0x99);
	manifest_add(m, "2025/01/15/slug/index.html", UINT64_MAX, 7);
	manifest_add(m, "css/style.css", 0, 0);	/* copied as it is */
	manifest_set_memo(m, 42);
	IS_INT(manifest_count(m), 3, "three entries");
	IS_INT(manifest_save(m, list), 0, "saved");

	l = manifest_new();
	IS_INT(manifest_load(l, list, d), 0, "loaded");
	manifest_index(l);
	IS_INT(manifest_count(l), 3, "the same three entries");
	IS_INT(manifest_same(m, l), 1, "same paths and fingerprints");
	IS_INT(manifest_memo(l), 42, "the memo kept");
	OK(manifest_get(l, "2025/01/15/slug/index.html", &fp, &base, &found),
	    "a page's entry found");
	OK(fp == UINT64_MAX && base == 7, "its fingerprint and base kept "
	    "whole (64 bits)");
	OK(!manifest_get(l, "2025/01/15/slug", &fp, &base, NULL),
	    "a folder's name is not its page's");
	manifest_forget(l, "index.html");
	manifest_get(l, "index.html", &fp, &base, NULL);
	IS_INT(fp, 0, "a forgotten page has no fingerprint: made again");
	IS_INT(manifest_same(m, l), 0, "and the lists differ");

	/* damaged: a warning, then an empty list */
	f = fopen(list, "w");
	fputs("ssg-manifest 999\n\x01\x02 garbage\n", f);
	fclose(f);
	manifest_free(l);
	l = manifest_new();
	manifest_load(l, list, d);
	IS_INT(manifest_count(l), 0, "a damaged list is read as empty");
	IS_INT(diag_count(d, DIAG_ERROR), 0, "and is no error");
	manifest_free(l);
	l = manifest_new();
	snprintf(list, sizeof(list), "%s/no-such-list.txt", dir);
	IS_INT(manifest_load(l, list, d), 0, "a missing list is empty, no "
	    "error");
	IS_INT(manifest_count(l), 0, "... and empty");
	manifest_free(l);

	/* stale files: only those old lists and cur does not */
	put("keep.html");
	put("gone/deep/index.html");
	put("gone/deep/index.html.gz");
	put("gone/deep/index.html.br");
	put("gone/other.txt.gz");	/* not listed: not ssg's */
	put("mine.txt");		/* the author's, never listed */
	cur = manifest_new();
	manifest_add(cur, "keep.html", 1, 1);
	IS_INT(manifest_remove_stale(m, cur, dir, d), 0,
	    "nothing old lists is on disk: nothing removed");
	l = manifest_new();
	manifest_add(l, "keep.html", 1, 1);
	manifest_add(l, "gone/deep/index.html", 2, 1);
	IS_INT(manifest_remove_stale(l, cur, dir, d), 1,
	    "the page no build makes any more is removed");
	OK(!there("gone/deep/index.html") && !there("gone/deep/index.html.gz")
	    && !there("gone/deep/index.html.br"),
	    "with its compressed copies");
	OK(!there("gone/deep"), "and the folder it leaves empty");
	OK(there("gone/other.txt.gz"), "a file the list never named stays, "
	    "and so does its folder");
	OK(there("keep.html") && there("mine.txt"), "the current page and "
	    "the author's file stay");

	/* carry: a failed build keeps listing the pages it did not reach */
	manifest_free(cur);
	cur = manifest_new();
	manifest_add(l, "css/copied.css", 0, 0);
	manifest_carry(l, cur);
	OK(manifest_get(cur, "gone/deep/index.html", &fp, &base, NULL) &&
	    fp == 2, "carried: a page with its fingerprint");
	OK(!manifest_get(cur, "css/copied.css", &fp, &base, NULL),
	    "not carried: a copied file (its copier lists it)");

	manifest_free(m);
	manifest_free(l);
	manifest_free(cur);
	diag_free(d);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
