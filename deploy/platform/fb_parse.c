/* Parsers for what FreeBSD hosts print: bastille list, jls, pfctl -sr,
 * ifconfig, route, freebsd-version. */

#include "freebsd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* ---- parsers ---- */

static void
jails_add(struct fb_jails *js, const char *name, const char *ip,
    const char *path, int up)
{
	struct fb_jail *j;

	js->v = xrealloc(js->v, (js->n + 1) * sizeof(*js->v));
	j = &js->v[js->n++];
	j->name = xstrdup(name);
	j->ip = xstrndup(ip, strcspn(ip, ",/"));
	j->path = xstrdup(path);
	j->up = up;
}

void
fb_jails_release(struct fb_jails *js)
{
	size_t i;

	for (i = 0; i < js->n; i++) {
		free(js->v[i].name);
		free(js->v[i].ip);
		free(js->v[i].path);
	}
	free(js->v);
	js->v = NULL;
	js->n = 0;
}

const struct fb_jail *
fb_jails_find(const struct fb_jails *js, const char *name)
{
	size_t i;

	for (i = 0; i < js->n; i++)
		if (strcmp(js->v[i].name, name) == 0)
			return &js->v[i];
	return NULL;
}

#define MAXF 16

/* Splits line at blanks into at most MAXF fields (line is modified). */
static size_t
fields(char *line, char *f[MAXF])
{
	size_t n = 0;
	char *p = line;

	while (n < MAXF) {
		p += strspn(p, " \t\r");
		if (*p == '\0')
			break;
		f[n++] = p;
		p += strcspn(p, " \t\r");
		if (*p != '\0')
			*p++ = '\0';
	}
	return n;
}

/*
 * Header columns, with the two-word ones joined: "IP Address" and
 * "Published Ports" name one column each.
 */
static size_t
header(char *line, char *f[MAXF])
{
	char *raw[MAXF];
	size_t n = fields(line, raw), i, m = 0;

	for (i = 0; i < n; i++) {
		f[m++] = raw[i];
		if (i + 1 < n && ((strcmp(raw[i], "IP") == 0 &&
		    strcmp(raw[i + 1], "Address") == 0) ||
		    (strcmp(raw[i], "Published") == 0 &&
		    strcmp(raw[i + 1], "Ports") == 0)))
			i++;
	}
	return m;
}

static long
column(char *const *f, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(f[i], name) == 0)
			return (long)i;
	return -1;
}

int
fb_parse_bastille_list(const char *text, struct fb_jails *out)
{
	char *copy = xstrdup(text), *line, *next, *h[MAXF], *f[MAXF];
	size_t nh = 0, nf;
	long cname = -1, cip = -1, cstate = -1, cpath = -1, cjid = -1;
	int rc = -1;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (nh == 0) {
			nh = header(line, h);
			if ((cjid = column(h, nh, "JID")) == -1) {
				nh = 0;
				continue;
			}
			/* 1.x names the jail "Name"; 0.x "Hostname". */
			if ((cname = column(h, nh, "Name")) == -1)
				cname = column(h, nh, "Hostname");
			cip = column(h, nh, "IP");
			cstate = column(h, nh, "State");
			cpath = column(h, nh, "Path");
			if (cname == -1 || cip == -1)
				goto out;
			rc = 0;
			continue;
		}
		nf = fields(line, f);
		if (nf == 0)
			continue;
		/* 1.x lists stopped jails with "-" as JID and State Down. */
		if ((long)nf <= cname || (long)nf <= cip)
			continue;
		jails_add(out, f[cname], strcmp(f[cip], "-") ? f[cip] : "",
		    cpath != -1 && (long)nf > cpath ? f[cpath] : "",
		    cstate != -1 ? (long)nf > cstate &&
		    strcmp(f[cstate], "Up") == 0 : 1);
	}
out:
	free(copy);
	return rc;
}

int
fb_parse_jls(const char *text, struct fb_jails *out)
{
	char *copy = xstrdup(text), *line, *next, *f[MAXF];
	size_t nf;
	int rc = 0;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		nf = fields(line, f);
		if (nf == 0)
			continue;
		if (nf != 3) {
			rc = -1;
			continue;
		}
		jails_add(out, f[0], strcmp(f[1], "-") ? f[1] : "", f[2], 1);
	}
	free(copy);
	return rc;
}

void
fb_parse_pfctl(const char *text, struct fb_rules *out)
{
	const char *line = text, *end;
	size_t n;

	while (*line != '\0') {
		end = strchr(line, '\n');
		n = end ? (size_t)(end - line) : strlen(line);
		/* -v adds "  [ Evaluations: ... ]" lines under each rule. */
		if (n > 0 && line[0] != ' ' && line[0] != '\t' &&
		    strncmp(line, "No ALTQ", 7) != 0) {
			const char *p = line;

			if (*p == '@') {
				p += strcspn(p, " ");
				p += strspn(p, " ");
			}
			out->v = xrealloc(out->v, (out->n + 1) *
			    sizeof(*out->v));
			out->v[out->n++] = xstrndup(p, n - (size_t)(p - line));
		}
		line += n + (end != NULL);
	}
}

void
fb_rules_release(struct fb_rules *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i]);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

long
fb_rules_find(const struct fb_rules *r, const char *prefix, ...)
{
	va_list ap;
	const char *w;
	size_t i;
	int all;

	for (i = 0; i < r->n; i++) {
		if (strncmp(r->v[i], prefix, strlen(prefix)) != 0)
			continue;
		all = 1;
		va_start(ap, prefix);
		while ((w = va_arg(ap, const char *)) != NULL)
			if (strstr(r->v[i], w) == NULL)
				all = 0;
		va_end(ap);
		if (all)
			return (long)i;
	}
	return -1;
}

int
fb_ifconfig_has(const char *text, const char *addr, int prefix)
{
	char *copy = xstrdup(text), *line, *next, *f[MAXF];
	unsigned long mask, want;
	size_t nf;
	int found = 0;

	want = prefix == 0 ? 0 : (0xffffffffUL << (32 - prefix)) &
	    0xffffffffUL;
	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		nf = fields(line, f);
		/* inet 10.17.0.1 netmask 0xffffff00 */
		if (nf >= 4 && strcmp(f[0], "inet") == 0 &&
		    strcmp(f[1], addr) == 0 && strcmp(f[2], "netmask") == 0) {
			mask = strtoul(f[3], NULL, 16);
			if (mask == want)
				found = 1;
		}
	}
	free(copy);
	return found;
}

int
fb_parse_route(const char *text, struct buf *out)
{
	char *copy = xstrdup(text), *line, *next, *f[MAXF];
	int rc = -1;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (fields(line, f) >= 2 && strcmp(f[0], "interface:") == 0) {
			buf_clear(out);
			buf_adds(out, f[1]);
			rc = 0;
		}
	}
	free(copy);
	return rc;
}

int
fb_parse_version(const char *text, struct buf *out)
{
	size_t n = strcspn(text, "\n");
	const char *p;

	/* 14.3-RELEASE-p2 -> 14.3-RELEASE; 15.0-STABLE stays. */
	if (n == 0 || text[0] < '0' || text[0] > '9')
		return -1;
	buf_clear(out);
	buf_add(out, text, n);
	if ((p = strstr(out->ptr, "-p")) != NULL &&
	    p[2] >= '0' && p[2] <= '9')
		buf_truncate(out, (size_t)(p - out->ptr));
	return strchr(out->ptr, '-') != NULL ? 0 : -1;
}
