#ifndef SSG_FRONTMATTER_H
#define SSG_FRONTMATTER_H

#include <stddef.h>

struct diag;
struct ynode;

/*
 * Front matter: a YAML block between "---" lines at the top of a post.
 * Fields are read as BSSG writes them (tags as "a, b" or a YAML list,
 * dates as text parsed later).
 */
struct frontmatter {
	struct ynode	*root;		/* the parsed map; NULL without a block */
	const char	*body;		/* text after the block */
	size_t		 body_len;
	int		 body_line;	/* file line where the body starts */
};

/*
 * Splits text (len bytes, whole file) and parses the block. Returns 0, or -1
 * after recording "file:line: problem" (bad YAML, unterminated block).
 * A file with no block has root NULL and the whole text as body.
 */
int	frontmatter_parse(struct frontmatter *fm, const char *text, size_t len,
	    const char *file, struct diag *d);
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

#endif
