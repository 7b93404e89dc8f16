/*
 * The excerpt of a post without a description, by BSSG's rule
 * (generate_excerpt in scripts/build/content.sh): the first non-blank line
 * of the source once fenced code, indented lines, images, link syntax,
 * heading, rule, quote and list markers, inline markup and HTML tags are
 * gone, cut at max bytes with "..." when it was longer. Each step below is
 * one of BSSG's sed or grep commands, applied to every line in turn.
 *
 * One difference, on purpose: the cut never splits a UTF-8 character or
 * an entity (BSSG's dd cut can do both).
 */
#include "excerpt.h"

#include <string.h>

#include "buf.h"

/* Drops the first k bytes of a. */
static void
cut_front(struct buf *a, size_t k)
{
	memmove(a->ptr, a->ptr + k, a->len - k);
	buf_truncate(a, a->len - k);
}

/* Removes what no line of an excerpt may hold: a whole line is dropped
 * when it is a rule (3 or more of -, * or _). */
static int
is_rule(const char *s, size_t n)
{
	size_t i;

	if (n < 3 || (s[0] != '-' && s[0] != '*' && s[0] != '_'))
		return 0;
	for (i = 1; i < n; i++)
		if (s[i] != s[0])
			return 0;
	return 1;
}

/*
 * s/OPEN([^STOP]+)CLOSE/\1/g with OPEN and CLOSE made of the character
 * stop: every run of stop-free text between them is kept without them.
 */
static void
unwrap(struct buf *out, const char *s, size_t n, char stop, size_t width)
{
	size_t i = 0, j, k;

	while (i < n) {
		for (k = 0; k < width && i + k < n && s[i + k] == stop; k++)
			;
		if (k == width) {
			for (j = i + width; j < n && s[j] != stop; j++)
				;
			if (j > i + width && j + width <= n) {
				for (k = 0; k < width && s[j + k] == stop; k++)
					;
				if (k == width) {
					buf_add(out, s + i + width, j - i - width);
					i = j + width;
					continue;
				}
			}
		}
		buf_addc(out, s[i++]);
	}
}

/*
 * s/!\[([^]]*)\]\([^)]*\)//g (image, drop it) or
 * s/\[([^]]+)\]\(([^)]+)\)/\1/g (link, keep its text).
 */
static void
links(struct buf *out, const char *s, size_t n, int image)
{
	size_t i = 0, t, u;

	while (i < n) {
		size_t at = i + (image ? 1 : 0);

		if ((!image || s[i] == '!') && at < n && s[at] == '[') {
			for (t = at + 1; t < n && s[t] != ']'; t++)
				;
			if (t < n && (image || t > at + 1) && t + 1 < n &&
			    s[t + 1] == '(') {
				for (u = t + 2; u < n && s[u] != ')'; u++)
					;
				if (u < n && (image || u > t + 2)) {
					if (!image)
						buf_add(out, s + at + 1, t - at - 1);
					i = u + 1;
					continue;
				}
			}
		}
		buf_addc(out, s[i++]);
	}
}

/* s/<[^>]*>//g */
static void
tags(struct buf *out, const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (s[i] == '<') {
			for (j = i + 1; j < n && s[j] != '>'; j++)
				;
			if (j < n) {
				i = j + 1;
				continue;
			}
		}
		buf_addc(out, s[i++]);
	}
}

/* Runs step over a and leaves the result in a (b is scratch). */
#define STEP(a, b, call) do {						\
	struct buf tmp_;						\
	buf_clear(&(b));						\
	call;								\
	tmp_ = (a); (a) = (b); (b) = tmp_;				\
} while (0)

/* One line of the source as BSSG's pipeline leaves it (in a). */
static void
clean_line(struct buf *a, struct buf *b)
{
	size_t k;

	STEP(*a, *b, links(b, a->ptr, a->len, 1));
	STEP(*a, *b, links(b, a->ptr, a->len, 0));
	/* s/^#{1,6} // */
	for (k = 0; k < a->len && k < 7 && a->ptr[k] == '#'; k++)
		;
	if (k >= 1 && k <= 6 && k < a->len && a->ptr[k] == ' ')
		cut_front(a, k + 1);
}

/* The markers BSSG takes off the start of a line, after the rules. */
static void
clean_markers(struct buf *a)
{
	size_t k;

	if (a->len >= 2 && a->ptr[0] == '>' && a->ptr[1] == ' ')
		cut_front(a, 2);
	/* s/^\* |^- |^[0-9]+\. // */
	if (a->len >= 2 && (a->ptr[0] == '*' || a->ptr[0] == '-') &&
	    a->ptr[1] == ' ') {
		cut_front(a, 2);
		return;
	}
	for (k = 0; k < a->len && a->ptr[k] >= '0' && a->ptr[k] <= '9'; k++)
		;
	if (k > 0 && k + 1 < a->len && a->ptr[k] == '.' && a->ptr[k + 1] == ' ')
		cut_front(a, k + 2);
}

static int
blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

/* The length of s[0..n) as BSSG counts it, with & < > escaped. */
static size_t
escaped_len(const char *s, size_t n)
{
	size_t i, len = 0;

	for (i = 0; i < n; i++)
		len += s[i] == '&' ? 5 : (s[i] == '<' || s[i] == '>') ? 4 : 1;
	return len;
}

/* Appends line to out, cut to max bytes as escaped, with "..." after a
 * cut; the cut backs off to a character's start. */
static void
cut(struct buf *out, const char *s, size_t n, size_t max)
{
	size_t i = 0, len = 0, w;

	if (escaped_len(s, n) <= max) {
		buf_add(out, s, n);
		return;
	}
	while (i < n) {
		w = s[i] == '&' ? 5 : (s[i] == '<' || s[i] == '>') ? 4 : 1;
		if (len + w > max)
			break;
		len += w;
		i++;
	}
	while (i > 0 && i < n && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	buf_add(out, s, i);
	buf_adds(out, "...");
}

void
excerpt_bssg(const char *src, size_t n, size_t max, struct buf *out)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	const char *p = src, *end = src + n, *nl;
	int fence = 0;

	for (; p < end; p = nl < end ? nl + 1 : end) {
		size_t len;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		len = (size_t)(nl - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		/* awk '/^```/{flag=!flag;next} !flag' */
		if (len >= 3 && memcmp(p, "```", 3) == 0) {
			fence = !fence;
			continue;
		}
		if (fence || (len >= 4 && memcmp(p, "    ", 4) == 0))
			continue;
		buf_clear(&a);
		buf_add(&a, p, len);
		clean_line(&a, &b);
		if (is_rule(a.ptr ? a.ptr : "", a.len))
			continue;
		clean_markers(&a);
		STEP(a, b, unwrap(&b, a.ptr, a.len, '*', 2));
		STEP(a, b, unwrap(&b, a.ptr, a.len, '_', 2));
		STEP(a, b, unwrap(&b, a.ptr, a.len, '*', 1));
		STEP(a, b, unwrap(&b, a.ptr, a.len, '_', 1));
		STEP(a, b, unwrap(&b, a.ptr, a.len, '~', 2));
		STEP(a, b, unwrap(&b, a.ptr, a.len, '`', 1));
		STEP(a, b, tags(&b, a.ptr, a.len));
		if (a.len == 0 || blank(a.ptr, a.len))
			continue;
		cut(out, a.ptr, a.len, max);
		break;
	}
	buf_release(&a);
	buf_release(&b);
}
