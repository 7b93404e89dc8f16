/*
 * The site.yaml that says what a BSSG site's config.sh says: each BSSG
 * variable ssg has a setting for, with BSSG's defaults for what the files
 * leave unset, and the rest as comments.
 */
#include "import_bssg.h"
#include "import_bssg_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

enum bkind { BK_STR, BK_BOOL, BK_INT, BK_PATH };

/* Each BSSG variable ssg has a setting for, with the value BSSG uses
 * when no file sets it (its config loader's, else config.sh 0.32's). */
static const struct bmap {
	const char	*var, *key;
	enum bkind	 kind;
	const char	*def;
} map[] = {
	{ "SITE_TITLE", "site_title", BK_STR, "My Journal" },
	{ "SITE_DESCRIPTION", "site_description", BK_STR,
	    "A personal journal and introspective newspaper" },
	{ "SITE_URL", "site_url", BK_STR, "http://localhost" },
	{ "AUTHOR_NAME", "author_name", BK_STR, "Anonymous" },
	{ "AUTHOR_EMAIL", "author_email", BK_STR, "anonymous@example.com" },
	{ "SITE_LANG", "site_lang", BK_STR, "en" },
	{ "THEME", "theme", BK_STR, "default" },
	{ "CUSTOM_CSS", "custom_css", BK_STR, "" },
	{ "URL_SLUG_FORMAT", "url_slug_format", BK_STR, "Year/Month/Day/slug" },
	{ "PAGE_URL_FORMAT", "page_url_format", BK_STR, "slug" },
	{ "DATE_FORMAT", "date_format", BK_STR, "%Y-%m-%d %H:%M:%S" },
	{ "TIMEZONE", "timezone", BK_STR, "local" },
	{ "SHOW_TIMEZONE", "show_timezone", BK_BOOL, "false" },
	{ "POSTS_PER_PAGE", "posts_per_page", BK_INT, "10" },
	{ "INDEX_SHOW_FULL_CONTENT", "index_show_full_content", BK_BOOL,
	    "false" },
	/* BSSG 0.41's switches (default: shown, and excerpts made) */
	{ "HIDE_MENU", "hide_menu", BK_BOOL, "false" },
	{ "HIDE_READING_TIME", "hide_reading_time", BK_BOOL, "false" },
	{ "HIDE_INDEX_DESCRIPTIONS", "hide_index_descriptions", BK_BOOL,
	    "false" },
	{ "GENERATE_EXCERPT", "generate_excerpt", BK_BOOL, "true" },
	{ "RSS_FILENAME", "rss_filename", BK_STR, "rss.xml" },
	{ "RSS_ITEM_LIMIT", "rss_item_limit", BK_INT, "15" },
	{ "RSS_INCLUDE_FULL_CONTENT", "rss_include_full_content", BK_BOOL,
	    "false" },
	{ "ENABLE_ARCHIVES", "enable_archives", BK_BOOL, "true" },
	{ "ARCHIVES_LIST_ALL_POSTS", "archives_list_all_posts", BK_BOOL,
	    "false" },
	{ "ENABLE_TAG_RSS", "enable_tag_rss", BK_BOOL, "false" },
	{ "ENABLE_AUTHOR_PAGES", "enable_author_pages", BK_BOOL, "true" },
	{ "ENABLE_AUTHOR_RSS", "enable_author_rss", BK_BOOL, "false" },
	{ "SHOW_AUTHORS_MENU_THRESHOLD", "show_authors_menu_threshold", BK_INT,
	    "2" },
	{ "ENABLE_RELATED_POSTS", "enable_related_posts", BK_BOOL, "true" },
	{ "RELATED_POSTS_COUNT", "related_posts_count", BK_INT, "3" },
	{ "CLEAN_OUTPUT", "clean_output", BK_BOOL, "false" },
	{ "PRECOMPRESS_ASSETS", "precompress_assets", BK_BOOL, "false" },
	{ "REBUILD_AFTER_POST", "rebuild_after_post", BK_BOOL, "true" },
	{ "REBUILD_AFTER_EDIT", "rebuild_after_edit", BK_BOOL, "true" },
	{ "SRC_DIR", "posts_dir", BK_PATH, "src" },
	{ "PAGES_DIR", "pages_dir", BK_PATH, "pages" },
	{ "DRAFTS_DIR", "drafts_dir", BK_PATH, "drafts" },
	{ "STATIC_DIR", "static_dir", BK_PATH, "static" },
	{ "OUTPUT_DIR", "output_dir", BK_PATH, "output" },
	{ "TEMPLATES_DIR", "templates_dir", BK_PATH, "templates" },
	{ "THEMES_DIR", "themes_dir", BK_PATH, "themes" },
};

#define NMAP (sizeof(map) / sizeof(map[0]))

/* BSSG variables with no ssg setting, and why they need none. */
static const struct {
	const char *var, *why;
} unmapped[] = {
	{ "MARKDOWN_PROCESSOR", "ssg renders Markdown itself (cmark-gfm); "
	  "smart_punctuation follows it" },
	{ "MARKDOWN_PL_PATH", "ssg renders Markdown itself (cmark-gfm)" },
	{ "BUILD_MODE", "ssg has one build mode, incremental and in memory" },
	{ "CACHE_DIR", "ssg keeps its cache in .ssg-cache/" },
	{ "FORCE_REBUILD", "use `ssg build --force`" },
	{ "BACKUP_DIR", "ssg has no backup command" },
	{ "LOCALE_DIR", "ssg's translations are built in (site_lang)" },
	{ "CONFIG_FILE", "ssg reads site.yaml" },
	{ "DEPLOY_AFTER_BUILD", "publish with the deploy program" },
	{ "DEPLOY_SCRIPT", "publish with the deploy program" },
	{ "BSSG_SERVER_PORT_DEFAULT", "use `ssg serve --port`" },
	{ "BSSG_SERVER_HOST_DEFAULT", "use `ssg serve --host`" },
	{ "RED", "a terminal colour of BSSG's messages" },
	{ "GREEN", "a terminal colour of BSSG's messages" },
	{ "YELLOW", "a terminal colour of BSSG's messages" },
	{ "BLUE", "a terminal colour of BSSG's messages" },
	{ "NC", "a terminal colour of BSSG's messages" },
};

/* A YAML double-quoted scalar. */
/*
 * A BSSG folder as ssg should name it from the site folder: `~` expanded
 * as BSSG does, absolute paths inside the site made relative, "./" and
 * trailing slashes dropped. Returns a malloc'd path.
 */
static char *
site_path(const struct bssg_site *s, const struct bmap *m, const char *v,
    struct diag *d, const char *origin, int line)
{
	char real[PATH_MAX], *p, *r;
	const char *home = getenv("HOME");
	size_t n;

	if ((v[0] == '~' && v[1] == '\0') || strncmp(v, "~/", 2) == 0) {
		if (home == NULL) {
			diag_warn(d, origin, line, "%s: HOME is not set, so "
			    "'~' is kept", m->var);
			p = xstrdup(v);
		} else
			p = path_join(home, v[1] == '/' ? v + 2 : ".");
	} else
		p = xstrdup(v);
	while ((n = strlen(p)) > 1 && p[n - 1] == '/')
		p[n - 1] = '\0';
	while (strncmp(p, "./", 2) == 0 && p[2] != '\0')
		memmove(p, p + 2, strlen(p + 2) + 1);
	if (p[0] != '/')
		return p;
	if (realpath(s->dir, real) != NULL) {
		n = strlen(real);
		if (strncmp(p, real, n) == 0 && (p[n] == '/' ||
		    p[n] == '\0')) {
			r = xstrdup(p[n] == '\0' ? "." : p + n + 1);
			free(p);
			return r;
		}
	}
	diag_warn(d, origin, line, "%s: '%s' is outside the site folder; "
	    "kept as an absolute path", m->var, p);
	return p;
}

static int
all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static int
has_file(const char *dir, const char *name)
{
	char *path = path_join(dir, name);
	int rc = fs_is_file(path);

	free(path);
	return rc;
}

static int
is_mapped(const char *var)
{
	static const char *const more[] = { "REL_ME_URL", "REL_ME_URLS",
	    "FEDIVERSE_CREATOR", "AUTHOR_FEDIVERSE_CREATORS" };
	size_t i;

	for (i = 0; i < NMAP; i++)
		if (strcmp(map[i].var, var) == 0)
			return 1;
	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		if (strcmp(more[i], var) == 0)
			return 1;
	return strncmp(var, "MSG_", 4) == 0;
}

/* Appends s[0..n) trimmed of blanks, as BSSG's trim_whitespace does. */
static void
trimmed(struct buf *out, const char *s, size_t n)
{
	while (n > 0 && strchr(" \t\r\n", *s)) {
		s++;
		n--;
	}
	while (n > 0 && strchr(" \t\r\n", s[n - 1]))
		n--;
	buf_add(out, s, n);
}

/* 1 if the lines ("a\nb\n") hold line ("b\n"). */
static int
has_line(const char *lines, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = lines; *p != '\0'; p = strchr(p, '\n') + 1)
		if (strncmp(p, line, n) == 0)
			return 1;
	return 0;
}

/* " # NAME (file:line)" for a variable a setting came from. */
static void
origin_comment(struct buf *out, const struct bvar *v)
{
	buf_printf(out, "\t# %s (%s:%d)\n", v->name, v->file, v->line);
}

/*
 * The Fediverse settings: rel_me from REL_ME_URL and REL_ME_URLS (each
 * URL once, as BSSG writes them), fediverse_creator, and
 * author_fediverse_creators from the declare -A array.
 */
static size_t
write_fediverse(const struct bssg_site *s, struct buf *out, struct diag *d)
{
	struct bvar *one = bssg_find_var(s, "REL_ME_URL", 10);
	struct bvar *many = bssg_find_var(s, "REL_ME_URLS", 11);
	struct bvar *fc = bssg_find_var(s, "FEDIVERSE_CREATOR", 17);
	struct bvar *afc = bssg_find_var(s, "AUTHOR_FEDIVERSE_CREATORS", 25);
	struct buf urls = BUF_INIT, u = BUF_INIT;
	const char *p, *nl, *tab;
	char *origin;
	size_t nurls = 0;

	if (one != NULL) {
		trimmed(&u, one->value, strlen(one->value));
		if (u.len > 0) {
			buf_printf(&urls, "%s\n", u.ptr);
			nurls++;
		}
	}
	if (many != NULL && many->kind != BV_ARRAY) {
		origin = path_join(s->dir, many->file);
		diag_warn(d, origin, many->line, "REL_ME_URLS is not an array "
		    "(NAME=(...)); ignored, as BSSG does");
		free(origin);
		many = NULL;
	}
	for (p = many ? many->value : ""; (nl = strchr(p, '\n')); p = nl + 1) {
		buf_clear(&u);
		trimmed(&u, p, (size_t)(nl - p));
		buf_addc(&u, '\n');
		/* each URL once */
		if (u.len > 1 && !has_line(urls.ptr, u.ptr)) {
			buf_adds(&urls, u.ptr);
			nurls++;
		}
	}
	buf_adds(out, "rel_me:");
	if (nurls == 0)
		buf_adds(out, " []");
	if (one)
		buf_printf(out, "\t# REL_ME_URL (%s:%d)", one->file, one->line);
	if (many)
		buf_printf(out, "%s REL_ME_URLS (%s:%d)", one ? "," : "\t#",
		    many->file, many->line);
	if (one || many)
		buf_addc(out, '\n');
	else
		buf_adds(out, "\t# REL_ME_URL, REL_ME_URLS: BSSG default\n");
	for (p = urls.ptr; (nl = strchr(p, '\n')); p = nl + 1) {
		buf_adds(out, "  - ");
		esc_yaml(out, p, (size_t)(nl - p));
		buf_addc(out, '\n');
	}

	buf_clear(&u);
	if (fc != NULL)
		trimmed(&u, fc->value, strlen(fc->value));
	buf_adds(out, "fediverse_creator: ");
	esc_yaml(out, u.ptr, u.len);
	if (fc)
		origin_comment(out, fc);
	else
		buf_adds(out, "\t# FEDIVERSE_CREATOR: BSSG default\n");

	if (afc != NULL && afc->kind != BV_ASSOC) {
		origin = path_join(s->dir, afc->file);
		diag_warn(d, origin, afc->line, "AUTHOR_FEDIVERSE_CREATORS is "
		    "not an associative array (declare -A NAME=(...)); "
		    "ignored, as BSSG does");
		free(origin);
		afc = NULL;
	}
	buf_adds(out, "author_fediverse_creators:");
	if (afc == NULL || afc->value[0] == '\0')
		buf_adds(out, " {}");
	if (afc)
		origin_comment(out, afc);
	else
		buf_adds(out, "\t# AUTHOR_FEDIVERSE_CREATORS: BSSG default\n");
	for (p = afc ? afc->value : ""; (nl = strchr(p, '\n')); p = nl + 1) {
		tab = memchr(p, '\t', (size_t)(nl - p));
		buf_adds(out, "  ");
		esc_yaml(out, p, (size_t)(tab - p));
		buf_adds(out, ": ");
		buf_clear(&u);
		trimmed(&u, tab + 1, (size_t)(nl - tab - 1));
		esc_yaml(out, u.ptr, u.len);
		buf_addc(out, '\n');
	}
	buf_release(&urls);
	buf_release(&u);
	return 3;
}

/* Every MSG_ variable, as a message over the language's words. */
static size_t
write_messages(const struct bssg_site *s, struct buf *out)
{
	const struct bvar *v;
	size_t i, n = 0;

	for (i = 0; i < s->nv; i++)
		if (strncmp(s->v[i].name, "MSG_", 4) == 0)
			n++;
	buf_adds(out, n ? "messages:\t# the MSG_ settings\n" :
	    "messages: {}\t# no MSG_ settings\n");
	for (i = 0; i < s->nv; i++) {
		v = &s->v[i];
		if (strncmp(v->name, "MSG_", 4) != 0)
			continue;
		buf_printf(out, "  %s: ", v->name);
		esc_yaml(out, v->value, strlen(v->value));
		buf_printf(out, "\t# %s:%d\n", v->file, v->line);
	}
	return 1;
}

size_t
bssg_write_yaml(const struct bssg_site *s, struct buf *out, struct diag *d)
{
	const struct bmap *m;
	struct bvar *v;
	const char *val, *why;
	char *origin, *path, *tmpl;
	size_t i, j, nset = 0, nother = 0;

	buf_adds(out, "# site.yaml for ssg, written by `ssg import bssg` from "
	    "the BSSG\n# settings in ");
	buf_adds(out, s->files.len ? s->files.ptr : "(no file)");
	buf_adds(out, ".\n# Every setting is written out, so the site builds "
	    "as BSSG builds it;\n# \"BSSG default\" marks what those files "
	    "leave unset.\n\n");
	for (i = 0; i < NMAP; i++) {
		m = &map[i];
		v = bssg_find_var(s, m->var, strlen(m->var));
		val = v ? v->value : m->def;
		origin = v ? path_join(s->dir, v->file) : NULL;
		buf_printf(out, "%s: ", m->key);
		switch (m->kind) {
		case BK_STR:
			esc_yaml(out, val, strlen(val));
			break;
		case BK_BOOL:
			/* BSSG tests `= true`: anything else is false. */
			if (strcmp(val, "true") != 0 &&
			    strcmp(val, "false") != 0)
				diag_warn(d, origin, v ? v->line : 0, "%s: "
				    "'%s' is not 'true', so BSSG reads it as "
				    "false", m->var, val);
			buf_adds(out, strcmp(val, "true") == 0 ? "true" :
			    "false");
			break;
		case BK_INT:
			if (!all_digits(val)) {
				diag_warn(d, origin, v ? v->line : 0, "%s: "
				    "'%s' is not a whole number; BSSG's "
				    "default %s is written", m->var, val,
				    m->def);
				val = m->def;
			}
			buf_adds(out, val);
			break;
		case BK_PATH:
			path = site_path(s, m, val, d, origin,
			    v ? v->line : 0);
			esc_yaml(out, path, strlen(path));
			free(path);
			break;
		}
		if (v)
			buf_printf(out, "\t# %s (%s:%d)\n", m->var, v->file,
			    v->line);
		else
			buf_printf(out, "\t# %s: BSSG default\n", m->var);
		free(origin);
		nset++;
	}

	/* BSSG's default processor, pandoc, writes typographic punctuation. */
	val = bssg_get(s, "MARKDOWN_PROCESSOR");
	buf_printf(out, "smart_punctuation: %s\t# MARKDOWN_PROCESSOR %s\n",
	    val == NULL || strcmp(val, "pandoc") == 0 ? "true" : "false",
	    val == NULL ? "unset: pandoc" : val);
	nset++;
	nset += write_fediverse(s, out, d);
	nset += write_messages(s, out);

	tmpl = path_join(s->dir, (val = bssg_get(s, "TEMPLATES_DIR")) ? val :
	    "templates");
	if (has_file(tmpl, "header.html") || has_file(tmpl, "footer.html"))
		buf_adds(out, "\n# The site's header.html and footer.html "
		    "(in templates_dir) frame every\n# page, with their "
		    "placeholders filled as BSSG fills them.\n");
	free(tmpl);

	for (i = 0; i < s->nv; i++) {
		v = &s->v[i];
		if (is_mapped(v->name))
			continue;
		if (nother++ == 0)
			buf_adds(out, "\n# BSSG settings ssg has no setting "
			    "for (not used):\n");
		why = "not a BSSG setting ssg knows";
		for (j = 0; j < sizeof(unmapped) / sizeof(unmapped[0]); j++)
			if (strcmp(unmapped[j].var, v->name) == 0)
				why = unmapped[j].why;
		buf_printf(out, "#   %s=", v->name);
		esc_yaml(out, v->value, strlen(v->value));
		buf_printf(out, " (%s:%d): %s\n", v->file, v->line, why);
	}
	return nset;
}
