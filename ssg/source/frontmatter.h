#ifndef SSG_FRONTMATTER_H
#define SSG_FRONTMATTER_H

#include <stddef.h>

struct buf;
struct diag;
struct ynode;

/*
 * Front matter: the "key: value" lines between "---" lines at the top of
 * a post, read as BSSG reads them: split at the first colon, key and value
 * trimmed, the key lower-cased, one pair of matching outer quotes taken
 * off, everything else literal text; a later line for a key wins (with a
 * warning). Beyond BSSG: an indented "- item" list under an empty value,
 * "[a, b]" on tags and authors, and a "|" or ">" block scalar are YAML.
 */
struct frontmatter {
	struct ynode	*root;		/* the parsed map; NULL without a block */
	const char	*body;		/* text after the block */
	size_t		 body_len;
	int		 body_line;	/* file line where the body starts */
};

/*
 * Splits text (len bytes, whole file) and reads the block. Returns 0, or -1
 * after recording "file:line: problem" (an unterminated block, bad YAML in
 * one of the YAML forms). Warnings (a key given twice, a line that is not
 * "key: value") are recorded too. A file with no block has root NULL and
 * the whole text as body.
 */
int	frontmatter_parse(struct frontmatter *fm, const char *text, size_t len,
	    const char *file, struct diag *d);
/*
 * For a post written in HTML: front matter as above when the file starts
 * with one; otherwise, as BSSG reads HTML posts, the first <title>...
 * </title> and <meta name="FIELD" content="..."> of each field
 * (fediverse:creator too), entities decoded, and as body the lines between
 * the <body> line and the </body> line. A file with neither is all body,
 * root NULL. Returns 0 or -1 as frontmatter_parse.
 */
int	frontmatter_parse_html(struct frontmatter *fm, const char *text,
	    size_t len, const char *file, struct diag *d);
void	frontmatter_release(struct frontmatter *fm);
/* A field's text, or NULL. */
const char *fm_str(const struct frontmatter *fm, const char *key);
/* A field's line, or 0. */
int	fm_line(const struct frontmatter *fm, const char *key);
/* 1 true, 0 false or absent, -1 present but not a boolean. */
int	fm_bool(const struct frontmatter *fm, const char *key);
/*
 * Calls fn for each tag: "a, b" splits on commas, a YAML list gives its
 * items; each is trimmed and empty ones skipped.
 */
void	fm_tags(const struct frontmatter *fm, const char *key,
	    void (*fn)(const char *tag, size_t n, void *arg), void *arg);
/*
 * Appends s as a front matter value that reads back as s (one line:
 * control characters become spaces).
 */
void	fm_write_value(struct buf *out, const char *s);

#endif
