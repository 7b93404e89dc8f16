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
	{ "lang_name", "English" },
	{ "date_format", "%B %d, %Y" },
};

#define NEN (sizeof(en) / sizeof(en[0]))

struct locale {
	char	*text[NEN];	/* from the file; NULL: the English default */
};

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
		snprintf(low, sizeof(low), "month_%d", month);
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
	int k = message_index(key);

	if (k == -1)
		return -1;
	free(l->text[k]);
	l->text[k] = xstrdup(text);
	return 0;
}

/* Reads folder/locales/name.yaml into l (a file within bd, which may be
 * NULL); 1 if the file was there. */
static int
read_file(struct locale *l, const char *folder, const char *name,
    const struct fs_bound *bd, struct diag *d)
{
	struct buf rel = BUF_INIT, text = BUF_INIT;
	struct ynode *root;
	const struct ynode *n;
	char *path;
	int k;

	if (folder == NULL)
		return 0;
	buf_printf(&rel, "locales/%s.yaml", name);
	path = path_join(folder, rel.ptr);
	buf_release(&rel);
	if (!fs_bound_check(bd, path) || fs_read(path, &text) == -1) {
		free(path);
		buf_release(&text);
		return 0;
	}
	root = ynode_parse(text.ptr, text.len, path, 1, d);
	for (n = root ? root->child : NULL; n != NULL; n = n->next) {
		if ((k = key_index(n->key)) == -1 || ynode_str(n) == NULL)
			continue;
		free(l->text[k]);
		l->text[k] = xstrdup(ynode_str(n));
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
	found |= read_file(l, builtin, name, NULL, d);
	found |= read_file(l, site_themes, name, bd, d);
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
	snprintf(key, sizeof(key), "month_%d", month);
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
