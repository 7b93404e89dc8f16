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
#include "manifest.h"
#include "media.h"
#include "media_int.h"
#include "mem.h"
#include "output.h"
#include "pool.h"

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
	buf_printf(&p, "%s/%s-%d-%s-q%d-%s.%s", m->dir, hex, w, media_fmt_name[f],
	    w == 0 ? 90 : m->q[f], VIPS_VERSION, media_fmt_ext[f]);
	s = xstrdup(p.ptr);
	buf_release(&p);
	return s;
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
		snprintf(s, n, "[Q=%d,strip,optimize_coding,interlace]", q);
		break;
	case MF_WEBP:
		snprintf(s, n, "[Q=%d,strip]", q);
		break;
	case MF_AVIF:
		/* effort 2 of 9: most of the size for a fraction of the time */
		snprintf(s, n, "[Q=%d,strip,effort=2]", q);
		break;
	default:
		snprintf(s, n, "[strip]");
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

static int
encode_copy(struct media *m, struct entry *e, const struct buf *data,
    const struct copy *c, const char *dst)
{
	struct buf tmp = BUF_INIT;
	VipsImage *t = NULL;
	char opts[96];
	int rc = -1;

	/* upright, in sRGB, no wider than asked: thumbnail does all three */
	if (vips_thumbnail_buffer(data->ptr, data->len, &t,
	    c->w ? c->w : e->img.w, "height", VIPS_MAX_COORD,
	    "size", VIPS_SIZE_DOWN, "fail_on", VIPS_FAIL_ON_TRUNCATED,
	    NULL) != 0)
		goto fail;
	buf_printf(&tmp, "%s.%ld.part.%s%s", dst, (long)getpid(),
	    media_fmt_ext[c->f], save_options(m, c->f, c->w, opts, sizeof(opts)));
	if (vips_image_write_to_file(t, tmp.ptr, NULL) != 0)
		goto fail;
	*strrchr(tmp.ptr, '[') = '\0';
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
	goto out;
fail:
	{
		char *why = media_vips_why();

		media_set_err(e, "cannot be converted: %s", why);
		free(why);
		if (tmp.ptr != NULL && strrchr(tmp.ptr, '[') != NULL) {
			*strrchr(tmp.ptr, '[') = '\0';
			unlink(tmp.ptr);
		}
	}
out:
	if (t != NULL)
		g_object_unref(t);
	buf_release(&tmp);
	return rc;
}

/*
 * Decodes the whole image once, failing on a truncated or corrupt file:
 * thumbnail_buffer in libvips 8.14 leaves fail_on to the loader only for
 * files, and would publish the grey rest of a cut photo.
 */
static int
whole(struct entry *e, const struct buf *data)
{
	VipsImage *im;
	double v;
	int rc;

	im = vips_image_new_from_buffer(data->ptr, data->len, "",
	    "access", VIPS_ACCESS_SEQUENTIAL,
	    "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
	rc = im != NULL && vips_min(im, &v, NULL) == 0 ? 0 : -1;
	if (im != NULL)
		g_object_unref(im);
	if (rc == -1) {
		char *why = media_vips_why();

		media_set_err(e, "cannot be converted: %s", why);
		free(why);
	}
	return rc;
}

static void
encode_one(size_t i, void *arg)
{
	struct media *m = arg;
	struct entry *e = &m->e[i];
	struct copy c[MAX_COPIES];
	struct buf data = BUF_INIT;
	size_t n, k, done;
	char *dst;

	if (!e->encode)
		return;
	if (fs_read(e->path, &data) == -1) {
		media_set_err(e, "cannot read: %s", strerror(errno));
		e->failed = 1;
	} else if (media_vips_ready(NULL) == -1) {
		media_set_err(e, "%s", "libvips cannot be loaded");
		e->failed = 1;
	}
	if (!e->failed && whole(e, &data) == -1)
		e->failed = 1;
	n = copies(m, &e->img, c);
	for (k = 0; k < n && !e->failed; k++) {
		dst = cache_path(m, &e->img, c[k].f, c[k].w);
		if ((e->encode == 2 || access(dst, F_OK) == -1) &&
		    encode_copy(m, e, &data, &c[k], dst) == -1)
			e->failed = 1;
		free(dst);
	}
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
publish_file(const char *src, const char *out_dir, const char *rel,
    struct manifest *man, size_t *written, struct diag *d)
{
	int changed = 0;

	if (output_copy(src, out_dir, rel, &changed, d) == -1)
		return;
	manifest_add(man, rel, 0, 0);
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
media_publish(struct media *m, const char *out_dir, struct manifest *man,
    size_t threads, int force, media_progress_fn progress, void *parg,
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
			publish_file(e->path, out_dir, e->img.rel, man, written,
			    d);
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
			publish_file(src, out_dir, url.ptr, man, written, d);
			free(src);
		}
		if (as_is(m, &e->img)) {
			if (m->keep_originals)
				warn_gps(d, e, "image_keep_originals: true");
			publish_file(e->path, out_dir, e->img.rel, man, written,
			    d);
		}
	}
	buf_release(&url);
}
