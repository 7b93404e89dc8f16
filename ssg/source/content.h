#ifndef SSG_CONTENT_H
#define SSG_CONTENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct arena;
struct buf;
struct diag;
struct site_config;

/*
 * Posts and pages: one source file each (Markdown, or HTML passed through
 * as BSSG does), read into this model. Strings live in the build's arena.
 */
enum content_kind {
	CONTENT_POST,
	CONTENT_PAGE
};

struct tag_ref {
	char	*name;		/* as first written */
	char	*slug;		/* URL form; tags equal after folding share it */
};

struct post {
	enum content_kind kind;
	char		*src;		/* path of the source (for messages) */
	char		*title;
	char		*slug;
	char		*description;	/* front matter, or the excerpt */
	char		*excerpt;	/* plain text */
	char		*image;
	char		*image_caption;
	char		*author_name;	/* NULL: the site's */
	char		*author_email;
	char		*fediverse_creator; /* front matter; NULL: none */
	struct tag_ref	*tags;
	size_t		 ntags;
	time_t		 date;
	time_t		 lastmod;	/* == date when not given */
	int		 year, month, day; /* of the date as written */
	int		 draft;
	int		 secondary;	/* pages: under the Pages menu */
	int		 is_html;
	int		 dup;		/* shares its URL with another; left out */
	int		 date_from_mtime; /* no date in the front matter */
	int		 lastmod_given;	/* lastmod in the front matter */
	int		 code_unlit;	/* code left plain for want of a
					 * highlighter: not cached, so the
					 * next build tries again */
	char		*gem;		/* the body as gemtext when the build made
					 * it (config's gemtext); else NULL */
	size_t		 gem_len;
	char		*terms;		/* the body's words, as search_terms makes
					 * them, when the build made them as it
					 * parsed it (config's search_words);
					 * else NULL */
	size_t		 terms_len;
	char		*md_body;	/* the text without its front matter, for
					 * its published Markdown, when the build
					 * read it (gemini_markdown_link); else
					 * NULL: read again when needed */
	size_t		 md_body_len;
	char		*html;		/* the rendered body; NULL when the post came
					 * from the build cache, until content_html */
	uint64_t	 text_hash;	/* of the source file's bytes */
	uint64_t	 body_hash;	/* of html */
	atomic_int	 html_state;	/* content_html: 0 none, 1 busy, 2 done */
	int		 need_html;	/* a page to render shows the body */
	size_t		 words;
	char		*url;		/* from the site root, "/2025/04/07/x/" */
	char		*out_path;	/* relative output file */
	uint64_t	 sum_hash;	/* see content_hashes */
	uint64_t	 full_hash;
	uint64_t	 tag_names_hash; /* site-wide names of its tags (index) */
	size_t		 index;		/* position in the site's post order */
	struct post	**related;	/* by shared tags (index) */
	size_t		 nrelated;
	uint64_t	 related_hash;	/* titles and URLs of the related posts */
	/* shown on every list the post is in; made once per build, on
	 * first use, by render.c, so lists only point at them */
	char		*d_href, *d_permalink, *d_author_href;
	char		*d_date, *d_date_iso, *d_lastmod, *d_lastmod_iso;
	char		*d_date_tz, *d_day;	/* with its offset; YYYY-MM-DD */
	struct val	*d_item;	/* as a list shows it (render.c) */
	atomic_int	 d_ready;	/* 0 not made, 1 being made, 2 made */
};

/*
 * Bounds on one source. A post or page is text someone wrote; a file past
 * these is a mistake (a log or a dump saved into posts/), and parsing it
 * would cost time and memory out of all proportion: cmark takes some
 * 100 bytes of memory for each byte of dense Markdown. Such a file is an
 * error and left out; the rest of the site is built.
 */
#define CONTENT_MAX_BYTES	(10u << 20)	/* 10 MB: a long book */
#define CONTENT_MAX_LINE	(1u << 20)	/* 1 MB: no written line comes near */

/*
 * 0 if text (len bytes) is within the bounds above, else the line (1 on)
 * where it goes past one, after an error "path:line: ..." in d. With text
 * NULL, only the size is checked: before reading a file of that size.
 */
int	content_check_bounds(const char *path, const char *text, size_t len,
	    struct diag *d);

/*
 * What the build adds to the parse of a body, besides the site's settings
 * (NULL, or a member NULL: none): its highlighter (highlight.h), and what
 * it makes from the same Markdown tree (doc) into a struct buf (out) as
 * the body is parsed, so as not to parse it again: the capsule's gemtext
 * (gemini on) and the words of the search index (search on).
 */
struct highlight;
struct content_hooks {
	struct highlight *hl;
	void	(*gemtext)(void *doc, void *out);
	void	(*search_words)(void *doc, void *out);
};

/*
 * Reads the file at path into p. rel is the path inside its folder (for
 * slugs and URL formats); now is the build time (used for files without a
 * date). Returns 0, or -1 after recording every problem found in the file
 * as "path:line: problem".
 */
int	content_load(struct post *p, enum content_kind kind, const char *path,
	    const char *rel, const struct site_config *c,
	    const struct content_hooks *h, struct arena *a, struct diag *d);
/* The same from the file's text (len bytes) and modification time. */
int	content_parse(struct post *p, enum content_kind kind, const char *path,
	    const char *rel, const char *text, size_t len, time_t mtime,
	    const struct site_config *c, const struct content_hooks *h,
	    struct arena *a, struct diag *d);
/*
 * Makes p->html from the source again when the build cache gave the post
 * without it (only pages that are rendered need it). The file must still
 * have the bytes it was indexed with, and c and h the settings and hooks
 * it was parsed with. Strings go into a. Safe to call from several threads. Returns 0,
 * or -1 after recording the problem in d.
 */
int	content_html(struct post *p, const struct site_config *c,
	    const struct content_hooks *h, struct arena *a, struct diag *d);
/* Hashes of what lists show of a post (title, URL, dates, author,
 * description, excerpt, image, tags) and of all of it (also the body),
 * for fingerprints. */
void	content_hashes(struct post *p);
/*
 * The Markdown source a page publishes beside it when the site has
 * gemini and gemini_markdown_link on: a post or page written in Markdown,
 * not a draft. Its path is the page's with .md for .html
 * ("x/index.html": "x/index.md"), appended to out by content_source_path.
 */
int	content_publishes_source(const struct post *p,
	    const struct site_config *c);
void	content_source_path(struct buf *out, const struct post *p);
/* Appends what that file holds: the title as a heading, then the text as
 * written, without its front matter (see site.yaml(5)); from md_body when
 * the build kept it, else read again. Returns 0, or -1 when the source
 * cannot be read (the reason in err). */
int	content_source_text(const struct post *p, struct buf *out,
	    struct buf *err);
/* 1 if path names a source file (.md, .markdown, .html). */
int	content_is_source(const char *path);

#endif
