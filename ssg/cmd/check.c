#include "check.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>


#include "buf.h"
#include "fsutil.h"
#include "mem.h"
#include "lazy_curl.h"

struct checker {
	const char	*out_dir;
	const char	*site_url;
	const char	*base;
	FILE		*out;
	size_t		 problems, pages, links;
};

/* The value of each href="..." / src="..." / srcset="..." attribute, in
 * order; *set tells a srcset (a list of "URL width" candidates). */
static const char *
next_ref_set(const char *s, const char **end, int *set)
{
	const char *p;
	char q;

	for (p = s; (p = strpbrk(p, "hs")) != NULL; p++) {
		size_t n;

		*set = 0;
		if (strncasecmp(p, "href=", 5) == 0)
			n = 5;
		else if (strncasecmp(p, "src=", 4) == 0)
			n = 4;
		else if (strncasecmp(p, "srcset=", 7) == 0) {
			n = 7;
			*set = 1;
		} else
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

/* The same for href and src only (the external link check). */
static const char *
next_ref(const char *s, const char **end)
{
	const char *r;
	int set;

	while ((r = next_ref_set(s, end, &set)) != NULL && set)
		s = *end + 1;
	return r;
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

/*
 * Folds "." and ".." segments of an absolute site path in place, so that
 * relative links (../x/, ./img.png) name what a browser would fetch.
 * Returns -1 when ".." climbs above the root.
 */
static int
fold_dots(struct buf *path)
{
	char *in = path->ptr, *out = path->ptr;

	while (*in != '\0') {
		char *seg = in + 1, *end;
		size_t n;

		/* in points at a '/' */
		for (end = seg; *end != '\0' && *end != '/'; end++)
			;
		n = (size_t)(end - seg);
		if (n == 1 && seg[0] == '.') {
			if (*end == '\0')
				*out++ = '/';
		} else if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			if (out == path->ptr)
				return -1;
			while (out > path->ptr && out[-1] != '/')
				out--;
			if (out > path->ptr)
				out--;
			if (*end == '\0')
				*out++ = '/';
		} else {
			memmove(out, in, n + 1);
			out += n + 1;
		}
		in = end;
	}
	if (out == path->ptr)
		*out++ = '/';
	*out = '\0';
	path->len = (size_t)(out - path->ptr);
	return 0;
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
	if (path.len > 0 && path.ptr[0] == '/' && fold_dots(&path) == -1) {
		problem(c, page_rel, link.ptr, "climbs above the site's root");
		goto out;
	}
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
	int set;

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
	for (p = html.ptr; (ref = next_ref_set(p, &end, &set)) != NULL;
	    p = end + 1) {
		const char *u = ref, *e;

		if (!set) {
			check_ref(c, rel, url.ptr, html.ptr, ref,
			    (size_t)(end - ref));
			continue;
		}
		/* each candidate's URL: up to its width or density */
		while (u < end) {
			while (u < end && (*u == ' ' || *u == ','))
				u++;
			for (e = u; e < end && *e != ' ' && *e != ','; e++)
				;
			if (e > u)
				check_ref(c, rel, url.ptr, html.ptr, u,
				    (size_t)(e - u));
			while (e < end && *e != ',')
				e++;
			u = e;
		}
	}
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

/* ---- scripts and frames from elsewhere ---- */

struct embed {
	char	*kind;		/* "script" or "iframe" */
	char	*url;
	char	*first;		/* the first page (by name) that loads it */
	char	*last;		/* the page that counted it last */
	size_t	 pages;
};

struct embeds {
	const char	*site_url;
	struct embed	*e;
	size_t		 n, cap;
};

/* 1 if url is loaded from another site than site_url. */
static int
is_offsite(const char *url, size_t n, const char *site_url)
{
	size_t sn = strlen(site_url);

	if (!(n >= 2 && url[0] == '/' && url[1] == '/') && !has_scheme(url))
		return 0;
	if (n >= 5 && strncasecmp(url, "data:", 5) == 0)
		return 0;
	return !(n >= sn && strncmp(url, site_url, sn) == 0 &&
	    (n == sn || url[sn] == '/'));
}

/* The src attribute's value inside the tag [s, end), or NULL. */
static const char *
tag_src(const char *s, const char *end, size_t *n)
{
	const char *p, *v;

	for (p = s; p + 4 < end; p++) {
		if (strncasecmp(p, "src=", 4) != 0 ||
		    !strchr(" \t\n\r", p[-1]))
			continue;
		v = p + 4;
		if (*v == '"' || *v == '\'') {
			const char *q = memchr(v + 1, *v, (size_t)(end - v - 1));

			if (q == NULL)
				return NULL;
			*n = (size_t)(q - v - 1);
			return v + 1;
		}
		for (*n = 0; v + *n < end && !strchr(" \t\n\r>", v[*n]);
		    (*n)++)
			;
		return v;
	}
	return NULL;
}

static void
embed_add(struct embeds *x, const char *kind, const char *url, size_t n,
    const char *page)
{
	struct embed *e;
	size_t i;

	for (i = 0; i < x->n; i++) {
		e = &x->e[i];
		if (strcmp(e->kind, kind) == 0 && strlen(e->url) == n &&
		    strncmp(e->url, url, n) == 0) {
			/* a page that loads it twice counts once */
			if (strcmp(e->last, page) == 0)
				return;
			free(e->last);
			e->last = xstrdup(page);
			e->pages++;
			if (strcmp(page, e->first) < 0) {
				free(e->first);
				e->first = xstrdup(page);
			}
			return;
		}
	}
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 8;
		x->e = xrealloc(x->e, x->cap * sizeof(*x->e));
	}
	e = &x->e[x->n++];
	e->kind = xstrdup(kind);
	e->url = xstrndup(url, n);
	e->first = xstrdup(page);
	e->last = xstrdup(page);
	e->pages = 1;
}

static int
embeds_page(const char *path, const char *rel, const struct stat *st,
    void *arg)
{
	static const char *const kinds[] = { "script", "iframe" };
	struct embeds *x = arg;
	struct buf html = BUF_INIT;
	const char *p, *end, *src;
	size_t k, n;

	(void)st;
	if (strcmp(path_ext(rel), "html") != 0 || fs_read(path, &html) == -1) {
		buf_release(&html);
		return 0;
	}
	for (p = html.ptr; (p = strchr(p, '<')) != NULL; p++) {
		for (k = 0; k < 2; k++) {
			n = strlen(kinds[k]);
			if (strncasecmp(p + 1, kinds[k], n) == 0 &&
			    strchr(" \t\n\r>", p[1 + n]) != NULL)
				break;
		}
		if (k == 2 || (end = strchr(p, '>')) == NULL)
			continue;
		if ((src = tag_src(p + 1 + n, end, &n)) != NULL &&
		    is_offsite(src, n, x->site_url))
			embed_add(x, kinds[k], src, n, rel);
		p = end;
	}
	buf_release(&html);
	return 0;
}

static int
embed_cmp(const void *a, const void *b)
{
	const struct embed *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);

	return c ? c : strcmp(x->url, y->url);
}

size_t
check_embeds(const char *out_dir, const char *site_url, FILE *out)
{
	struct embeds x;
	size_t i, n;

	memset(&x, 0, sizeof(x));
	x.site_url = site_url;
	fs_walk(out_dir, embeds_page, &x);
	xqsort(x.e, x.n, sizeof(*x.e), embed_cmp);
	for (i = 0; i < x.n; i++) {
		if (x.e[i].pages == 1)
			fprintf(out, "%s %s (1 page: %s)\n", x.e[i].kind,
			    x.e[i].url, x.e[i].first);
		else
			fprintf(out, "%s %s (%zu pages, e.g. %s)\n",
			    x.e[i].kind, x.e[i].url, x.e[i].pages,
			    x.e[i].first);
		free(x.e[i].kind);
		free(x.e[i].url);
		free(x.e[i].first);
		free(x.e[i].last);
	}
	free(x.e);
	n = x.n;
	return n;
}

/* ---- outside links ---- */

struct ext_url {
	char	*url;
	size_t	 host;		/* index into hosts */
	char	**pages;
	size_t	 npages, pcap;
	int	 state;		/* 0 to do, 1 running, 2 done */
	int	 use_get;	/* HEAD was refused */
	int	 ok;
	int	 from_cache;
	time_t	 checked;
	char	*problem;
};

struct ext {
	const char	*site_url;
	struct ext_url	*urls;
	size_t		 n, cap;
	char		**hosts;
	int		*running;	/* per host */
	size_t		 nhosts, hcap, rcap;
};

/* One transfer in flight. */
struct xfer {
	size_t	 idx;
	int	 get;
	int	 cut;		/* the body was cut short on purpose */
};

static size_t
host_index(struct ext *x, const char *url)
{
	const char *h = strstr(url, "://"), *e, *at;
	struct buf host = BUF_INIT;
	size_t i;

	h = h ? h + 3 : url;
	e = h + strcspn(h, "/?#");
	if ((at = memchr(h, '@', (size_t)(e - h))) != NULL)
		h = at + 1;
	for (; h < e; h++)
		buf_addc(&host, tolower((unsigned char)*h));
	for (i = 0; i < x->nhosts; i++)
		if (strcmp(x->hosts[i], host.ptr) == 0) {
			buf_release(&host);
			return i;
		}
	xgrow((void **)&x->hosts, &x->hcap, x->nhosts + 1, sizeof(*x->hosts));
	xgrow((void **)&x->running, &x->rcap, x->nhosts + 1,
	    sizeof(*x->running));
	x->hosts[x->nhosts] = buf_detach(&host, NULL);
	x->running[x->nhosts] = 0;
	return x->nhosts++;
}

static void
ext_add(struct ext *x, const char *page, const char *ref, size_t n)
{
	struct buf u = BUF_INIT;
	struct ext_url *e;
	size_t i, ulen = strlen(x->site_url);
	const char *p;

	/* attribute text: &amp; and friends back to characters */
	for (i = 0; i < n; i++) {
		if (ref[i] == '&' && strncmp(ref + i, "&amp;", 5) == 0) {
			buf_addc(&u, '&');
			i += 4;
		} else if (ref[i] == '#')
			break;
		else
			buf_addc(&u, ref[i]);
	}
	if ((strncasecmp(u.ptr, "http://", 7) != 0 &&
	    strncasecmp(u.ptr, "https://", 8) != 0) ||
	    (ulen > 0 && strncmp(u.ptr, x->site_url, ulen) == 0 &&
	    strchr("/?", u.ptr[ulen]) != NULL)) {
		buf_release(&u);
		return;
	}
	for (p = u.ptr; *p; p++)
		if (*p == ' ' || *p == '\n' || *p == '\t')
			break;
	for (i = 0; i < x->n; i++)
		if (strcmp(x->urls[i].url, u.ptr) == 0)
			break;
	if (i == x->n) {
		xgrow((void **)&x->urls, &x->cap, x->n + 1, sizeof(*x->urls));
		e = &x->urls[x->n++];
		memset(e, 0, sizeof(*e));
		e->url = buf_detach(&u, NULL);
		e->host = host_index(x, e->url);
		if (*p)
			e->problem = xstrdup("not a valid URL (white space)");
	}
	e = &x->urls[i];
	if (e->npages == 0 || strcmp(e->pages[e->npages - 1], page) != 0) {
		xgrow((void **)&e->pages, &e->pcap, e->npages + 1,
		    sizeof(*e->pages));
		e->pages[e->npages++] = xstrdup(page);
	}
	buf_release(&u);
}

static int
collect_page(const char *path, const char *rel, const struct stat *st,
    void *arg)
{
	struct ext *x = arg;
	struct buf html = BUF_INIT;
	const char *p, *ref, *end;

	(void)st;
	if (strcmp(path_ext(rel), "html") != 0 || fs_read(path, &html) == -1)
		return 0;
	for (p = html.ptr; (ref = next_ref(p, &end)) != NULL; p = end + 1)
		ext_add(x, rel, ref, (size_t)(end - ref));
	buf_release(&html);
	return 0;
}

/* Cache lines: "epoch<TAB>url"; only URLs that answered well. */
static void
cache_load(struct ext *x, const struct extlink_opts *o, time_t now)
{
	struct buf text = BUF_INIT;
	char *line, *save = NULL, *tab, *end;
	long long t;
	size_t i;

	if (o->cache_file == NULL || fs_read(o->cache_file, &text) == -1)
		return;
	for (line = strtok_r(text.ptr, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((tab = strchr(line, '\t')) == NULL)
			continue;
		*tab = '\0';
		t = strtoll(line, &end, 10);
		if (*end != '\0' || t > (long long)now ||
		    (long long)now - t >= o->cache_ttl)
			continue;
		for (i = 0; i < x->n; i++)
			if (x->urls[i].state == 0 && x->urls[i].problem == NULL &&
			    strcmp(x->urls[i].url, tab + 1) == 0) {
				x->urls[i].state = 2;
				x->urls[i].ok = 1;
				x->urls[i].from_cache = 1;
				x->urls[i].checked = (time_t)t;
			}
	}
	buf_release(&text);
}

static void
cache_save(struct ext *x, const struct extlink_opts *o)
{
	struct buf text = BUF_INIT;
	size_t i;

	if (o->cache_file == NULL)
		return;
	for (i = 0; i < x->n; i++)
		if (x->urls[i].ok)
			buf_printf(&text, "%lld\t%s\n",
			    (long long)x->urls[i].checked, x->urls[i].url);
	fs_write_cache(o->cache_file, text.ptr, text.len);
	buf_release(&text);
}

static size_t
discard(char *p, size_t size, size_t n, void *arg)
{
	struct xfer *t = arg;

	(void)p;
	if (t->get) {
		/* the status is known: the body is not needed */
		t->cut = 1;
		return 0;
	}
	return size * n;
}

static void
start(CURLM *m, struct ext *x, size_t i, const struct extlink_opts *o)
{
	struct xfer *t = xcalloc(1, sizeof(*t));
	CURL *c = curl_easy_init();

	t->idx = i;
	t->get = x->urls[i].use_get;
	curl_easy_setopt(c, CURLOPT_URL, x->urls[i].url);
	curl_easy_setopt(c, CURLOPT_PRIVATE, t);
	curl_easy_setopt(c, CURLOPT_NOBODY, t->get ? 0L : 1L);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 8L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, o->timeout);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, o->timeout);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "ssg-check (link checker)");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, t);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
	curl_multi_add_handle(m, c);
	x->urls[i].state = 1;
	x->running[x->urls[i].host]++;
}

/* Starts what the limits allow; returns the number now running. */
static int
fill(CURLM *m, struct ext *x, const struct extlink_opts *o, int running)
{
	size_t i;

	for (i = 0; i < x->n && running < o->max_total; i++) {
		if (x->urls[i].state != 0 ||
		    x->running[x->urls[i].host] >= o->max_per_host)
			continue;
		start(m, x, i, o);
		running++;
	}
	return running;
}

static void
finish(CURLM *m, struct ext *x, CURLMsg *msg, int *running)
{
	CURL *c = msg->easy_handle;
	struct xfer *t;
	struct ext_url *e;
	struct buf why = BUF_INIT;
	CURLcode res = msg->data.result;
	long code = 0;
	char *priv;

	curl_easy_getinfo(c, CURLINFO_PRIVATE, &priv);
	t = (struct xfer *)priv;
	e = &x->urls[t->idx];
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	x->running[e->host]--;
	(*running)--;
	if (res == CURLE_WRITE_ERROR && t->cut)
		res = CURLE_OK;
	if (res == CURLE_OK && !t->get && (code == 405 || code == 501)) {
		e->use_get = 1;
		e->state = 0;	/* again, with GET */
		goto out;
	}
	e->state = 2;
	e->checked = time(NULL);
	if (res != CURLE_OK)
		buf_adds(&why, curl_easy_strerror(res));
	else if (code >= 400)
		buf_printf(&why, "HTTP %ld", code);
	else
		e->ok = 1;
	if (why.len)
		e->problem = buf_detach(&why, NULL);
out:
	curl_multi_remove_handle(m, c);
	curl_easy_cleanup(c);
	free(t);
	buf_release(&why);
}

void
extlink_opts_init(struct extlink_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cache_ttl = 86400;
	o->max_total = 16;
	o->max_per_host = 2;
	o->timeout = 15;
}

size_t
check_external(const char *out_dir, const char *site_url,
    const struct extlink_opts *o, FILE *out, size_t *links, size_t *cached)
{
	struct ext x;
	CURLM *m;
	CURLMsg *msg;
	size_t i, j, problems = 0, ncached = 0;
	int running = 0, still, left;

	memset(&x, 0, sizeof(x));
	x.site_url = site_url;
	fs_walk(out_dir, collect_page, &x);
	cache_load(&x, o, time(NULL));
	for (i = 0; i < x.n; i++)
		if (x.urls[i].problem != NULL)
			x.urls[i].state = 2;
	m = curl_multi_init();
	curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)o->max_per_host);
	curl_multi_setopt(m, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)o->max_total);
	running = fill(m, &x, o, running);
	while (running > 0) {
		curl_multi_perform(m, &still);
		while ((msg = curl_multi_info_read(m, &left)) != NULL)
			if (msg->msg == CURLMSG_DONE)
				finish(m, &x, msg, &running);
		running = fill(m, &x, o, running);
		if (running > 0)
			curl_multi_poll(m, NULL, 0, 1000, NULL);
	}
	curl_multi_cleanup(m);
	for (i = 0; i < x.n; i++) {
		if (x.urls[i].from_cache)
			ncached++;
		for (j = 0; j < x.urls[i].npages; j++) {
			if (x.urls[i].problem != NULL) {
				fprintf(out, "%s: %s: %s\n", x.urls[i].pages[j],
				    x.urls[i].url, x.urls[i].problem);
				problems++;
			}
			free(x.urls[i].pages[j]);
		}
	}
	cache_save(&x, o);
	for (i = 0; i < x.n; i++) {
		free(x.urls[i].url);
		free(x.urls[i].pages);
		free(x.urls[i].problem);
	}
	for (i = 0; i < x.nhosts; i++)
		free(x.hosts[i]);
	free(x.hosts);
	free(x.running);
	free(x.urls);
	if (links)
		*links = x.n;
	if (cached)
		*cached = ncached;
	return problems;
}
