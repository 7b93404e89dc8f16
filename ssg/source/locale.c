#include "locale.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "value.h"
#include "yamldoc.h"

/* English, built in: the fallback for missing files and keys. */
static const char *const en[][2] = {
	{ "skip_to_content", "Skip to content" },
	{ "main_menu", "Main menu" },
	{ "home", "Home" },
	{ "tags", "Tags" },
	{ "all_tags", "All tags" },
	{ "posts_tagged", "Posts tagged" },
	{ "read_more", "Read more" },
	{ "min_read", "min read" },
	{ "updated_on", "Updated on" },
	{ "published_on", "Published on" },
	{ "by", "by" },
	{ "rss_feed", "RSS feed" },
	{ "atom_feed", "Atom feed" },
	{ "subscribe", "Subscribe" },
	{ "pagination", "Pages of posts" },
	{ "page", "Page" },
	{ "newer_posts", "Newer posts" },
	{ "older_posts", "Older posts" },
	{ "more_posts", "More posts" },
	{ "previous_post", "Previous:" },
	{ "next_post", "Next:" },
	{ "no_posts", "Nothing has been published yet." },
	{ "not_found_title", "Page not found" },
	{ "not_found_text", "There is nothing at this address. It may have moved, or never existed." },
	{ "back_home", "Back to the home page" },
	{ "posts", "posts" },
	{ "archives", "Archives" },
	{ "archives_for", "Posts from" },
	{ "all_posts", "All posts" },
	{ "authors", "Authors" },
	{ "posts_by", "Posts by" },
	{ "related_posts", "Related posts" },
	{ "pages", "Pages" },
	{ "all_pages", "All pages" },
	{ "tag_feed", "Feed of this tag" },
	{ "author_feed", "Feed of this author" },
	{ "month_1", "January" }, { "month_2", "February" },
	{ "month_3", "March" }, { "month_4", "April" }, { "month_5", "May" },
	{ "month_6", "June" }, { "month_7", "July" }, { "month_8", "August" },
	{ "month_9", "September" }, { "month_10", "October" },
	{ "month_11", "November" }, { "month_12", "December" },
	{ "latest_posts", "Latest Posts" },
	{ "search_title", "Search" },
	{ "search_label", "Words to find" },
	{ "search_button", "Search" },
	{ "search_needs_js", "Search needs JavaScript. Without it, find posts by date or by tag:" },
	{ "search_empty", "Type words to find posts and pages." },
	{ "search_none", "No post or page has all these words." },
	{ "search_too_long", "That is too long to search for: use fewer words." },
	{ "search_results", "Results:" },
	{ "search_error", "The search index could not be loaded." },
	{ "search_no_words", "No words to search for: search knows Latin, Greek and Cyrillic letters and digits." },
	{ "lang_name", "English" },
	{ "date_format", "%B %d, %Y" },
};

#define NEN (sizeof(en) / sizeof(en[0]))

/*
 * BSSG's messages in English (its locales/en.sh, MSG_NAME as name): what
 * BSSG's header.html and footer.html placeholders stand for. Other
 * languages are in locales/bssg/LANG.yaml.
 */
static const char *const bssg_en[][2] = {
	{ "home", "Home" },
	{ "tags", "Tags" },
	{ "authors", "Authors" },
	{ "archives", "Archives" },
	{ "rss", "RSS" },
	{ "pages", "Pages" },
	{ "subscribe_rss", "Subscribe via RSS" },
	{ "published_on", "Published on" },
	{ "by", "by" },
	{ "posts_by", "Posts by" },
	{ "tag_page_title", "Posts tagged with" },
	{ "all_tags", "All Tags" },
	{ "all_authors", "All Authors" },
	{ "all_pages", "All Pages" },
	{ "archives_for", "Archives for" },
	{ "back_to", "Back to" },
	{ "posts_from", "Posts from" },
	{ "older_posts", "Older Posts" },
	{ "newer_posts", "Newer Posts" },
	{ "page_info_template", "Page %d of %d" },
	{ "page_title_prefix", "Page" },
	{ "rss_feed_title", "${SITE_TITLE} - RSS Feed" },
	{ "rss_feed_description", "${SITE_DESCRIPTION}" },
	{ "rss_feed", "RSS Feed" },
	{ "all_rights_reserved", "All rights reserved." },
	{ "generated_with", "This site was generated with" },
	{ "latest_posts", "Latest Posts" },
	{ "generator_description", ", a Bash Static Site Generator." },
	{ "posts", "posts" },
	{ "read_more", "Read more" },
	{ "month_01", "January" },
	{ "month_02", "February" },
	{ "month_03", "March" },
	{ "month_04", "April" },
	{ "month_05", "May" },
	{ "month_06", "June" },
	{ "month_07", "July" },
	{ "month_08", "August" },
	{ "month_09", "September" },
	{ "month_10", "October" },
	{ "month_11", "November" },
	{ "month_12", "December" },
	{ "reading_time_template", "%d min read" },
	{ "minute", "minute" },
	{ "minutes", "minutes" },
	{ "updated_on", "Updated on" },
	{ "back_to_top", "Back to Top" },
	{ "related_posts", "Related Posts" },
};

#define NBSSG (sizeof(bssg_en) / sizeof(bssg_en[0]))

struct locale {
	char	*text[NEN];	/* from the file; NULL: the English default */
	char	*bssg[NBSSG];	/* the same for BSSG's messages */
};

static int
bssg_index(const char *name)
{
	size_t i;

	for (i = 0; i < NBSSG; i++)
		if (strcmp(bssg_en[i][0], name) == 0)
			return (int)i;
	return -1;
}

static int
key_index(const char *key)
{
	size_t i;

	for (i = 0; i < NEN; i++)
		if (strcmp(en[i][0], key) == 0)
			return (int)i;
	return -1;
}

/* BSSG MSG_ names whose key is not the rest of the name in lower case. */
static const char *const bssg_names[][2] = {
	{ "MSG_TAG_PAGE_TITLE", "posts_tagged" },
	{ "MSG_PAGE_TITLE_PREFIX", "page" },
	{ "MSG_SUBSCRIBE_RSS", "subscribe" },
};

/* The key index of key or of the BSSG name it is, or -1. */
static int
message_index(const char *key)
{
	char low[64];
	size_t i;
	int month;

	if (strncmp(key, "MSG_", 4) != 0)
		return key_index(key);
	for (i = 0; i < sizeof(bssg_names) / sizeof(bssg_names[0]); i++)
		if (strcmp(key, bssg_names[i][0]) == 0)
			return key_index(bssg_names[i][1]);
	if (sscanf(key, "MSG_MONTH_%2d", &month) == 1 && strlen(key) == 12 &&
	    month >= 1 && month <= 12) {
		xsnprintf(low, sizeof(low), "month_%d", month);
		return key_index(low);
	}
	for (i = 0; key[i + 4] != '\0' && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)key[i + 4]);
	low[i] = '\0';
	return key[i + 4] == '\0' ? key_index(low) : -1;
}

int
locale_set(struct locale *l, const char *key, const char *text)
{
	char low[64];
	size_t i;
	int k = message_index(key), b = -1;

	/* MSG_NAME also sets BSSG's own message of that name */
	if (strncmp(key, "MSG_", 4) == 0 && strlen(key + 4) < sizeof(low)) {
		for (i = 0; key[i + 4] != '\0'; i++)
			low[i] = (char)tolower((unsigned char)key[i + 4]);
		low[i] = '\0';
		if ((b = bssg_index(low)) != -1) {
			free(l->bssg[b]);
			l->bssg[b] = xstrdup(text);
		}
	}
	if (k == -1)
		return b == -1 ? -1 : 0;
	free(l->text[k]);
	l->text[k] = xstrdup(text);
	return 0;
}

/* Reads folder/sub/name.yaml (a file within bd, which may be NULL) into
 * the texts of keys, n of them; 1 if the file was there. */
static int
read_file(char **texts, const char *const (*keys)[2], size_t n,
    const char *folder, const char *sub, const char *name,
    const struct fs_bound *bd, struct diag *d)
{
	struct buf rel = BUF_INIT, text = BUF_INIT;
	struct ynode *root;
	const struct ynode *y;
	char *path;
	size_t k;

	if (folder == NULL)
		return 0;
	buf_printf(&rel, "%s/%s.yaml", sub, name);
	path = path_join(folder, rel.ptr);
	buf_release(&rel);
	if (!fs_bound_check(bd, path) || fs_read(path, &text) == -1) {
		free(path);
		buf_release(&text);
		return 0;
	}
	root = ynode_parse(text.ptr, text.len, path, 1, d);
	for (y = root ? root->child : NULL; y != NULL; y = y->next) {
		if (ynode_str(y) == NULL)
			continue;
		for (k = 0; k < n && strcmp(keys[k][0], y->key) != 0; k++)
			;
		if (k == n)
			continue;
		free(texts[k]);
		texts[k] = xstrdup(ynode_str(y));
	}
	ynode_free(root);
	buf_release(&text);
	free(path);
	return 1;
}

/* Loads one name from the built-in folder, then the site's over it. */
static int
try_name(struct locale *l, const char *name, const char *site_themes,
    const char *builtin, const struct fs_bound *bd, struct diag *d)
{
	int found = 0;

	/* a language code is letters, digits and dashes: never a path */
	if (*name == '\0' || strspn(name, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != strlen(name))
		return 0;
	found |= read_file(l->text, en, NEN, builtin, "locales", name, NULL,
	    d);
	found |= read_file(l->text, en, NEN, site_themes, "locales", name, bd,
	    d);
	/* BSSG's own words, where BSSG has the language */
	read_file(l->bssg, bssg_en, NBSSG, builtin, "locales/bssg", name, NULL,
	    d);
	read_file(l->bssg, bssg_en, NBSSG, site_themes, "locales/bssg", name,
	    bd, d);
	return found;
}

struct locale *
locale_load(const char *lang, const char *site_themes, const char *builtin,
    const struct fs_bound *bd, struct diag *d)
{
	struct locale *l = xcalloc(1, sizeof(*l));
	char *name = xstrdup(lang), *p;

	for (p = name; *p; p++)
		if (*p == '_')
			*p = '-';
	if (try_name(l, name, site_themes, builtin, bd, d))
		goto out;
	if ((p = strchr(name, '-')) != NULL) {
		*p = '\0';
		if (try_name(l, name, site_themes, builtin, bd, d))
			goto out;
	}
	if (strcmp(name, "en") != 0)
		diag_warn(d, "site.yaml", 0, "no translation for site_lang "
		    "'%s': using English", lang);
	try_name(l, "en", site_themes, builtin, bd, d);
out:
	free(name);
	return l;
}

void
locale_free(struct locale *l)
{
	size_t i;

	if (l == NULL)
		return;
	for (i = 0; i < NEN; i++)
		free(l->text[i]);
	for (i = 0; i < NBSSG; i++)
		free(l->bssg[i]);
	free(l);
}

const char *
locale_get(const struct locale *l, const char *key)
{
	int k = key_index(key);

	if (k == -1)
		return "";
	return l->text[k] ? l->text[k] : en[k][1];
}

const char *
locale_month(const struct locale *l, int month)
{
	char key[16];

	if (month < 1 || month > 12)
		return "";
	xsnprintf(key, sizeof(key), "month_%d", month);
	return locale_get(l, key);
}

struct val *
locale_strings(const struct locale *l)
{
	struct val *m = val_map();
	size_t i;

	for (i = 0; i < NEN; i++)
		val_set_str(m, en[i][0], l->text[i] ? l->text[i] : en[i][1]);
	return m;
}

/* BSSG's messages by name, for the templates that write BSSG's words. */
struct val *
locale_bssg_strings(const struct locale *l)
{
	struct val *m = val_map();
	size_t i;

	for (i = 0; i < NBSSG; i++)
		val_set_str(m, bssg_en[i][0], l->bssg[i] ? l->bssg[i] :
		    bssg_en[i][1]);
	return m;
}

size_t
locale_bssg_count(void)
{
	return NBSSG;
}

const char *
locale_bssg_name(size_t i)
{
	return i < NBSSG ? bssg_en[i][0] : NULL;
}

const char *
locale_bssg(const struct locale *l, const char *name)
{
	int k = bssg_index(name);

	if (k == -1)
		return "";
	return l->bssg[k] ? l->bssg[k] : bssg_en[k][1];
}
