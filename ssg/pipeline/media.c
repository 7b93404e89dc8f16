/*
 * The site's images (see media.h): what each is, read once and cached by
 * its stat; its copies, encoded once and cached by content.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "manifest.h"
#include "media.h"
#include "mem.h"
#include "output.h"
#include "pool.h"

#include "media_int.h"

#include "lazy_vips.h"

/* the quality of a copy when site.yaml names none, by format */
static const int default_q[MF_NFMT] = { 0, 82, 0, 75, 50, 0 };
static const int default_widths[] = { 480, 960, 1600 };
const char *const media_fmt_name[MF_NFMT] = {
	"", "jpeg", "png", "webp", "avif", "gif" };
const char *const media_fmt_ext[MF_NFMT] = {
	"", "jpg", "png", "webp", "avif", "gif" };
static const char *const fmt_mime[MF_NFMT] = {
	"", "image/jpeg", "image/png", "image/webp", "image/avif",
	"image/gif" };

static pthread_mutex_t vips_lock = PTHREAD_MUTEX_INITIALIZER;
static int vips_state;		/* 0 not tried, 1 ready, -1 failed */

/* libvips' own threads stopped before the process ends, so that none is
 * left for exit() and the leak checker to find. */
static void
vips_stop(void)
{
	vips_shutdown();
}

/* libvips, loaded and started once; 0 or -1 (recorded in d). */
int
media_vips_ready(struct diag *d)
{
	pthread_mutex_lock(&vips_lock);
	if (vips_state == 0) {
		vips_state = -1;
		/* its warnings repeat the error ssg reports */
		setenv("VIPS_WARNING", "0", 0);
		if (lazy_vips_load(d) == 0 && vips_init("ssg") == 0) {
			/* ssg runs one image per core itself */
			vips_concurrency_set(1);
			vips_cache_set_max(0);
			/* no run-time compiled SIMD (liborc): two threads
			 * compiling at once crashed in orc_code_allocate_codemem
			 * (one build in a few hundred); libvips' C paths make
			 * the same pixels */
			vips_vector_set_enabled(0);
			vips_state = 1;
			atexit(vips_stop);
		}
	}
	pthread_mutex_unlock(&vips_lock);
	return vips_state == 1 ? 0 : -1;
}

static enum media_fmt
fmt_by_name(const char *s)
{
	int f;

	if (strcasecmp(s, "jpg") == 0)
		return MF_JPEG;
	for (f = MF_JPEG; f < MF_NFMT; f++)
		if (strcasecmp(s, media_fmt_name[f]) == 0)
			return (enum media_fmt)f;
	return MF_NONE;
}

static enum media_fmt
fmt_by_ext(const char *rel)
{
	const char *x = strrchr(rel, '.');

	if (x == NULL || strchr(x, '/') != NULL)
		return MF_NONE;
	if (strcasecmp(x, ".jpeg") == 0)
		return MF_JPEG;
	return fmt_by_name(x + 1);
}

int
media_wants(const char *rel)
{
	return fmt_by_ext(rel) != MF_NONE;
}

static int
parse_int(const char *s, long long lo, long long hi, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int
cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

struct media *
media_new(const struct site_config *c, const char *cache_dir, struct diag *d)
{
	struct media *m = xcalloc(1, sizeof(*m));
	size_t i;
	long long v;
	int bad = 0, f;

	m->on = c->images;
	m->keep_originals = c->image_keep_originals;
	m->max_pixels = c->image_max_pixels;
	m->sizes = xstrdup(c->image_sizes);
	memcpy(m->q, default_q, sizeof(m->q));
	for (i = 0; i < c->image_widths.n; i++) {
		if (parse_int(c->image_widths.v[i], 16, 8192, &v) == -1) {
			diag_error(d, "site.yaml", 0, "image_widths: '%s' is "
			    "not a width from 16 to 8192", c->image_widths.v[i]);
			bad = 1;
		} else if (m->nwidths < MEDIA_MAX_WIDTHS)
			m->widths[m->nwidths++] = (int)v;
	}
	if (c->image_widths.n == 0) {
		memcpy(m->widths, default_widths, sizeof(default_widths));
		m->nwidths = sizeof(default_widths) / sizeof(default_widths[0]);
	}
	qsort(m->widths, (size_t)m->nwidths, sizeof(int), cmp_int);
	for (i = 0; i < c->image_formats.n; i++) {
		f = fmt_by_name(c->image_formats.v[i]);
		if (f == MF_NONE || f == MF_GIF) {
			diag_error(d, "site.yaml", 0, "image_formats: '%s' is "
			    "not avif, webp, jpeg or png", c->image_formats.v[i]);
			bad = 1;
		} else
			m->formats[m->nformats++] = (enum media_fmt)f;
	}
	if (c->image_formats.n == 0) {
		m->formats[m->nformats++] = MF_AVIF;
		m->formats[m->nformats++] = MF_WEBP;
	}
	for (i = 0; i + 1 < c->image_quality.n; i += 2) {
		f = fmt_by_name(c->image_quality.v[i]);
		if (f == MF_NONE || f == MF_GIF || f == MF_PNG ||
		    parse_int(c->image_quality.v[i + 1], 1, 100, &v) == -1) {
			diag_error(d, "site.yaml", 0, "image_quality: '%s: %s' "
			    "is not a quality from 1 to 100 for avif, webp or "
			    "jpeg", c->image_quality.v[i],
			    c->image_quality.v[i + 1]);
			bad = 1;
		} else
			m->q[f] = (int)v;
	}
	m->dir = path_join(cache_dir, "images");
	m->list = path_join(cache_dir, "images.txt");
	if (bad) {
		media_free(m);
		return NULL;
	}
	return m;
}

void
media_free(struct media *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->e[i].img.rel);
		free(m->e[i].img.err);
		free(m->e[i].path);
	}
	free(m->e);
	free(m->sizes);
	free(m->dir);
	free(m->list);
	free(m);
}

void
media_add(struct media *m, const char *path, const char *rel,
    const struct stat *st)
{
	struct entry *e;

	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->e = xrealloc(m->e, m->cap * sizeof(*m->e));
	}
	e = &m->e[m->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->img.rel = xstrdup(rel);
	e->size = st->st_size;
	e->mtime = st->st_mtim;
}

/* The widths a reader gets of e's image, and its <img>'s format. */
static void
plan_copies(const struct media *m, struct media_img *im)
{
	int i;

	im->nwidths = 0;
	for (i = 0; i < m->nwidths && m->widths[i] < im->w; i++)
		im->widths[im->nwidths++] = m->widths[i];
	/* never wider than the original: its own width stands in for the
	 * configured ones beyond it */
	if (im->nwidths < MEDIA_MAX_WIDTHS && (im->nwidths == 0 ||
	    im->nwidths < m->nwidths))
		im->widths[im->nwidths++] = im->w;
	switch (im->fmt) {
	case MF_PNG:
	case MF_GIF:
		im->fallback = MF_PNG;
		break;
	case MF_WEBP:
		im->fallback = MF_WEBP;
		break;
	default:	/* JPEG, and AVIF, which not every browser shows */
		im->fallback = MF_JPEG;
		break;
	}
}

static int
cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->img.rel,
	    ((const struct entry *)b)->img.rel);
}

/* The entry of rel: media_probe sorts them by it. */
static struct entry *
find_entry(const struct media *m, const char *rel)
{
	struct entry key;

	key.img.rel = (char *)rel;
	return m->n == 0 ? NULL :
	    bsearch(&key, m->e, m->n, sizeof(*m->e), cmp_entry);
}

/* The probe cache: "size sec nsec hash w h fmt flags rel" a line. */
static void
load_list(struct media *m)
{
	struct buf t = BUF_INIT;
	char *line, *next, rel[4096];
	long long size, sec, nsec;
	uint64_t hash;
	int w, h, fmt, n;
	unsigned int flags;
	struct entry *e;

	if (fs_read(m->list, &t) == -1)
		return;
	for (line = t.ptr; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (sscanf(line, "%lld %lld %lld %" SCNx64 " %d %d %d %x %n",
		    &size, &sec, &nsec, &hash, &w, &h, &fmt, &flags, &n) < 8 ||
		    fmt <= MF_NONE || fmt >= MF_NFMT || w <= 0 || h <= 0 ||
		    strlen(line + n) >= sizeof(rel))
			continue;
		xsnprintf(rel, sizeof(rel), "%s", line + n);
		if ((e = find_entry(m, rel)) == NULL || e->cached ||
		    e->size != size || e->mtime.tv_sec != sec ||
		    e->mtime.tv_nsec != nsec)
			continue;
		e->img.hash = hash;
		e->img.w = w;
		e->img.h = h;
		e->img.fmt = (enum media_fmt)fmt;
		e->img.flags = flags;
		e->cached = 1;
	}
	buf_release(&t);
}

static void
save_list(struct media *m)
{
	struct buf t = BUF_INIT;
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct entry *e = &m->e[i];

		if (e->img.err != NULL || strchr(e->img.rel, '\n') != NULL)
			continue;
		buf_printf(&t, "%lld %lld %ld %016" PRIx64 " %d %d %d %x %s\n",
		    (long long)e->size, (long long)e->mtime.tv_sec,
		    (long)e->mtime.tv_nsec, e->img.hash, e->img.w, e->img.h,
		    (int)e->img.fmt, e->img.flags, e->img.rel);
	}
	if (fs_mkparents(m->list) == 0)
		(void)fs_write_cache(m->list, t.ptr ? t.ptr : "", t.len);
	buf_release(&t);
}

char *
media_vips_why(void)
{
	const char *s = vips_error_buffer();
	size_t n = strlen(s);
	char *why;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	why = xmalloc(n + 1);
	memcpy(why, s, n);
	why[n] = '\0';
	/* one line: the first of libvips's messages says it */
	if (strchr(why, '\n') != NULL)
		*strchr(why, '\n') = '\0';
	vips_error_clear();
	return why;
}

void
media_set_err(struct entry *e, const char *fmt, const char *arg)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, fmt, arg);
	free(e->img.err);
	e->img.err = xstrdup(b.ptr);
	buf_release(&b);
}

static enum media_fmt
fmt_by_loader(const char *loader)
{
	static const char *const pre[] = { "", "jpegload", "pngload",
	    "webpload", "heifload", "gifload" };
	int f;

	for (f = MF_JPEG; f < MF_NFMT; f++)
		if (strncmp(loader, pre[f], strlen(pre[f])) == 0)
			return (enum media_fmt)f;
	return MF_NONE;
}

/* What one file is: its hash, and its header as libvips reads it. */
static void
probe_one(size_t i, void *arg)
{
	struct media *m = arg;
	struct entry *e = &m->e[i];
	struct buf data = BUF_INIT;
	VipsImage *im;
	const char *loader = "";

	if (e->cached)
		return;
	if (fs_read(e->path, &data) == -1) {
		media_set_err(e, "cannot read: %s", strerror(errno));
		return;
	}
	e->img.hash = hash64(data.ptr, data.len);
	if (media_vips_ready(NULL) == -1) {
		media_set_err(e, "%s", "libvips cannot be loaded");
		goto out;
	}
	im = vips_image_new_from_buffer(data.ptr, data.len, "", NULL);
	if (im == NULL) {
		char *why = media_vips_why();

		media_set_err(e, "not an image libvips can read (%s)", why);
		free(why);
		goto out;
	}
	(void)vips_image_get_string(im, "vips-loader", &loader);
	e->img.fmt = fmt_by_loader(loader);
	e->img.w = vips_image_get_width(im);
	e->img.h = vips_image_get_height(im);
	if (vips_image_get_orientation_swap(im)) {
		int t = e->img.w;

		e->img.w = e->img.h;
		e->img.h = t;
	}
	if (vips_image_get_typeof(im, "exif-ifd3-GPSLatitude") != 0 ||
	    vips_image_get_typeof(im, "exif-ifd3-GPSLongitude") != 0)
		e->img.flags |= MEDIA_GPS;
	if (vips_image_get_typeof(im, VIPS_META_EXIF_NAME) != 0 ||
	    vips_image_get_typeof(im, VIPS_META_XMP_NAME) != 0 ||
	    vips_image_get_typeof(im, VIPS_META_IPTC_NAME) != 0)
		e->img.flags |= MEDIA_META;
	if (vips_image_get_typeof(im, VIPS_META_N_PAGES) != 0 &&
	    vips_image_get_n_pages(im) > 1)
		e->img.flags |= MEDIA_ANIMATED;
	g_object_unref(im);
	if (e->img.fmt == MF_NONE)
		media_set_err(e, "a format ssg does not publish as an image (%s)",
		    loader);
out:
	buf_release(&data);
}

void
media_probe(struct media *m, size_t threads)
{
	size_t i, miss = 0;

	/* by name: the cache's lines and every <img> find theirs quickly */
	if (m->n > 1)
		qsort(m->e, m->n, sizeof(*m->e), cmp_entry);
	load_list(m);
	for (i = 0; i < m->n; i++)
		miss += !m->e[i].cached;
	if (miss > 0) {
		pool_for(threads, m->n, probe_one, m);
		save_list(m);
	}
	for (i = 0; i < m->n; i++) {
		struct media_img *im = &m->e[i].img;

		if (im->err == NULL && (long long)im->w * im->h > m->max_pixels) {
			struct buf b = BUF_INIT;

			buf_printf(&b, "%d x %d pixels, more than image_max_pixels "
			    "(%lld)", im->w, im->h, m->max_pixels);
			im->err = xstrdup(b.ptr);
			buf_release(&b);
		}
		if (im->err == NULL)
			plan_copies(m, im);
	}
}

uint64_t
media_hash(const struct media *m)
{
	struct buf k = BUF_INIT;
	uint64_t h;
	size_t i;

	if (m == NULL)
		return 0;
	for (i = 0; i < m->n; i++) {
		const struct media_img *im = &m->e[i].img;

		hash_field_str(&k, im->rel);
		hash_field_u64(&k, im->hash);
		hash_field_u64(&k, (uint64_t)im->w << 32 | (uint32_t)im->h);
		hash_field_u64(&k, (uint64_t)im->fmt << 8 | im->flags);
		hash_field_u64(&k, im->err != NULL);
	}
	h = hash64(k.ptr ? k.ptr : "", k.len);
	buf_release(&k);
	return h;
}

const struct media_img *
media_find(const struct media *m, const char *rel)
{
	const struct entry *e = m != NULL ? find_entry(m, rel) : NULL;

	return e != NULL ? &e->img : NULL;
}

int
media_on(const struct media *m)
{
	return m != NULL && m->on;
}

const enum media_fmt *
media_formats(const struct media *m, size_t *n)
{
	*n = m->nformats;
	return m->formats;
}

const char *
media_sizes(const struct media *m)
{
	return m->sizes;
}

const char *
media_mime(enum media_fmt f)
{
	return fmt_mime[f];
}

void
media_url(struct buf *out, const struct media_img *im, enum media_fmt f,
    int w)
{
	const char *dot = strrchr(im->rel, '.');
	char hex[17];

	hash_hex(im->hash, hex);
	buf_add(out, im->rel, (size_t)(dot - im->rel));
	buf_printf(out, "-%d.%.8s.%s", w, hex, media_fmt_ext[f]);
}

