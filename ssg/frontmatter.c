#include "frontmatter.h"

#include <ctype.h>
#include <string.h>

#include "diag.h"
#include "yamldoc.h"

/* Length of the line at s (without its newline) and where the next starts. */
static size_t
line_len(const char *s, const char *end, const char **next)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	size_t n;

	if (nl == NULL) {
		*next = end;
		n = (size_t)(end - s);
	} else {
		*next = nl + 1;
		n = (size_t)(nl - s);
	}
	if (n > 0 && s[n - 1] == '\r')
		n--;
	return n;
}

static int
is_fence(const char *s, size_t n, int closing)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 3 && memcmp(s, "---", 3) == 0)
		return 1;
	return closing && n == 3 && memcmp(s, "...", 3) == 0;
}

int
frontmatter_parse(struct frontmatter *fm, const char *text, size_t len,
    const char *file, struct diag *d)
{
	const char *end = text + len, *p, *next, *yaml;
	size_t n;
	int line = 1;

	memset(fm, 0, sizeof(*fm));
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		text += 3;
	fm->body = text;
	fm->body_len = (size_t)(end - text);
	fm->body_line = 1;
	n = line_len(text, end, &next);
	if (!is_fence(text, n, 0))
		return 0;
	yaml = next;
	for (p = next, line = 2; p < end; p = next, line++) {
		n = line_len(p, end, &next);
		if (!is_fence(p, n, 1))
			continue;
		fm->root = ynode_parse(yaml, (size_t)(p - yaml), file, 2, d);
		if (fm->root == NULL)
			return -1;
		if (fm->root->kind != YNODE_MAP) {
			diag_error(d, file, 2, "front matter must be "
			    "'key: value' lines");
			frontmatter_release(fm);
			return -1;
		}
		fm->body = next;
		fm->body_len = (size_t)(end - next);
		fm->body_line = line + 1;
		return 0;
	}
	diag_error(d, file, 1, "front matter opened with '---' is never "
	    "closed");
	return -1;
}

void
frontmatter_release(struct frontmatter *fm)
{
	ynode_free(fm->root);
	fm->root = NULL;
}

const char *
fm_str(const struct frontmatter *fm, const char *key)
{
	return ynode_str(ynode_get(fm->root, key));
}

int
fm_line(const struct frontmatter *fm, const char *key)
{
	const struct ynode *n = ynode_get(fm->root, key);

	return n ? n->line : 0;
}

int
fm_bool(const struct frontmatter *fm, const char *key)
{
	const struct ynode *n = ynode_get(fm->root, key);

	if (n == NULL || ynode_str(n) == NULL)
		return 0;
	return ynode_bool(n);
}

static void
split_tags(const char *s, void (*fn)(const char *, size_t, void *), void *arg)
{
	const char *start, *e;

	while (*s) {
		start = s;
		while (*s && *s != ',')
			s++;
		e = s;
		while (start < e && isspace((unsigned char)*start))
			start++;
		while (e > start && isspace((unsigned char)e[-1]))
			e--;
		if (e > start)
			fn(start, (size_t)(e - start), arg);
		if (*s == ',')
			s++;
	}
}

void
fm_tags(const struct frontmatter *fm, const char *key,
    void (*fn)(const char *, size_t, void *), void *arg)
{
	const struct ynode *n = ynode_get(fm->root, key), *c;
	const char *s;

	if (n == NULL)
		return;
	if (n->kind == YNODE_SCALAR) {
		if ((s = ynode_str(n)) != NULL)
			split_tags(s, fn, arg);
		return;
	}
	if (n->kind != YNODE_SEQ)
		return;
	for (c = n->child; c != NULL; c = c->next)
		if ((s = ynode_str(c)) != NULL)
			split_tags(s, fn, arg);
}
