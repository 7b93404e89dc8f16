#include "compress.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <brotli/encode.h>
#include <zlib.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

/* Brotli 11 is ~30x slower than 9 for a few percent; 9 keeps rebuilds quick. */
#define BROTLI_LEVEL 9

int
compress_wanted(const char *path)
{
	static const char *const exts[] = { "html", "css", "xml", "js", "svg",
	    "json", "txt" };
	const char *ext = path_ext(path);
	size_t i;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (strcmp(ext, exts[i]) == 0)
			return 1;
	return 0;
}

static int
gzip_data(const void *data, size_t n, struct buf *out)
{
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip header and trailer instead of zlib's */
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	buf_grow(out, deflateBound(&z, (uLong)n) + 32);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)out->ptr;
	z.avail_out = (uInt)(out->cap - 1);
	rc = deflate(&z, Z_FINISH);
	out->len = z.total_out;
	out->ptr[out->len] = '\0';
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

static int
brotli_data(const void *data, size_t n, struct buf *out)
{
	size_t size = BrotliEncoderMaxCompressedSize(n);

	if (size == 0)
		size = n + 1024;
	buf_grow(out, size);
	if (!BrotliEncoderCompress(BROTLI_LEVEL, BROTLI_DEFAULT_WINDOW,
	    BROTLI_MODE_TEXT, n, data, &size, (uint8_t *)out->ptr))
		return -1;
	out->len = size;
	out->ptr[out->len] = '\0';
	return 0;
}

int
compress_siblings(const char *path, const void *data, size_t n,
    const char *tmpdir, struct diag *d)
{
	struct buf z = BUF_INIT, name = BUF_INIT;
	int rc = 0;

	buf_printf(&name, "%s.gz", path);
	if (gzip_data(data, n, &z) == -1 ||
	    fs_write_atomic_via(name.ptr, tmpdir, z.ptr, z.len) == -1) {
		diag_error(d, name.ptr, 0, "cannot write the gzip copy: %s",
		    strerror(errno));
		rc = -1;
	}
	buf_clear(&z);
	buf_clear(&name);
	buf_printf(&name, "%s.br", path);
	if (brotli_data(data, n, &z) == -1 ||
	    fs_write_atomic_via(name.ptr, tmpdir, z.ptr, z.len) == -1) {
		diag_error(d, name.ptr, 0, "cannot write the brotli copy: %s",
		    strerror(errno));
		rc = -1;
	}
	buf_release(&z);
	buf_release(&name);
	return rc;
}

void
compress_remove(const char *path)
{
	struct buf name = BUF_INIT;

	buf_printf(&name, "%s.gz", path);
	unlink(name.ptr);
	buf_truncate(&name, name.len - 3);
	buf_adds(&name, ".br");
	unlink(name.ptr);
	buf_release(&name);
}

int
compress_present(const char *path)
{
	struct buf name = BUF_INIT;
	int ok;

	buf_printf(&name, "%s.gz", path);
	ok = fs_is_file(name.ptr);
	buf_truncate(&name, name.len - 3);
	buf_adds(&name, ".br");
	ok = ok && fs_is_file(name.ptr);
	buf_release(&name);
	return ok;
}
