#ifndef SSG_CONFIG_H
#define SSG_CONFIG_H

#include <stdint.h>
#include <stdio.h>

struct diag;
struct highlight;

/* Several texts from site.yaml: a list (one text or a YAML list), or a
 * map of name -> text, kept as name, text, name, text ... in v. */
struct cstrs {
	char	**v;
	size_t	  n;		/* strings in v */
};

/*
 * The site's settings: BSSG's config.sh variables as snake_case keys in
 * site.yaml, with BSSG's defaults. Every key is listed, with its default
 * and meaning, in the table in config.c; `ssg config` prints it.
 */
struct site_config {
	/* site */
	char	*site_title;
	char	*site_description;
	char	*site_url;		/* no trailing slash */
	char	*author_name;
	char	*author_email;
	char	*site_lang;
	struct cstrs rel_me;		/* profile URLs: <link rel="me"> */
	char	*fediverse_creator;	/* @name@server for every page */
	struct cstrs author_fediverse_creators; /* author name -> creator */
	struct cstrs messages;		/* message key -> text, over site_lang's */
	struct cstrs slugs;		/* source file -> slug it keeps */
	struct cstrs tag_slugs;		/* tag name -> slug it keeps */
	/* look */
	char	*theme;
	char	*custom_css;
	char	*favicon;
	char	*theme_color;
	/* content */
	char	*url_slug_format;
	char	*page_url_format;
	char	*date_format;
	char	*timezone;
	int	 show_timezone;
	int	 posts_per_page;
	int	 index_show_full_content;
	int	 hide_menu;		/* no menu in the header */
	int	 hide_reading_time;	/* none on posts */
	int	 hide_index_descriptions;	/* lists show no summaries */
	int	 generate_excerpt;	/* no description: the first words */
	int	 smart_punctuation;
	int	 search;		/* write /search/ and its index */
	int	 gemini;		/* write the Gemini capsule too */
	char	*gemini_output_dir;
	char	*gemini_url;
	int	 gemini_markdown_link;	/* publish and link index.md */
	char	*raw_html;		/* keep, filter or omit */
	int	 highlight;		/* colour fenced code with a language */
	/* lists and feeds */
	char	*rss_filename;
	int	 rss_item_limit;
	int	 rss_include_full_content;
	int	 enable_archives;
	int	 archives_list_all_posts;
	int	 enable_tag_rss;
	int	 enable_author_pages;
	int	 enable_author_rss;
	int	 show_authors_menu_threshold;
	int	 enable_related_posts;
	int	 related_posts_count;
	int	 git_lastmod;
	/* build */
	int	 clean_output;
	int	 precompress_assets;
	int	 rebuild_after_post;
	int	 rebuild_after_edit;
	int	 follow_external_symlinks;
	/* images (ssg/pipeline/media.h) */
	int	 images;		/* resized copies, metadata stripped */
	struct cstrs image_widths;	/* empty: 480, 960, 1600 */
	struct cstrs image_formats;	/* empty: avif, webp */
	struct cstrs image_quality;	/* format -> 1..100 */
	char	*image_sizes;		/* the sizes attribute */
	int	 image_keep_originals;
	int	 image_max_pixels;
	/* folders, relative to the site folder */
	char	*posts_dir;
	char	*pages_dir;
	char	*drafts_dir;
	char	*static_dir;
	char	*output_dir;
	char	*templates_dir;
	char	*themes_dir;
};

/* Fills c with the defaults. Release with config_release. */
void	config_init(struct site_config *c);
void	config_release(struct site_config *c);
/*
 * Reads path (site.yaml) over the current values. A missing file is not an
 * error when optional is set. Unknown keys are warnings; bad values are
 * errors naming the line. Returns 0, or -1 if any error was recorded.
 */
int	config_load(struct site_config *c, const char *path, int optional,
	    struct diag *d);
/* Sets one key from text (a command-line override); origin names it in
 * messages. Returns 0 or -1 (unknown key or bad value). */
int	config_set(struct site_config *c, const char *key, const char *value,
	    const char *origin, struct diag *d);
/* The value of key as text ("true"/"false" for booleans), or NULL if the
 * key is unknown. The pointer is valid until the next call. */
const char *config_get(const struct site_config *c, const char *key);
/* Prints every key with its current value and description. */
void	config_describe(const struct site_config *c, FILE *fp);
/* A hash of every setting's value but output_dir's (the pages do not
 * depend on where they go). */
uint64_t config_hash(const struct site_config *c);
/* The text under name in a map setting, or NULL. */
const char *config_map_get(const struct cstrs *m, const char *name);
/* The path part of site_url ("" or "/blog"), which prefixes every link. */
const char *config_base_path(const struct site_config *c);

#endif
