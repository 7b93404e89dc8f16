/*
 * The site's images, encoded (see media.h): each copy made once into the
 * image cache, then published from it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "media.h"
#include "media_int.h"
#include "mem.h"
#include "pool.h"
#include "sink.h"

#include "lazy_vips.h"

/* A copy as the cache names it: every input of its bytes is in the name.
 * w 0: the original, stripped, in its own format. */
static char *
cache_path(const struct media *m, const struct media_img *im,
    enum media_fmt f, int w)
{
	struct buf p = BUF_INIT;
	char hex[17], *s;

	hash_hex(im->hash, hex);
	if (w == 0)	/* a JPEG stripped as it is, or encoded again at 90 */
		buf_printf(&p, "%s/%s-0-%s-original-%s.%s", m->dir, hex,
		    media_fmt_name[f], VIPS_VERSION, media_fmt_ext[f]);
	else
		buf_printf(&p, "%s/%s-%d-%s-q%d-%s.%s", m->dir, hex, w,
		    media_fmt_name[f], m->q[f], VIPS_VERSION, media_fmt_ext[f]);
	s = xstrdup(p.ptr);
	buf_release(&p);
	return s;
}

long long
media_copy_bytes(const struct media *m, const struct media_img *im,
    enum media_fmt f, int w)
{
	struct stat st;
	char *p = cache_path(m, im, f, w);
	long long n = stat(p, &st) == 0 && S_ISREG(st.st_mode) ?
	    (long long)st.st_size : -1;

	free(p);
	return n;
}

struct copy {
	enum media_fmt	f;
	int		w;	/* 0: the original, stripped */
};

static int
as_is(const struct media *m, const struct media_img *im)
{
	return m->keep_originals || im->fmt == MF_GIF ||
	    !(im->flags & MEDIA_META);
}

/* Every copy of im that is published, its stripped original last. */
static size_t
copies(const struct media *m, const struct media_img *im, struct copy *c)
{
	size_t n = 0, i;
	int k;

	for (i = 0; i < m->nformats; i++)
		if (m->formats[i] != im->fallback)
			for (k = 0; k < im->nwidths; k++) {
				c[n].f = m->formats[i];
				c[n++].w = im->widths[k];
			}
	for (k = 0; k < im->nwidths; k++) {
		c[n].f = im->fallback;
		c[n++].w = im->widths[k];
	}
	/* published as it is: a GIF (its bytes hold no EXIF), an image
	 * without metadata (nothing to strip, no orientation to apply: a
	 * new encoding would only cost quality or bytes), one kept by
	 * request */
	if (!as_is(m, im)) {
		c[n].f = im->fmt;
		c[n++].w = 0;
	}
	return n;
}

#define MAX_COPIES	(MF_NFMT * MEDIA_MAX_WIDTHS + 1)

static const char *
save_options(const struct media *m, enum media_fmt f, int w, char *s,
    size_t n)
{
	int q = w == 0 ? 90 : m->q[f];

	switch (f) {
	case MF_JPEG:
		xsnprintf(s, n, "[Q=%d,strip,optimize_coding,interlace]", q);
		break;
	case MF_WEBP:
		xsnprintf(s, n, "[Q=%d,strip]", q);
		break;
	case MF_AVIF:
		/* effort 2 of 9: most of the size for a fraction of the time */
		xsnprintf(s, n, "[Q=%d,strip,effort=2]", q);
		break;
	default:
		xsnprintf(s, n, "[strip]");
		break;
	}
	return s;
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/*
 * A WebP file without its EXIF and XMP chunks. libvips 8.14's webpsave
 * writes the EXIF and XMP it read even when told to strip (libvips
 * issue 3340): the author's name, the camera, a GPS position. Returns 0,
 * or -1 when the file is not a RIFF WebP.
 */
int
media_webp_strip(struct buf *w)
{
	unsigned char *p = (unsigned char *)w->ptr;
	size_t at = 12, out = 12, n;

	if (w->len < 12 || memcmp(p, "RIFF", 4) != 0 ||
	    memcmp(p + 8, "WEBP", 4) != 0)
		return -1;
	while (at + 8 <= w->len) {
		n = le32(p + at + 4);
		n += n & 1;		/* chunks are padded to even sizes */
		if (n > w->len - at - 8)
			return -1;
		if (memcmp(p + at, "EXIF", 4) != 0 &&
		    memcmp(p + at, "XMP ", 4) != 0) {
			if (memcmp(p + at, "VP8X", 4) == 0 && n >= 1)
				p[at + 8] &= (unsigned char)~0x0c;
			memmove(p + out, p + at, n + 8);
			out += n + 8;
		}
		at += n + 8;
	}
	w->len = out;
	put_le32(p + 4, (uint32_t)(out - 8));
	return 0;
}

/* 1 if the TIFF block of an EXIF segment (n bytes at p) gives an
 * orientation other than 1, or cannot be read. */
static int
exif_turned(const unsigned char *p, size_t n)
{
	int le;
	size_t ifd, k, count;

	if (n < 8 || (memcmp(p, "II", 2) != 0 && memcmp(p, "MM", 2) != 0))
		return 1;
	le = p[0] == 'I';
#define U16(q)	(le ? (size_t)(q)[0] | (size_t)(q)[1] << 8 : \
		    (size_t)(q)[0] << 8 | (size_t)(q)[1])
#define U32(q)	(le ? (size_t)(q)[0] | (size_t)(q)[1] << 8 | \
		    (size_t)(q)[2] << 16 | (size_t)(q)[3] << 24 : \
		    (size_t)(q)[0] << 24 | (size_t)(q)[1] << 16 | \
		    (size_t)(q)[2] << 8 | (size_t)(q)[3])
	ifd = U32(p + 4);
	if (ifd > n - 2)
		return 1;
	count = U16(p + ifd);
	if (count > (n - ifd - 2) / 12)
		return 1;
	for (k = 0; k < count; k++) {
		const unsigned char *e = p + ifd + 2 + 12 * k;

		if (U16(e) == 0x0112)	/* Orientation, a SHORT */
			return U16(e + 8) != 1;
	}
	return 0;
#undef U16
#undef U32
}

/*
 * A JPEG without its metadata, losslessly: the same scans, without the
 * APP segments (EXIF, XMP, IPTC and the rest) and comments, but for
 * JFIF's APP0 and Adobe's APP14, which say how to read the colours.
 * Only where that is the whole work: -1 for a file this does not
 * parse, and for one whose pixels need more than their metadata gone
 * (an orientation to apply, or an ICC profile to convert from), which
 * is decoded and encoded again instead. 0 with the stripped file in out.
 */
int
media_jpeg_strip(const struct buf *in, struct buf *out)
{
	const unsigned char *p = (const unsigned char *)in->ptr;
	size_t at = 2, n = in->len, len, from;
	unsigned char t;

	buf_clear(out);
	if (n < 4 || p[0] != 0xff || p[1] != 0xd8)
		return -1;
	buf_add(out, "\xff\xd8", 2);
	for (;;) {
		if (at + 2 > n || p[at] != 0xff)
			return -1;
		t = p[at + 1];
		if (t == 0xff) {		/* fill byte */
			at++;
			continue;
		}
		if (t == 0xd9) {		/* EOI */
			buf_add(out, "\xff\xd9", 2);
			return 0;
		}
		if (t == 0x01 || (t >= 0xd0 && t <= 0xd8))
			return -1;		/* no length, and not here */
		if (at + 4 > n)
			return -1;
		len = (size_t)p[at + 2] << 8 | p[at + 3];
		if (len < 2 || len > n - at - 2)
			return -1;
		/* an orientation or a colour profile: not only metadata */
		if (t == 0xe1 && len >= 8 && memcmp(p + at + 4, "Exif\0", 5) == 0 &&
		    exif_turned(p + at + 10, len - 8))
			return -1;
		if (t == 0xe2 && len >= 14 &&
		    memcmp(p + at + 4, "ICC_PROFILE\0", 12) == 0)
			return -1;
		/* frames of 1 or 3 components: no CMYK to convert */
		if (t >= 0xc0 && t <= 0xcf && t != 0xc4 && t != 0xc8 &&
		    t != 0xcc && (len < 8 || (p[at + 9] != 1 && p[at + 9] != 3)))
			return -1;
		if (!((t >= 0xe1 && t <= 0xef && t != 0xee) || t == 0xfe))
			buf_add(out, (const char *)p + at, len + 2);
		at += len + 2;
		if (t != 0xda)
			continue;
		/* a scan: its entropy-coded bytes, up to the next marker
		 * that is not a stuffed 0 or a restart */
		from = at;
		while (at + 1 < n && !(p[at] == 0xff && p[at + 1] != 0 &&
		    !(p[at + 1] >= 0xd0 && p[at + 1] <= 0xd7)))
			at++;
		if (at + 1 >= n)
			return -1;		/* cut short */
		buf_add(out, (const char *)p + from, at - from);
	}
}

/* What libvips said, as e's error. */
static void
vips_failed(struct entry *e)
{
	char *why = media_vips_why();

	media_set_err(e, "cannot be converted: %s", why);
	free(why);
}

/*
 * The image at width w (0: its own), upright and in sRGB, as every copy of
 * that width is encoded from it: decoded once for all their formats, with
 * JPEG's and WebP's shrink on load. A copy's bytes so depend only on the
 * image, its width, format and quality. The decoding fails on a truncated
 * or corrupt file (libvips 8.14's thumbnail_buffer passes fail_on to the
 * loader only in option_string), so a cut photo is an error, not
 * published with its missing part grey. NULL on error.
 */
static VipsImage *
at_width(struct entry *e, const struct buf *data, int w, int hold)
{
	VipsImage *t = NULL, *held;

	if (vips_thumbnail_buffer(data->ptr, data->len, &t,
	    w ? w : VIPS_MAX_COORD, "height", VIPS_MAX_COORD,
	    "size", VIPS_SIZE_DOWN, "option_string", "fail_on=truncated",
	    NULL) != 0) {
		vips_failed(e);
		return NULL;
	}
	if (!hold)
		return t;
	held = vips_image_copy_memory(t);
	g_object_unref(t);
	if (held == NULL)
		vips_failed(e);
	return held;
}

/* One copy, c, of the image t into the cache, at dst. */
static int
encode_copy(struct media *m, struct entry *e, VipsImage *t,
    const struct copy *c, const char *dst)
{
	struct buf tmp = BUF_INIT;
	char opts[96];
	int rc = -1, wrote;

	buf_printf(&tmp, "%s.%ld.part.%s%s", dst, (long)getpid(),
	    media_fmt_ext[c->f], save_options(m, c->f, c->w, opts, sizeof(opts)));
	wrote = vips_image_write_to_file(t, tmp.ptr, NULL) == 0;
	*strrchr(tmp.ptr, '[') = '\0';		/* the file, without options */
	if (!wrote) {
		vips_failed(e);
		unlink(tmp.ptr);
		goto out;
	}
	if (c->f == MF_WEBP) {
		struct buf w = BUF_INIT;

		if (fs_read(tmp.ptr, &w) == -1 || media_webp_strip(&w) == -1 ||
		    fs_write_atomic(tmp.ptr, w.ptr, w.len) == -1) {
			buf_release(&w);
			media_set_err(e, "%s", "cannot strip the WebP copy's metadata");
			unlink(tmp.ptr);
			goto out;
		}
		buf_release(&w);
	}
	if (rename(tmp.ptr, dst) == -1) {
		media_set_err(e, "cannot write to the image cache: %s",
		    strerror(errno));
		unlink(tmp.ptr);
		goto out;
	}
	rc = 0;
out:
	buf_release(&tmp);
	return rc;
}

/* Makes the copies of one width (c[k].w for the k with todo[k]) from one
 * decoding; clears their todo. 0 or -1. */
static int
encode_width(struct media *m, struct entry *e, const struct buf *data,
    const struct copy *c, char **dst, int *todo, size_t n, int w)
{
	VipsImage *t;
	size_t k, many = 0;
	int rc = 0;

	for (k = 0; k < n; k++)
		many += todo[k] && c[k].w == w;
	if ((t = at_width(e, data, w, many > 1)) == NULL)
		return -1;
	for (k = 0; k < n && rc == 0; k++)
		if (todo[k] && c[k].w == w) {
			todo[k] = 0;
			rc = encode_copy(m, e, t, &c[k], dst[k]);
		}
	g_object_unref(t);
	return rc;
}

/* A JPEG's original, stripped without a new encoding where it can be
 * (media_jpeg_strip), into dst: 1 if done (or failed, in e), 0 to encode
 * it. Its decoding is still checked, by the copies of its widths. */
static int
original_jpeg(struct entry *e, const struct buf *data, const char *dst)
{
	struct buf out = BUF_INIT;
	int done = 0;

	if (media_jpeg_strip(data, &out) == 0) {
		done = 1;
		if (fs_write_atomic(dst, out.ptr, out.len) == -1) {
			media_set_err(e, "cannot write to the image cache: %s",
			    strerror(errno));
			e->failed = 1;
		}
	}
	buf_release(&out);
	return done;
}

static void
encode_one(size_t i, void *arg)
{
	struct media *m = arg;
	struct entry *e = &m->e[i];
	struct copy c[MAX_COPIES];
	char *dst[MAX_COPIES];
	int todo[MAX_COPIES];
	struct buf data = BUF_INIT;
	size_t n, k, done;

	if (!e->encode)
		return;
	if (fs_read(e->path, &data) == -1) {
		media_set_err(e, "cannot read: %s", strerror(errno));
		e->failed = 1;
	} else if (media_vips_ready(NULL) == -1) {
		media_set_err(e, "%s", "libvips cannot be loaded");
		e->failed = 1;
	}
	n = copies(m, &e->img, c);
	for (k = 0; k < n; k++) {
		dst[k] = cache_path(m, &e->img, c[k].f, c[k].w);
		todo[k] = e->encode == 2 || access(dst[k], F_OK) == -1;
	}
	for (k = 0; k < n && !e->failed; k++)
		if (todo[k] && c[k].w == 0 && c[k].f == MF_JPEG &&
		    e->img.fmt == MF_JPEG && original_jpeg(e, &data, dst[k]))
			todo[k] = 0;
	for (k = 0; k < n && !e->failed; k++)
		if (todo[k] && encode_width(m, e, &data, c, dst, todo, n,
		    c[k].w) == -1)
			e->failed = 1;
	for (k = 0; k < n; k++)
		free(dst[k]);
	buf_release(&data);
	done = __atomic_add_fetch(&m->done, 1, __ATOMIC_RELAXED);
	if (m->progress != NULL)
		m->progress(done, m->total, m->parg);
}

/* 1 if every copy of e's image is in the cache. */
static int
all_cached(const struct media *m, const struct entry *e)
{
	struct copy c[MAX_COPIES];
	size_t n = copies(m, &e->img, c), k;
	char *p;
	int ok = 1;

	for (k = 0; k < n && ok; k++) {
		p = cache_path(m, &e->img, c[k].f, c[k].w);
		ok = access(p, F_OK) == 0;
		free(p);
	}
	return ok;
}

static void
publish_file(struct sink *out, const char *src, const char *rel,
    size_t *written)
{
	int changed = 0;

	if (sink_file(out, src, rel, &changed) == 0)
		*written += changed != 0;
}

static void
warn_gps(struct diag *d, const struct entry *e, const char *why)
{
	if (e->img.flags & MEDIA_GPS)
		diag_warn(d, e->path, 0, "holds a GPS position, published "
		    "with it (%s)", why);
}

size_t
media_encode(struct media *m, size_t threads, int force,
    media_progress_fn progress, void *parg, struct diag *d)
{
	size_t i;

	if (m == NULL || m->encoded)
		return 0;
	m->encoded = 1;
	m->total = m->done = 0;
	for (i = 0; i < m->n; i++) {
		struct entry *e = &m->e[i];

		e->encode = 0;
		if (!m->on || e->img.err != NULL ||
		    (e->img.flags & MEDIA_ANIMATED))
			continue;
		if (force || !all_cached(m, e)) {
			e->encode = force ? 2 : 1;
			m->total++;
		}
	}
	if (m->total > 0) {
		if (fs_mkdirs(m->dir) == -1)
			diag_error(d, m->dir, 0, "cannot create: %s",
			    strerror(errno));
		m->progress = progress;
		m->parg = parg;
		pool_for(threads, m->n, encode_one, m);
	}
	return m->total;
}

void
media_publish(struct media *m, struct sink *out, size_t threads, int force, media_progress_fn progress, void *parg,
    size_t *encoded, size_t *written, struct diag *d)
{
	struct copy c[MAX_COPIES];
	struct buf url = BUF_INIT;
	size_t i, k, n;
	char *src;

	*written = 0;
	if (m == NULL)
		return;
	*encoded += media_encode(m, threads, force, progress, parg, d);
	for (i = 0; i < m->n; i++) {
		struct entry *e = &m->e[i];

		if (e->img.err != NULL) {
			diag_error(d, e->path, 0, "%s; not published",
			    e->img.err);
			continue;
		}
		if (!m->on || (e->img.flags & MEDIA_ANIMATED)) {
			if (!m->on)
				warn_gps(d, e, "images: false");
			publish_file(out, e->path, e->img.rel, written);
			continue;
		}
		n = copies(m, &e->img, c);
		for (k = 0; k < n; k++) {
			src = cache_path(m, &e->img, c[k].f, c[k].w);
			buf_clear(&url);
			if (c[k].w == 0)
				buf_adds(&url, e->img.rel);
			else
				media_url(&url, &e->img, c[k].f, c[k].w);
			publish_file(out, src, url.ptr, written);
			free(src);
		}
		if (as_is(m, &e->img)) {
			if (m->keep_originals)
				warn_gps(d, e, "image_keep_originals: true");
			publish_file(out, e->path, e->img.rel, written);
		}
	}
	buf_release(&url);
}
