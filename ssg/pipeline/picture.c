/*
 * <img> to <picture> in a rendered page (see picture.h).
 */
#include <sys/stat.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "escape.h"
#include "fsutil.h"
#include "media.h"
#include "picture.h"

struct attr {
	const char	*name, *raw;	/* raw: name="value", as written */
	size_t		 nlen, rawlen;
	const char	*val;		/* the value without its quotes */
	size_t		 vlen;
};

#define MAX_ATTRS	32

static int
starts_ci(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - s) >= n && strncasecmp(s, word, n) == 0;
}

/* After the element starting at s (at '<'), where the text it holds
 * ends: the closing tag's end, or end. */
static const char *
skip_to(const char *s, const char *end, const char *close)
{
	size_t n = strlen(close);

	for (; s + n <= end; s++)
		if (strncasecmp(s, close, n) == 0)
			return s + n;
	return end;
}

/* Reads the attributes of the tag whose name ends at s; returns the tag's
 * end (after '>'), or NULL when it has none or too many attributes. */
static const char *
read_attrs(const char *s, const char *end, struct attr *a, size_t *na)
{
	*na = 0;
	while (s < end) {
		while (s < end && (isspace((unsigned char)*s) || *s == '/'))
			s++;
		if (s >= end)
			return NULL;
		if (*s == '>')
			return s + 1;
		if (*na == MAX_ATTRS)
			return NULL;
		a[*na].name = a[*na].raw = s;
		while (s < end && !isspace((unsigned char)*s) && *s != '=' &&
		    *s != '>' && *s != '/')
			s++;
		a[*na].nlen = (size_t)(s - a[*na].name);
		a[*na].val = s;
		a[*na].vlen = 0;
		if (s < end && *s == '=') {
			s++;
			if (s < end && (*s == '"' || *s == '\'')) {
				const char *q = memchr(s + 1, *s, (size_t)(end - s - 1));

				if (q == NULL)
					return NULL;
				a[*na].val = s + 1;
				a[*na].vlen = (size_t)(q - s - 1);
				s = q + 1;
			} else {
				a[*na].val = s;
				while (s < end && !isspace((unsigned char)*s) &&
				    *s != '>')
					s++;
				a[*na].vlen = (size_t)(s - a[*na].val);
			}
		}
		a[*na].rawlen = (size_t)(s - a[*na].raw);
		(*na)++;
	}
	return NULL;
}

static const struct attr *
find(const struct attr *a, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].nlen == strlen(name) &&
		    strncasecmp(a[i].name, name, a[i].nlen) == 0)
			return &a[i];
	return NULL;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int
picture_resolve(struct buf *out, const char *src, size_t n,
    const char *site_url, const char *base, const char *page_url)
{
	struct buf p = BUF_INIT;
	size_t i, sl = strlen(site_url), bl = strlen(base);
	const char *q;
	char *seg, *save, *s;
	int rc = -1;

	/* &amp; is the only entity a path is likely to hold */
	for (i = 0; i < n; i++) {
		if (src[i] == '?' || src[i] == '#')
			break;
		if (src[i] == '&' && i + 5 <= n && strncmp(src + i, "&amp;", 5) == 0) {
			buf_add(&p, "&", 1);
			i += 4;
		} else if (src[i] == '%' && i + 2 < n &&
		    hexval(src[i + 1]) >= 0 && hexval(src[i + 2]) >= 0) {
			char c = (char)(hexval(src[i + 1]) << 4 | hexval(src[i + 2]));

			buf_add(&p, &c, 1);
			i += 2;
		} else
			buf_add(&p, src + i, 1);
	}
	if (p.len == 0)
		goto out;
	s = p.ptr;
	if (sl > 0 && strncmp(s, site_url, sl) == 0 && s[sl] == '/')
		s += sl;
	else if (strstr(s, "://") != NULL || strncmp(s, "//", 2) == 0 ||
	    strncasecmp(s, "data:", 5) == 0)
		goto out;
	buf_clear(out);
	if (*s == '/') {
		if (bl > 0 && strncmp(s, base, bl) == 0 && s[bl] == '/')
			s += bl;
	} else {
		/* relative to the page's folder */
		q = strrchr(page_url, '/');
		if (q != NULL)
			buf_add(out, page_url, (size_t)(q - page_url + 1));
	}
	buf_adds(out, s);
	/* normalise: no empty, "." or ".." segments; ".." above the root
	 * is no file of the site */
	buf_clear(&p);
	for (seg = strtok_r(out->ptr, "/", &save); seg != NULL;
	    seg = strtok_r(NULL, "/", &save)) {
		if (strcmp(seg, ".") == 0)
			continue;
		if (strcmp(seg, "..") == 0) {
			char *slash;

			if (p.len == 0)
				goto out;
			slash = strrchr(p.ptr, '/');
			p.len = slash ? (size_t)(slash - p.ptr) : 0;
			p.ptr[p.len] = '\0';
			continue;
		}
		if (p.len > 0)
			buf_add(&p, "/", 1);
		buf_adds(&p, seg);
	}
	if (p.len == 0)
		goto out;
	buf_clear(out);
	buf_add(out, p.ptr, p.len);
	rc = 0;
out:
	buf_release(&p);
	return rc;
}

static void
srcset(struct buf *out, const struct picture_ctx *c,
    const struct media_img *im, enum media_fmt f)
{
	struct buf u = BUF_INIT;
	int k;

	for (k = 0; k < im->nwidths; k++) {
		buf_clear(&u);
		buf_printf(&u, "%s/", c->base);
		media_url(&u, im, f, im->widths[k]);
		if (k > 0)
			buf_adds(out, ", ");
		esc_html(out, u.ptr, u.len);
		buf_printf(out, " %dw", im->widths[k]);
	}
	buf_release(&u);
}

/* Of im's copies, the widest no wider than want (else the narrowest). */
static int
copy_width(const struct media_img *im, int want)
{
	int k, w = im->widths[0];

	for (k = 0; k < im->nwidths; k++)
		if (im->widths[k] <= want)
			w = im->widths[k];
	return w;
}

/* A copy's height, as libvips rounds it when it resizes to width w. */
static int
copy_height(const struct media_img *im, int w)
{
	int h = (int)((double)im->h * w / im->w + 0.5);

	return h > 0 ? h : 1;
}

/* The author's attributes that are not ones the copies replace. */
static void
other_attrs(struct buf *out, const struct attr *a, size_t na)
{
	static const char *const ours[] = { "src", "srcset", "sizes",
	    "decoding", "fetchpriority" };
	size_t i, k;

	for (i = 0; i < na; i++) {
		for (k = 0; k < sizeof(ours) / sizeof(ours[0]); k++)
			if (a[i].nlen == strlen(ours[k]) &&
			    strncasecmp(a[i].name, ours[k], a[i].nlen) == 0)
				break;
		if (k < sizeof(ours) / sizeof(ours[0]))
			continue;
		buf_adds(out, " ");
		buf_add(out, a[i].raw, a[i].rawlen);
	}
}

/* A feed's <img>: one absolute src, the copy near 960 px. */
static void
feed_img(struct buf *out, const struct picture_ctx *c,
    const struct media_img *im, const struct attr *a, size_t na)
{
	struct buf u = BUF_INIT;
	int w = copy_width(im, 960);

	buf_printf(&u, "%s/", c->site_url);
	media_url(&u, im, im->fallback, w);
	buf_adds(out, "<img src=\"");
	esc_html(out, u.ptr, u.len);
	buf_adds(out, "\"");
	if (find(a, na, "width") == NULL && find(a, na, "height") == NULL)
		buf_printf(out, " width=\"%d\" height=\"%d\"", w,
		    copy_height(im, w));
	other_attrs(out, a, na);
	buf_adds(out, ">");
	buf_release(&u);
}

int
picture_copy(const struct picture_ctx *c, const char *src,
    enum image_use use, struct buf *url, int *w, int *h)
{
	struct buf rel = BUF_INIT;
	const struct media_img *im;
	int rc = -1;

	if (!media_on(c->m) || picture_resolve(&rel, src, strlen(src),
	    c->site_url, c->base, c->page_url) == -1 || !media_wants(rel.ptr))
		goto out;
	im = media_find(c->m, rel.ptr);
	if (im == NULL || im->err != NULL || (im->flags & MEDIA_ANIMATED) ||
	    im->nwidths == 0)
		goto out;
	*w = copy_width(im, use == IMAGE_SHARE ? 1600 : 960);
	*h = copy_height(im, *w);
	buf_adds(url, "/");
	media_url(url, im, im->fallback, *w);
	rc = 0;
out:
	buf_release(&rel);
	return rc;
}

long long
picture_bytes(const struct picture_ctx *c, const char *src,
    enum image_use use, const char *static_dir)
{
	struct buf rel = BUF_INIT;
	const struct media_img *im;
	struct stat st;
	char *path;
	long long n = -1;

	if (picture_resolve(&rel, src, strlen(src), c->site_url, c->base,
	    c->page_url) == -1)
		goto out;
	/* only an image whose bytes every page's fingerprint holds (see
	 * media_hash), so that a feed is written again when its size
	 * changes: not an SVG */
	if (!media_wants(rel.ptr) || (im = media_find(c->m, rel.ptr)) == NULL)
		goto out;
	if (media_on(c->m) && im->err == NULL &&
	    !(im->flags & MEDIA_ANIMATED) && im->nwidths > 0) {
		n = media_copy_bytes(c->m, im, im->fallback, copy_width(im,
		    use == IMAGE_SHARE ? 1600 : 960));
		goto out;
	}
	/* published as it is, from static/ */
	path = path_join(static_dir, rel.ptr);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		n = (long long)st.st_size;
	free(path);
out:
	buf_release(&rel);
	return n;
}

/* The <picture> for an <img> with attributes a, of image im. */
static void
picture(struct buf *out, const struct picture_ctx *c,
    const struct media_img *im, const struct attr *a, size_t na, int first)
{
	const enum media_fmt *f;
	const char *sizes = media_sizes(c->m);
	struct buf u = BUF_INIT;
	size_t nf, i;
	int mid = 0;

	f = media_formats(c->m, &nf);
	buf_adds(out, "<picture>");
	for (i = 0; i < nf; i++) {
		if (f[i] == im->fallback)
			continue;
		buf_printf(out, "<source type=\"%s\" srcset=\"",
		    media_mime(f[i]));
		srcset(out, c, im, f[i]);
		buf_adds(out, "\" sizes=\"");
		esc_html(out, sizes, strlen(sizes));
		buf_adds(out, "\">");
	}
	/* src: the copy nearest 960 px, what a browser without srcset
	 * shows best in a column of text */
	mid = copy_width(im, 960);
	buf_printf(&u, "%s/", c->base);
	media_url(&u, im, im->fallback, mid);
	buf_adds(out, "<img src=\"");
	esc_html(out, u.ptr, u.len);
	buf_adds(out, "\" srcset=\"");
	srcset(out, c, im, im->fallback);
	buf_adds(out, "\" sizes=\"");
	esc_html(out, sizes, strlen(sizes));
	buf_adds(out, "\"");
	/* the author's own size, if given, is the one shown */
	if (find(a, na, "width") == NULL && find(a, na, "height") == NULL)
		buf_printf(out, " width=\"%d\" height=\"%d\"", im->w, im->h);
	/* the author's other attributes as written (alt, title, class) */
	other_attrs(out, a, na);
	if (find(a, na, "loading") == NULL)
		buf_adds(out, first ? " fetchpriority=\"high\"" :
		    " loading=\"lazy\"");
	buf_adds(out, " decoding=\"async\"></picture>");
	buf_release(&u);
}

size_t
picture_rewrite(struct buf *out, const char *html, size_t n,
    const struct picture_ctx *c)
{
	const char *s = html, *end = html + n, *lt, *tag_end;
	struct attr a[MAX_ATTRS];
	const struct attr *src;
	const struct media_img *im;
	struct buf rel = BUF_INIT, srcz = BUF_INIT;
	size_t na, done = 0;
	int in_picture = 0;

	while (s < end && (lt = memchr(s, '<', (size_t)(end - s))) != NULL) {
		buf_add(out, s, (size_t)(lt - s));
		s = lt;
		if (starts_ci(s, end, "<!--")) {
			tag_end = skip_to(s + 4, end, "-->");
		} else if (starts_ci(s, end, "<script")) {
			tag_end = skip_to(s + 7, end, "</script>");
		} else if (starts_ci(s, end, "<pre") &&
		    (s + 4 == end || !isalnum((unsigned char)s[4]))) {
			tag_end = skip_to(s + 4, end, "</pre>");
		} else if (starts_ci(s, end, "<textarea")) {
			tag_end = skip_to(s + 9, end, "</textarea>");
		} else if (starts_ci(s, end, "<picture")) {
			in_picture = 1;
			tag_end = s + 8;
		} else if (starts_ci(s, end, "</picture")) {
			in_picture = 0;
			tag_end = s + 9;
		} else if (starts_ci(s, end, "<img") && s + 4 < end &&
		    (isspace((unsigned char)s[4]) || s[4] == '/') &&
		    !in_picture &&
		    (tag_end = read_attrs(s + 4, end, a, &na)) != NULL &&
		    (src = find(a, na, "src")) != NULL &&
		    find(a, na, "srcset") == NULL &&
		    picture_resolve(&rel, src->val, src->vlen, c->site_url,
		    c->base, c->page_url) == 0 && media_wants(rel.ptr)) {
			buf_clear(&srcz);
			buf_add(&srcz, src->val, src->vlen);
			im = media_find(c->m, rel.ptr);
			if (c->report != NULL)
				c->report(c->arg, srcz.ptr, im);
			if (im != NULL && im->err == NULL &&
			    !(im->flags & MEDIA_ANIMATED) && im->nwidths > 0) {
				if (c->feed)
					feed_img(out, c, im, a, na);
				else
					picture(out, c, im, a, na, done == 0);
				done++;
				s = tag_end;
				continue;
			}
		} else
			tag_end = s + 1;
		buf_add(out, s, (size_t)(tag_end - s));
		s = tag_end;
	}
	if (s < end)
		buf_add(out, s, (size_t)(end - s));
	buf_release(&rel);
	buf_release(&srcz);
	return done;
}
