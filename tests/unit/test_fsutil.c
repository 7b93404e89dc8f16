/*
 * Reading and creating files: fs_read of small, empty and large files;
 * fs_read_stable given a stale stat (the file changed after the scan) and
 * a file whose size never matches what it reads; fs_write_excl making the
 * folders of a new file and refusing an existing one.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "fsutil.h"
#include "tap.h"

static char dir[] = "/tmp/test_fsutil.XXXXXX";

static char *
at(const char *rel)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return path;
}

static void
put(const char *rel, const char *data, size_t n)
{
	FILE *f = fopen(at(rel), "wb");

	fwrite(data, 1, n, f);
	fclose(f);
}

static void
test_read(void)
{
	struct buf b = BUF_INIT;
	char *big = malloc(200000);
	size_t i;

	put("small", "hello\n", 6);
	OK(fs_read(at("small"), &b) == 0, "small file read");
	IS_INT(b.len, 6, "small: length");
	IS_STR(b.ptr, "hello\n", "small: bytes");

	/* appends to what the buffer holds */
	OK(fs_read(at("small"), &b) == 0, "read again");
	IS_STR(b.ptr, "hello\nhello\n", "appended");
	buf_clear(&b);

	put("empty", "", 0);
	OK(fs_read(at("empty"), &b) == 0 && b.len == 0, "empty file");

	for (i = 0; i < 200000; i++)
		big[i] = (char)('a' + i % 26);
	put("big", big, 200000);
	OK(fs_read(at("big"), &b) == 0, "large file read");
	OK(b.len == 200000 && memcmp(b.ptr, big, 200000) == 0 &&
	    b.ptr[b.len] == '\0', "large: every byte, NUL after");
	buf_release(&b);

	/* a file whose stat says nothing of its size */
	OK(fs_read("/proc/self/status", &b) == 0 && b.len > 0 &&
	    strstr(b.ptr, "Pid:") != NULL, "a /proc file is read to its end");
	buf_release(&b);

	errno = 0;
	OK(fs_read(at("missing"), &b) == -1 && errno == ENOENT,
	    "missing file: ENOENT");
	free(big);
}

static void
test_read_stable(void)
{
	struct buf b = BUF_INIT;
	struct stat st, now;

	put("src", "first text", 10);
	OK(stat(at("src"), &st) == 0, "stat");
	OK(fs_read_stable(at("src"), &b, &st) == 0, "unchanged file read");
	IS_STR(b.ptr, "first text", "its bytes");
	IS_INT(st.st_size, 10, "its stat");
	buf_clear(&b);

	/* written again after the scan: longer, so the scan's stat is stale */
	put("src", "second, longer text", 19);
	OK(fs_read_stable(at("src"), &b, &st) == 0, "file changed since "
	    "the scan read");
	IS_STR(b.ptr, "second, longer text", "the new text, whole");
	OK(stat(at("src"), &now) == 0 && st.st_size == now.st_size &&
	    st.st_mtim.tv_nsec == now.st_mtim.tv_nsec,
	    "the stat given back is that of the text read");
	buf_clear(&b);

	/* shorter than the scan saw */
	put("src", "short", 5);
	st.st_size = 19;
	OK(fs_read_stable(at("src"), &b, &st) == 0 && b.len == 5 &&
	    st.st_size == 5, "file cut short since the scan: read as it is");
	buf_clear(&b);

	/* its size never matches what is read: given up, with EAGAIN */
	OK(stat("/proc/self/status", &st) == 0, "stat of a /proc file");
	errno = 0;
	OK(fs_read_stable("/proc/self/status", &b, &st) == -1 &&
	    errno == EAGAIN, "never stable: EAGAIN");
	buf_release(&b);
}

static void
test_write_excl(void)
{
	struct buf b = BUF_INIT;
	char path[512];

	snprintf(path, sizeof(path), "%s", at("a/b/c/index.html"));
	OK(fs_write_excl(path, "<p>x</p>", 8) == 0, "new file in new folders");
	IS_STR(path, at("a/b/c/index.html"), "path given back whole");
	OK(fs_read(path, &b) == 0, "read back");
	IS_STR(b.ptr, "<p>x</p>", "its bytes");
	buf_clear(&b);

	snprintf(path, sizeof(path), "%s", at("a/b/c/rss.xml"));
	OK(fs_write_excl(path, "<rss/>", 6) == 0, "beside it, folder there");

	snprintf(path, sizeof(path), "%s", at("a/b/c/index.html"));
	errno = 0;
	OK(fs_write_excl(path, "other", 5) == -1 && errno == EEXIST,
	    "an existing file: EEXIST");
	OK(fs_read(path, &b) == 0 && strcmp(b.ptr, "<p>x</p>") == 0,
	    "and it is left as it was");
	buf_release(&b);

	/* a file where a folder should be */
	put("plain", "x", 1);
	snprintf(path, sizeof(path), "%s", at("plain/index.html"));
	errno = 0;
	OK(fs_write_excl(path, "y", 1) == -1 && errno == ENOTDIR,
	    "a file in the way: ENOTDIR");
}

int
main(void)
{
	char cmd[600];
	int rc;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_read();
	test_read_stable();
	test_write_excl();
	rc = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
