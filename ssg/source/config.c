#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "hash.h"
#include "mem.h"
#include "yamldoc.h"

enum ckind { CK_STR, CK_INT, CK_BOOL, CK_LIST, CK_MAP };

struct ckey {
	const char	*name;
	enum ckind	 kind;
	size_t		 off;
	const char	*def;
	int		 min, max;	/* CK_INT bounds */
	const char	*doc;
	const char	*choices;	/* CK_STR: "a|b|c" allowed, or NULL */
};

#define S(f, d, doc)		{ #f, CK_STR, offsetof(struct site_config, f), d, 0, 0, doc, NULL }
#define I(f, d, lo, hi, doc)	{ #f, CK_INT, offsetof(struct site_config, f), d, lo, hi, doc, NULL }
#define B(f, d, doc)		{ #f, CK_BOOL, offsetof(struct site_config, f), d, 0, 0, doc, NULL }
#define L(f, doc)		{ #f, CK_LIST, offsetof(struct site_config, f), "", 0, 0, doc, NULL }
#define M(f, doc)		{ #f, CK_MAP, offsetof(struct site_config, f), "", 0, 0, doc, NULL }
#define E(f, d, ch, doc)	{ #f, CK_STR, offsetof(struct site_config, f), d, 0, 0, doc, ch }

/* The one list of settings: name, default, meaning. */
static const struct ckey keys[] = {
	S(site_title, "My new site", "the site's name, in every page's title and header"),
	S(site_description, "A blog built with ssg", "one line about the site, for the home page, feeds and search engines"),
	S(site_url, "http://localhost:8000", "the public address of the site; its path part prefixes every link"),
	S(author_name, "Anonymous", "default author of posts that name none"),
	S(author_email, "anonymous@example.com", "default author e-mail (feeds; JSON-LD of the author's posts)"),
	S(site_lang, "en", "language code of the site (html lang, feeds, translated strings)"),
	L(rel_me, "profile URLs (one, or a list) linked as <link rel=\"me\"> from every page, for Fediverse verification"),
	S(fediverse_creator, "", "@name@server for <meta name=\"fediverse:creator\">, when a post's front matter and its author name none"),
	M(author_fediverse_creators, "author name: @name@server, for the posts of that author (and every page, for author_name)"),
	M(messages, "message key (or BSSG MSG_ name): text, over the words of site_lang"),
	S(theme, "default", "stylesheet folder under themes_dir, or 'random'"),
	S(custom_css, "", "extra stylesheet linked after the theme (e.g. /css/custom.css from static/)"),
	S(favicon, "", "icon for <link rel=\"icon\">: a path (e.g. /img/icon.png) or URL; empty: favicon.ico, .png, .svg or .jpg in static/, the first that exists"),
	S(theme_color, "", "<meta name=\"theme-color\"> for browsers that tint their frame (e.g. #1d4ed8); empty: none"),
	M(slugs, "file name in posts_dir or pages_dir: slug, to keep a URL published before (ssg import bssg pins BSSG's this way)"),
	M(tag_slugs, "tag name: slug, to keep a tag URL published before (ssg import bssg pins BSSG's tags made from text outside ASCII this way)"),
	S(url_slug_format, "Year/Month/Day/slug", "post URL: Year, Month, Day and slug are replaced"),
	S(page_url_format, "slug", "page URL: 'slug' (from the title or slug field) or 'filename'"),
	S(date_format, "%Y-%m-%d %H:%M:%S %z", "strftime(3) format of dates shown on pages"),
	S(timezone, "local", "time zone of shown dates: 'local', 'GMT' or a zone name like Europe/Rome"),
	B(show_timezone, "false", "show the time zone after dates"),
	I(posts_per_page, "10", 1, 10000, "posts on each page of the home page list"),
	B(index_show_full_content, "false", "show whole posts on the home page instead of excerpts"),
	B(hide_menu, "false", "leave the navigation menu out of the header (BSSG's HIDE_MENU)"),
	B(hide_reading_time, "false", "leave the reading time out of posts (BSSG's HIDE_READING_TIME)"),
	B(hide_index_descriptions, "false", "leave post descriptions out of the home page and other lists (BSSG's HIDE_INDEX_DESCRIPTIONS)"),
	B(generate_excerpt, "true", "describe a post without a description by its first words, as BSSG does; false: by the site's description (BSSG's GENERATE_EXCERPT)"),
	B(smart_punctuation, "false", "curly quotes, dashes and ellipses from straight ones, as pandoc (BSSG's default) writes them"),
	B(highlight, "true", "colour fenced code blocks that name a language (```c) at build time, with Pygments; false: all code plain"),
	E(raw_html, "keep", "keep|filter|omit", "HTML written in Markdown: 'keep' publishes it as written (BSSG), 'filter' shows <script>, <iframe>, <style>... as text (GFM), 'omit' leaves it out"),
	S(rss_filename, "rss.xml", "file name of the main feed"),
	I(rss_item_limit, "15", 1, 100000, "posts in each feed"),
	B(rss_include_full_content, "false", "put whole posts in feeds instead of descriptions"),
	B(enable_archives, "true", "write /archives/ pages by year and month"),
	B(archives_list_all_posts, "false", "list every post on the main archive page"),
	B(enable_tag_rss, "true", "write a feed for each tag"),
	B(enable_author_pages, "false", "write /authors/ pages"),
	B(enable_author_rss, "false", "write a feed for each author"),
	I(show_authors_menu_threshold, "2", 0, 100000, "authors needed before the Authors menu item shows"),
	B(enable_related_posts, "true", "list related posts (by shared tags) under each post"),
	I(related_posts_count, "3", 0, 100, "how many related posts"),
	B(git_lastmod, "false", "take a post's lastmod from the last git commit that touched it"),
	B(clean_output, "false", "empty the output folder before each build (forces a full build)"),
	B(precompress_assets, "false", "write .gz and .br beside html, css, xml, js, svg, json, txt"),
	B(rebuild_after_post, "true", "build after `ssg new post`"),
	B(rebuild_after_edit, "true", "build after `ssg edit`"),
	B(search, "false", "write /search/: a search page, its script and an index of the posts and pages in shards (ssg init turns it on)"),
	B(gemini, "false", "also write the site as a Gemini capsule (gemtext) into gemini_output_dir"),
	S(gemini_output_dir, "capsule", "folder of the Gemini capsule, in the site folder"),
	S(gemini_url, "", "the capsule's address, e.g. gemini://example.org (named on its home page)"),
	B(gemini_markdown_link, "true", "with gemini: publish each Markdown post's and page's text as index.md beside its page, and link it"),
	B(follow_external_symlinks, "false", "publish what symbolic links that leave the site folder point to"),
	B(images, "true", "publish each raster image of static/ as resized AVIF, WebP and JPEG/PNG copies in a <picture>, its own URL without EXIF/XMP/IPTC metadata (a GPS position); false: copy images as they are"),
	L(image_widths, "widths of the copies, none wider than the image (default 480, 960, 1600)"),
	L(image_formats, "formats of the <source> copies, best first: avif, webp, jpeg, png (default avif, webp)"),
	M(image_quality, "format: quality from 1 to 100 (defaults avif 50, webp 75, jpeg 82)"),
	S(image_sizes, "(max-width: 800px) 100vw, 800px", "the sizes attribute of every image: how wide it shows, for the browser's choice of copy"),
	B(image_keep_originals, "false", "publish each original byte for byte at its own URL, metadata included (a warning names each with a GPS position)"),
	I(image_max_pixels, "100000000", 1, 1000000000, "larger images are an error, not decoded (a decompression bomb)"),
	S(posts_dir, "posts", "folder of posts (Markdown or HTML)"),
	S(pages_dir, "pages", "folder of pages"),
	S(drafts_dir, "drafts", "folder of drafts, built only with --drafts"),
	S(static_dir, "static", "folder copied as is into the output root"),
	S(output_dir, "output", "where the site is written"),
	S(templates_dir, "templates", "site templates that override the theme's of the same name; BSSG's header.html and footer.html there frame every page"),
	S(themes_dir, "themes", "site themes, searched before the built-in ones"),
};

#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static char **
str_field(struct site_config *c, const struct ckey *k)
{
	return (char **)((char *)c + k->off);
}

static struct cstrs *
strs_field(struct site_config *c, const struct ckey *k)
{
	return (struct cstrs *)((char *)c + k->off);
}

static void
strs_clear(struct cstrs *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static void
strs_add(struct cstrs *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

static int
strs_has(const struct cstrs *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return 1;
	return 0;
}

/* Sets name to text in a map, replacing an earlier one. */
static void
map_put(struct cstrs *m, const char *name, const char *text)
{
	size_t i;

	for (i = 0; i + 1 < m->n; i += 2)
		if (strcmp(m->v[i], name) == 0) {
			free(m->v[i + 1]);
			m->v[i + 1] = xstrdup(text);
			return;
		}
	strs_add(m, name);
	strs_add(m, text);
}

const char *
config_map_get(const struct cstrs *m, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < m->n; i += 2)
		if (strcmp(m->v[i], name) == 0)
			return m->v[i + 1];
	return NULL;
}

static int *
int_field(struct site_config *c, const struct ckey *k)
{
	return (int *)((char *)c + k->off);
}

static const struct ckey *
find_key(const char *name)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

static int
parse_bool(const char *s)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* 1 if text is one of the '|'-separated words of choices. */
static int
is_choice(const char *choices, const char *text)
{
	size_t n = strlen(text);
	const char *p;

	for (p = choices;; p++) {
		if (strncmp(p, text, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return n > 0;
		if ((p = strchr(p, '|')) == NULL)
			return 0;
	}
}

/* Stores text into k's field; 0 or -1 after an error at file:line. */
static int
set_value(struct site_config *c, const struct ckey *k, const char *text,
    const char *file, int line, struct diag *d)
{
	char *end, **sp;
	long v;
	int b;

	switch (k->kind) {
	case CK_STR:
		if (k->choices != NULL && !is_choice(k->choices, text)) {
			diag_error(d, file, line, "%s: '%s' is not one of %s",
			    k->name, text, k->choices);
			return -1;
		}
		sp = str_field(c, k);
		free(*sp);
		*sp = xstrdup(text);
		if (strcmp(k->name, "site_url") == 0) {
			size_t n = strlen(*sp);

			while (n > 0 && (*sp)[n - 1] == '/')
				(*sp)[--n] = '\0';
		}
		return 0;
	case CK_INT:
		errno = 0;
		v = strtol(text, &end, 10);
		if (errno || end == text || *end != '\0' || v < k->min ||
		    v > k->max) {
			diag_error(d, file, line, "%s: '%s' is not a whole "
			    "number from %d to %d", k->name, text, k->min,
			    k->max);
			return -1;
		}
		*int_field(c, k) = (int)v;
		return 0;
	case CK_BOOL:
		if ((b = parse_bool(text)) == -1) {
			diag_error(d, file, line, "%s: '%s' is not true or "
			    "false", k->name, text);
			return -1;
		}
		*int_field(c, k) = b;
		return 0;
	case CK_LIST:
		/* one text: a list of one (none when empty) */
		strs_clear(strs_field(c, k));
		if (*text != '\0')
			strs_add(strs_field(c, k), text);
		return 0;
	case CK_MAP:
		/* from the command line: NAME=TEXT adds one entry */
		if (*text == '\0') {
			strs_clear(strs_field(c, k));
			return 0;
		}
		if ((end = strchr(text, '=')) == NULL || end == text) {
			diag_error(d, file, line, "%s: expected NAME=TEXT",
			    k->name);
			return -1;
		}
		{
			char *name = xstrndup(text, (size_t)(end - text));

			map_put(strs_field(c, k), name, end + 1);
			free(name);
		}
		return 0;
	}
	return -1;
}

/* A list or map setting from its YAML node; 0 or -1 after an error. */
static int
set_node(struct site_config *c, const struct ckey *k, const struct ynode *n,
    const char *file, struct diag *d)
{
	struct cstrs *l = strs_field(c, k);
	const struct ynode *i;
	const char *v;

	if (n->kind == YNODE_SCALAR && k->kind == CK_LIST) {
		v = ynode_str(n);
		return set_value(c, k, v ? v : "", file, n->line, d);
	}
	if (n->kind != (k->kind == CK_LIST ? YNODE_SEQ : YNODE_MAP))
		return diag_error(d, file, n->line, k->kind == CK_LIST ? "%s: "
		    "expected a text or a list of texts" : "%s: expected "
		    "'name: text' lines under it", k->name);
	strs_clear(l);
	for (i = n->child; i != NULL; i = i->next) {
		if (i->kind != YNODE_SCALAR) {
			diag_error(d, file, i->line, "%s: expected a text",
			    k->name);
			return -1;
		}
		v = ynode_str(i);
		if (k->kind == CK_MAP)
			map_put(l, i->key, v ? v : "");
		else if (v != NULL && *v != '\0' && !strs_has(l, v))
			strs_add(l, v);	/* each once: a list is a set here */
	}
	return 0;
}

void
config_init(struct site_config *c)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < NKEYS; i++)
		set_value(c, &keys[i], keys[i].def, NULL, 0, NULL);
}

void
config_release(struct site_config *c)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (keys[i].kind == CK_STR)
			free(*str_field(c, &keys[i]));
		else if (keys[i].kind == CK_LIST || keys[i].kind == CK_MAP)
			strs_clear(strs_field(c, &keys[i]));
	memset(c, 0, sizeof(*c));
}

int
config_load(struct site_config *c, const char *path, int optional,
    struct diag *d)
{
	struct buf text = BUF_INIT;
	struct ynode *root;
	const struct ynode *n;
	const struct ckey *k;
	const char *v;
	int rc = 0;

	if (fs_read(path, &text) == -1) {
		buf_release(&text);
		if (optional && errno == ENOENT)
			return 0;
		diag_error(d, path, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	root = ynode_parse(text.ptr, text.len, path, 1, d);
	buf_release(&text);
	if (root == NULL)
		return -1;
	if (root->kind != YNODE_MAP) {
		diag_error(d, path, root->line, "expected 'key: value' lines");
		ynode_free(root);
		return -1;
	}
	for (n = root->child; n != NULL; n = n->next) {
		if ((k = find_key(n->key)) == NULL) {
			diag_warn(d, path, n->line, "unknown setting '%s' "
			    "(ignored; `ssg config` lists them)", n->key);
			continue;
		}
		if (k->kind == CK_LIST || k->kind == CK_MAP) {
			if (set_node(c, k, n, path, d) == -1)
				rc = -1;
			continue;
		}
		if (n->kind != YNODE_SCALAR) {
			diag_error(d, path, n->line, "%s: expected a single "
			    "value", n->key);
			rc = -1;
			continue;
		}
		v = ynode_str(n);
		if (set_value(c, k, v ? v : "", path, n->line, d) == -1)
			rc = -1;
	}
	ynode_free(root);
	return rc;
}

/* A list from the command line, written as config_get() reads it out:
 * "a, b" or "[a, b]"; "" or "[]" for none. */
static int
set_list(struct cstrs *l, const char *text)
{
	const char *p = text, *e = text + strlen(text), *q;

	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	if (p < e && *p == '[' && e[-1] == ']') {
		p++;
		e--;
	}
	strs_clear(l);
	while (p < e) {
		const char *a, *b;
		char *item;

		q = memchr(p, ',', (size_t)(e - p));
		if (q == NULL)
			q = e;
		for (a = p; a < q && *a == ' '; a++)
			;
		for (b = q; b > a && b[-1] == ' '; b--)
			;
		if (b > a) {
			item = xstrndup(a, (size_t)(b - a));
			strs_add(l, item);
			free(item);
		}
		p = q + 1;
	}
	return 0;
}

int
config_set(struct site_config *c, const char *key, const char *value,
    const char *origin, struct diag *d)
{
	const struct ckey *k = find_key(key);

	if (k == NULL)
		return diag_error(d, origin, 0, "unknown setting '%s'", key);
	if (k->kind == CK_LIST)
		return set_list(strs_field(c, k), value);
	return set_value(c, k, value, origin, 0, d);
}

const char *
config_get(const struct site_config *c, const char *key)
{
	static _Thread_local char num[32];
	static _Thread_local struct buf joined = BUF_INIT;
	const struct ckey *k = find_key(key);
	struct site_config *m = (struct site_config *)c;
	const struct cstrs *l;
	size_t i;

	if (k == NULL)
		return NULL;
	switch (k->kind) {
	case CK_LIST:
	case CK_MAP:
		/* "a, b" and "name=text, name=text", for reading */
		l = strs_field(m, k);
		buf_clear(&joined);
		for (i = 0; i < l->n; i++) {
			if (i > 0)
				buf_adds(&joined, k->kind == CK_MAP &&
				    i % 2 ? "=" : ", ");
			buf_adds(&joined, l->v[i]);
		}
		return joined.ptr;
	case CK_STR:
		return *str_field(m, k);
	case CK_INT:
		xsnprintf(num, sizeof(num), "%d", *int_field(m, k));
		return num;
	case CK_BOOL:
		return *int_field(m, k) ? "true" : "false";
	}
	return NULL;
}

void
config_describe(const struct site_config *c, FILE *fp)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		fprintf(fp, "%-28s %-24s # %s (default: %s)\n", keys[i].name,
		    config_get(c, keys[i].name), keys[i].doc,
		    keys[i].def[0] ? keys[i].def : "empty");
}

const char *
config_base_path(const struct site_config *c)
{
	const char *s = strstr(c->site_url, "://");

	if (s == NULL)
		return "";
	s = strchr(s + 3, '/');
	return s ? s : "";
}

uint64_t
config_hash(const struct site_config *c)
{
	struct buf b = BUF_INIT;
	uint64_t h;
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		/* where the pages go is no part of them: the same site built
		 * with -o spelt otherwise renders nothing again */
		if (strcmp(keys[i].name, "output_dir") == 0)
			continue;
		buf_adds(&b, keys[i].name);
		buf_addc(&b, '=');
		if (keys[i].kind == CK_LIST || keys[i].kind == CK_MAP) {
			const struct cstrs *l = strs_field((struct site_config *)c,
			    &keys[i]);
			size_t j;

			/* each text whole, so no two lists hash alike */
			for (j = 0; j < l->n; j++) {
				buf_adds(&b, l->v[j]);
				buf_addc(&b, '\0');
			}
		} else
			buf_adds(&b, config_get(c, keys[i].name));
		buf_addc(&b, '\0');
	}
	h = hash64(b.ptr, b.len);
	buf_release(&b);
	return h;
}
