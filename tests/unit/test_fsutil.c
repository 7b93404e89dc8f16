/*
 * Reading and creating files: fs_read of small, empty and large files;
 * fs_read_stable given a stale stat (the file changed after the scan) and
 * a file whose size never matches what it reads; fs_write_excl making the
 * folders of a new file and refusing an existing one; fs_write_cache_v
 * writing a file from many pieces; fs_within telling
 * what lies inside a folder, links followed; the names never walked.
 */
#include <sys/stat.h>
#include <sys/uio.h>

#include <errno.h>
#include <limits.h>
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
	OK(fs_write_excl(path, "<p>x</p>", 8, 0) == 0, "new file in new folders");
	IS_STR(path, at("a/b/c/index.html"), "path given back whole");
	OK(fs_read(path, &b) == 0, "read back");
	IS_STR(b.ptr, "<p>x</p>", "its bytes");
	buf_clear(&b);

	snprintf(path, sizeof(path), "%s", at("a/b/c/rss.xml"));
	OK(fs_write_excl(path, "<rss/>", 6, 0) == 0, "beside it, folder there");
	snprintf(path, sizeof(path), "%s", at("a/b/c/index.md"));
	OK(fs_write_excl(path, "# x", 3, 1) == 0,
	    "beside it, said to be there");
	OK(fs_read(path, &b) == 0 && strcmp(b.ptr, "# x") == 0,
	    "its bytes");
	buf_clear(&b);
	snprintf(path, sizeof(path), "%s", at("a/d/e/index.md"));
	OK(fs_write_excl(path, "# y", 3, 1) == 0,
	    "said to be there but missing: folders made");
	OK(fs_read(path, &b) == 0 && strcmp(b.ptr, "# y") == 0,
	    "its bytes");
	buf_clear(&b);
	IS_STR(path, at("a/d/e/index.md"), "path given back whole");
	snprintf(path, sizeof(path), "%s", at("a/b/c/index.md"));
	errno = 0;
	OK(fs_write_excl(path, "z", 1, 1) == -1 && errno == EEXIST,
	    "said to be there, the file too: EEXIST");

	snprintf(path, sizeof(path), "%s", at("a/b/c/index.html"));
	errno = 0;
	OK(fs_write_excl(path, "other", 5, 0) == -1 && errno == EEXIST,
	    "an existing file: EEXIST");
	OK(fs_read(path, &b) == 0 && strcmp(b.ptr, "<p>x</p>") == 0,
	    "and it is left as it was");
	buf_release(&b);

	/* a file where a folder should be */
	put("plain", "x", 1);
	snprintf(path, sizeof(path), "%s", at("plain/index.html"));
	errno = 0;
	OK(fs_write_excl(path, "y", 1, 0) == -1 && errno == ENOTDIR,
	    "a file in the way: ENOTDIR");
}

static void
test_within(void)
{
	char root[PATH_MAX], real[PATH_MAX], sibling[600];

	mkdir(at("site"), 0755);
	mkdir(at("site/static"), 0755);
	mkdir(at("site2"), 0755);
	put("site/static/a.css", "a", 1);
	put("site2/b.css", "b", 1);
	OK(realpath(at("site"), root) != NULL, "the root resolves");
	OK(fs_within(root, at("site/static/a.css"), real) == 1,
	    "a file inside is inside");
	OK(fs_within(root, at("site"), NULL) == 1, "the root itself is inside");
	symlink("a.css", at("site/static/in.css"));
	OK(fs_within(root, at("site/static/in.css"), NULL) == 1,
	    "a link to a file inside is inside");
	symlink("/etc", at("site/static/x"));
	OK(fs_within(root, at("site/static/x"), real) == 0 &&
	    strcmp(real, "/etc") == 0, "a link to /etc is outside, target given");
	symlink("../../site2/b.css", at("site/static/twin.css"));
	OK(fs_within(root, at("site/static/twin.css"), NULL) == 0,
	    "a sibling folder sharing the root's name as prefix is outside");
	snprintf(sibling, sizeof(sibling), "%s/../site2", at("site"));
	OK(fs_within(root, sibling, NULL) == 0, ".. out of the root is outside");
	symlink("l2", at("site/static/l1"));
	symlink("l1", at("site/static/l2"));
	errno = 0;
	OK(fs_within(root, at("site/static/l1"), NULL) == -1 && errno == ELOOP,
	    "a loop of links: -1, ELOOP");
	OK(fs_within("/", "/etc", NULL) == 1, "everything is inside /");

	OK(fs_name_hidden(".git") && fs_name_hidden(".a.md.swp") &&
	    fs_name_hidden("a.md~") && fs_name_hidden("#a.md#"),
	    "hidden, swap, backup and autosave names are never walked");
	OK(!fs_name_hidden("a.md") && !fs_name_hidden("#") &&
	    !fs_name_hidden("a#b#") && !fs_name_hidden("~a"),
	    "ordinary names are walked");
}

/* A cache written from 1,000 pieces (more than one writev takes), of
 * all sizes and some empty: the file is the pieces in order. */
static void
test_write_pieces(void)
{
	struct iovec v[1000];
	struct buf want = BUF_INIT, got = BUF_INIT;
	char *data = malloc(1000 * 300);
	size_t i, off = 0;

	for (i = 0; i < 1000; i++) {
		size_t n = i % 7 == 0 ? 0 : (i * 37) % 300;

		memset(data + off, 'a' + (int)(i % 26), n);
		v[i].iov_base = data + off;
		v[i].iov_len = n;
		buf_add(&want, data + off, n);
		off += n;
	}
	OK(fs_write_cache_v(at("sub/pieces.bin"), v, 1000) == 0,
	    "a cache written from pieces");
	OK(fs_read(at("sub/pieces.bin"), &got) == 0 && got.len == want.len &&
	    memcmp(got.ptr, want.ptr, want.len) == 0,
	    "it holds the pieces in order");
	OK(fs_write_cache_v(at("sub/pieces.bin"), v, 0) == 0 &&
	    (buf_clear(&got), fs_read(at("sub/pieces.bin"), &got)) == 0 &&
	    got.len == 0, "written again from no pieces: empty");
	buf_release(&want);
	buf_release(&got);
	free(data);
}

/* fs_write_file: the mode asked for whatever the umask, the old file
 * replaced whole, a missing folder an error. */
static void
test_write_file(void)
{
	struct stat st;
	struct buf got = BUF_INIT;
	mode_t old = umask(077);

	OK(fs_write_file(at("key.pem"), "one", 3, 0644, (uid_t)-1,
	    (gid_t)-1) == 0, "fs_write_file writes");
	OK(stat(at("key.pem"), &st) == 0 && (st.st_mode & 07777) == 0644,
	    "with the mode asked for, not the umask's (%o)",
	    (unsigned)(st.st_mode & 07777));
	OK(fs_write_file(at("key.pem"), "second", 6, 0400, (uid_t)-1,
	    (gid_t)-1) == 0 && fs_read(at("key.pem"), &got) == 0 &&
	    got.len == 6 && memcmp(got.ptr, "second", 6) == 0,
	    "written again: the new text whole");
	OK(stat(at("key.pem"), &st) == 0 && (st.st_mode & 07777) == 0400,
	    "and its new mode");
	OK(fs_write_file(at("no-such-folder/x"), "x", 1, 0644, (uid_t)-1,
	    (gid_t)-1) == -1, "a missing folder is an error, not made");
	umask(old);
	buf_release(&got);
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
	test_within();
	test_write_pieces();
	test_write_file();
	rc = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = 1;
	return rc;
}
