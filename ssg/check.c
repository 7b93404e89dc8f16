#include "check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "fsutil.h"
#include "mem.h"

struct checker {
	const char	*out_dir;
	const char	*site_url;
	const char	*base;
	FILE		*out;
	size_t		 problems, pages, links;
};

/* The value of each href="..." / src="..." attribute, in order. */
static const char *
next_ref(const char *s, const char **end)
{
	const char *p;
	char q;

	for (p = s; (p = strpbrk(p, "hs")) != NULL; p++) {
		size_t n;

		if (strncasecmp(p, "href=", 5) == 0)
			n = 5;
		else if (strncasecmp(p, "src=", 4) == 0)
			n = 4;
		else
			continue;
		if (p > s && !strchr(" \t\n\r", p[-1]))
			continue;
		q = p[n];
		if (q != '"' && q != '\'')
			continue;
		*end = strchr(p + n + 1, q);
		if (*end == NULL)
			return NULL;
		return p + n + 1;
	}
	return NULL;
}

/* 1 if the HTML text has an element with id (or name) equal to frag. */
static int
has_id(const char *html, const char *frag)
{
	struct buf pat = BUF_INIT;
	int found;

	buf_printf(&pat, "id=\"%s\"", frag);
	found = strstr(html, pat.ptr) != NULL;
	if (!found) {
		buf_clear(&pat);
		buf_printf(&pat, "name=\"%s\"", frag);
		found = strstr(html, pat.ptr) != NULL;
	}
	buf_release(&pat);
	return found;
}

/* Percent-decoding, enough for the paths a site has. */
static void
url_decode(struct buf *out, const char *s, size_t n)
{
	size_t i;
	unsigned v;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
		    isxdigit((unsigned char)s[i + 2]) &&
		    sscanf(s + i + 1, "%2x", &v) == 1) {
			buf_addc(out, (int)v);
			i += 2;
		} else
			buf_addc(out, s[i]);
	}
}

/* 1 if s starts with a URL scheme such as "https:" or "mailto:". */
static int
has_scheme(const char *s)
{
	const char *p = s;

	if (!isalpha((unsigned char)*p))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	return *p == ':';
}

/* The file a site path names, or NULL. Caller frees. */
static char *
resolve(const struct checker *c, const char *path)
{
	struct buf p = BUF_INIT;
	char *full;

	if (strstr(path, "..") != NULL)
		return NULL;
	full = path_join(c->out_dir, path + 1);
	if (fs_is_file(full))
		return full;
	buf_adds(&p, full);
	free(full);
	if (p.len && p.ptr[p.len - 1] != '/')
		buf_addc(&p, '/');
	buf_adds(&p, "index.html");
	if (fs_is_file(p.ptr))
		return buf_detach(&p, NULL);
	buf_release(&p);
	return NULL;
}

static void
problem(struct checker *c, const char *page, const char *link, const char *why)
{
	fprintf(c->out, "%s: %s: %s\n", page, link, why);
	c->problems++;
}

static void
check_ref(struct checker *c, const char *page_rel, const char *page_url,
    const char *html, const char *ref, size_t n)
{
	struct buf link = BUF_INIT, path = BUF_INIT, frag = BUF_INIT;
	struct buf target = BUF_INIT;
	const char *hash, *q;
	char *file;
	size_t blen = strlen(c->base), ulen = strlen(c->site_url);

	buf_add(&link, ref, n);
	c->links++;
	/* a link to the site's own absolute URL is internal */
	if (ulen > 0 && strncmp(link.ptr, c->site_url, ulen) == 0 &&
	    (link.ptr[ulen] == '/' || link.ptr[ulen] == '\0')) {
		buf_adds(&path, c->base);
		buf_adds(&path, link.ptr + ulen);
	} else if (link.ptr[0] == '\0' || has_scheme(link.ptr) ||
	    strncmp(link.ptr, "//", 2) == 0)
		goto out;	/* outside links (http:, mailto: ...) */
	else if (link.ptr[0] == '#' || link.ptr[0] == '/')
		buf_adds(&path, link.ptr);
	else {
		/* relative to the page's folder */
		const char *slash = strrchr(page_url, '/');

		buf_add(&path, page_url, slash ? (size_t)(slash - page_url) + 1 : 0);
		buf_adds(&path, link.ptr);
	}
	hash = strchr(path.ptr, '#');
	if (hash) {
		buf_adds(&frag, hash + 1);
		buf_truncate(&path, (size_t)(hash - path.ptr));
	}
	if ((q = strchr(path.ptr, '?')) != NULL)
		buf_truncate(&path, (size_t)(q - path.ptr));
	if (path.len == 0) {
		/* same page */
		if (frag.len && !has_id(html, frag.ptr))
			problem(c, page_rel, link.ptr, "no element with this id");
		goto out;
	}
	if (blen > 0) {
		if (strncmp(path.ptr, c->base, blen) != 0 ||
		    (path.ptr[blen] != '/' && path.ptr[blen] != '\0')) {
			problem(c, page_rel, link.ptr, "outside the site's "
			    "base path");
			goto out;
		}
		memmove(path.ptr, path.ptr + blen, path.len - blen + 1);
		path.len -= blen;
		if (path.len == 0)
			buf_addc(&path, '/');
	}
	url_decode(&target, path.ptr, path.len);
	if ((file = resolve(c, target.ptr)) == NULL) {
		problem(c, page_rel, link.ptr, "no such file in the output");
		goto out;
	}
	if (frag.len) {
		struct buf other = BUF_INIT;

		if (fs_read(file, &other) == 0 && !has_id(other.ptr, frag.ptr))
			problem(c, page_rel, link.ptr, "no element with this id");
		buf_release(&other);
	}
	free(file);
out:
	buf_release(&link);
	buf_release(&path);
	buf_release(&frag);
	buf_release(&target);
}

static int
check_page(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct checker *c = arg;
	struct buf html = BUF_INIT, url = BUF_INIT;
	const char *p, *ref, *end;

	(void)st;
	if (strcmp(path_ext(rel), "html") != 0)
		return 0;
	if (fs_read(path, &html) == -1) {
		problem(c, rel, "", "cannot read");
		return 0;
	}
	c->pages++;
	/* the page's own URL, to resolve relative links */
	buf_printf(&url, "%s/%s", c->base, rel);
	for (p = html.ptr; (ref = next_ref(p, &end)) != NULL; p = end + 1)
		check_ref(c, rel, url.ptr, html.ptr, ref, (size_t)(end - ref));
	buf_release(&html);
	buf_release(&url);
	return 0;
}

size_t
check_links(const char *out_dir, const char *site_url, const char *base,
    FILE *out, size_t *pages, size_t *links)
{
	struct checker c;

	memset(&c, 0, sizeof(c));
	c.out_dir = out_dir;
	c.site_url = site_url;
	c.base = base;
	c.out = out;
	fs_walk(out_dir, check_page, &c);
	if (pages)
		*pages = c.pages;
	if (links)
		*links = c.links;
	return c.problems;
}
