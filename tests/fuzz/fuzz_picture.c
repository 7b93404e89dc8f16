/* A page's images: the HTML a page is (any bytes) with each <img> turned
 * into a <picture>, its src resolved against the site's base path, for a
 * site that has one image; and the same bytes as a WebP file whose EXIF
 * and XMP chunks are cut out. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "media.h"
#include "media_int.h"
#include "picture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
report(void *arg, const char *src, const struct media_img *im)
{
	(void)arg;
	(void)src;
	(void)im;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct entry e;
	static struct media m;
	struct picture_ctx c;
	struct buf out = BUF_INIT, w = BUF_INIT;

	if (m.n == 0) {
		e.img.rel = "images/river.jpg";
		e.img.hash = 0x1234abcdULL;
		e.img.w = 1000;
		e.img.h = 1800;
		e.img.fmt = MF_JPEG;
		e.img.fallback = MF_JPEG;
		e.img.widths[0] = 480;
		e.img.widths[1] = 960;
		e.img.widths[2] = 1000;
		e.img.nwidths = 3;
		m.on = 1;
		m.e = &e;
		m.n = 1;
		m.formats[0] = MF_AVIF;
		m.formats[1] = MF_WEBP;
		m.nformats = 2;
		m.sizes = "(max-width: 800px) 100vw, 800px";
	}
	memset(&c, 0, sizeof(c));
	c.m = &m;
	c.site_url = "https://example.org/blog";
	c.base = "/blog";
	c.page_url = "/2025/03/01/walk/";
	c.report = report;
	picture_rewrite(&out, (const char *)data, size, &c);
	buf_release(&out);
	buf_add(&w, data, size);
	(void)media_webp_strip(&w);
	buf_clear(&w);
	buf_add(&w, data, size);
	{
		struct buf j = BUF_INIT;

		/* the JPEG parser: a file's segments and scans */
		(void)media_jpeg_strip(&w, &j);
		buf_release(&j);
	}
	buf_release(&w);
	return 0;
}
