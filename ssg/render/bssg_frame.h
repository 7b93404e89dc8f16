#ifndef SSG_BSSG_FRAME_H
#define SSG_BSSG_FRAME_H

#include <stdint.h>

struct buf;
struct diag;
struct fs_bound;
struct locale;

/*
 * A BSSG site's own templates/header.html and footer.html, put around
 * every HTML page in place of ssg's header and footer, filled as BSSG's
 * templates.sh and generate_*.sh fill them: literal {{name}} text is
 * replaced, nothing else is interpreted, and a placeholder BSSG does not
 * fill is left as written.
 *
 * Two stages, as in BSSG. Once per build (bssg_frame_prepare): {{menu_items}}
 * (header and footer menus differ), every BSSG message ({{home}},
 * {{all_rights_reserved}} ..., spaces inside the braces allowed),
 * {{site_lang_code}}, {{rss_filename}}, {{rel_me_link}}, {{custom_css_link}}.
 * Per page (bssg_frame_header, bssg_frame_footer): the header's
 * {{site_title}}, {{page_title}}, {{site_url}}, {{page_url}},
 * {{site_description}}, {{og_type}}, {{og_description}},
 * {{twitter_description}}, {{og_image}}, {{twitter_image}},
 * {{schema_json_ld}}, {{fediverse_creator_meta}} and, on tag and author
 * pages, the marker <!-- bssg:tag_rss_link -->; the footer's {{current_year}} and
 * {{author_name}}.
 */
struct bssg_frame;

/* Site-wide values, HTML ready (menus and links) or text (the rest). */
struct bssg_site {
	const char		*header_menu, *footer_menu;
	const char		*lang, *rss_filename;
	const char		*rel_me_links;		/* <link rel="me"> lines */
	const char		*custom_css_link;	/* a <link>, or "" */
	const char		*site_title, *site_description;
	const struct locale	*l;			/* BSSG's messages */
};

/* One page's values. Text is escaped here; schema and tag_rss_link are
 * HTML; NULL means empty. */
struct bssg_page {
	const char	*site_title, *site_url, *site_description;
	const char	*title, *url, *og_type, *description;
	const char	*image;			/* absolute URL or NULL */
	int		 image_w, image_h;	/* its size, or 0 */
	const char	*schema;		/* a <script> element or NULL */
	const char	*fediverse_creator;	/* @name@server or NULL */
	const char	*tag_rss_link;		/* a <link> or NULL */
	int		 mark;		/* replace <!-- bssg:tag_rss_link -->
					 * (tag and author pages) */
	const char	*author_name;		/* the footer's */
	int		 year;
	int		 is_post;	/* no {{fediverse_creator_meta}}: the
					 * tag goes before </head> */
};

/*
 * Reads dir/header.html and dir/footer.html, read within bd. Returns 0
 * with *out NULL when the site has neither, 0 with *out set, or -1 after
 * an error in d (one of the two missing, or unreadable). *hash receives a
 * hash of both texts.
 */
int	bssg_frame_load(const char *dir, const struct fs_bound *bd,
	    struct bssg_frame **out, uint64_t *hash, struct diag *d);
/* A frame of the two texts given (for tests). */
struct bssg_frame *bssg_frame_new(const char *header, const char *footer);
/* The first stage; warns once per placeholder neither stage fills, with
 * its file and line. */
void	bssg_frame_prepare(struct bssg_frame *f, const struct bssg_site *s,
	    struct diag *d);
void	bssg_frame_header(const struct bssg_frame *f,
	    const struct bssg_page *p, struct buf *out);
void	bssg_frame_footer(const struct bssg_frame *f,
	    const struct bssg_page *p, struct buf *out);
void	bssg_frame_free(struct bssg_frame *f);

#endif
