/*
 * The writer of an output folder (sink.h): bytes go in only when they
 * differ from the file there, a file keeps its time when they do not,
 * compressed siblings follow the file, and everything is listed.
 */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "manifest.h"
#include "output.h"
#include "sink.h"
#include "tap.h"

static char dir[64];

static char *
at(const char *rel)
{
	static char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return p;
}

static int
there(const char *rel)
{
	struct stat st;

	return stat(at(rel), &st) == 0;
}

static void
set_old(const char *rel)
{
	const char *cmd = "touch -d 2000-01-01 ";
	char line[320];

	snprintf(line, sizeof(line), "%s'%s'", cmd, at(rel));
	if (system(line) != 0)
		exit(1);
}

static long
mtime(const char *rel)
{
	struct stat st;

	return stat(at(rel), &st) == 0 ? (long)st.st_mtime : -1;
}

int
main(void)
{
	struct sink s;
	struct diag *d = diag_new();
	struct buf got = BUF_INIT;
	uint64_t fp, base;
	char *tmp, src[128];
	int changed = -1;
	FILE *f;

	snprintf(dir, sizeof(dir), "/tmp/test_sink.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return 1;
	output_begin(dir);
	tmp = output_tmpdir(dir);
	memset(&s, 0, sizeof(s));
	s.dir = dir;
	s.list = manifest_new();
	s.tmpdir = tmp;
	s.d = d;

	IS_INT(sink_bytes(&s, "a/b/index.html", "<p>one</p>\n", 11, 7, 3, 0,
	    &changed), 0, "a page handed in");
	IS_INT(changed, 1, "... is written");
	fs_read(at("a/b/index.html"), &got);
	IS_STR(got.ptr, "<p>one</p>\n", "... with its bytes, folders made");
	OK(manifest_get(s.list, "a/b/index.html", &fp, &base, NULL) &&
	    fp == 7 && base == 3, "... and listed with its fingerprint");
	OK(!there("a/b/index.html.gz"), "no siblings without compress");

	set_old("a/b/index.html");
	sink_bytes(&s, "a/b/index.html", "<p>one</p>\n", 11, 7, 3, 0, &changed);
	IS_INT(changed, 0, "the same bytes again: not written");
	IS_INT(mtime("a/b/index.html"), 946684800, "... the file keeps its "
	    "time, so caches in front of it stay valid");

	s.compress = 1;
	sink_bytes(&s, "a/b/index.html", "<p>two</p>\n", 11, 8, 3, 0, &changed);
	IS_INT(changed, 1, "other bytes: written");
	OK(there("a/b/index.html.gz") && there("a/b/index.html.br"),
	    "with compress, its .gz and .br beside it");
	set_old("a/b/index.html.gz");
	set_old("a/b/index.html.br");
	sink_bytes(&s, "a/b/index.html", "<p>3</p>\n", 9, 9, 3, 0, &changed);
	OK(mtime("a/b/index.html.gz") != 946684800 &&
	    mtime("a/b/index.html.br") != 946684800,
	    "new bytes: the siblings are made again, not left stale");
	sink_bytes(&s, "photo.jpg", "\xff\xd8\xff", 3, 0, 0, SINK_CREATE,
	    &changed);
	OK(there("photo.jpg") && !there("photo.jpg.gz"),
	    "an image gets no compressed copies");

	snprintf(src, sizeof(src), "%s/../test_sink_src.css", dir);
	f = fopen(src, "w");
	fputs("body { color: black; }\n", f);
	fclose(f);
	IS_INT(sink_file(&s, src, "css/style.css", &changed), 0,
	    "a file handed in");
	OK(changed == 1 && there("css/style.css") &&
	    there("css/style.css.br"), "... copied, with its siblings");
	OK(manifest_get(s.list, "css/style.css", &fp, &base, NULL) &&
	    fp == 0, "... listed as copied as it is (fingerprint 0)");
	/* (a build hands each file in once; here the page went in four times) */
	IS_INT(manifest_count(s.list), 6, "every file handed in listed");
	IS_INT(sink_bytes(&s, "a/b/index.html/x", "y", 1, 1, 1, 0, &changed),
	    -1, "a path through a file cannot be written");
	OK(diag_count(d, DIAG_ERROR) > 0, "... and is said");
	IS_INT(manifest_count(s.list), 6, "... and not listed");

	output_end(dir);
	OK(!there(".ssg-tmp"), "no temporary folder left");
	unlink(src);
	manifest_free(s.list);
	free(tmp);
	buf_release(&got);
	diag_free(d);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return tap_done();
}
