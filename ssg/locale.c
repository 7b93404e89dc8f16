#include "locale.h"

#include <string.h>

#include "value.h"

struct lstring {
	const char *key, *text;
};

static const struct lstring en[] = {
	{ "skip_to_content", "Skip to content" },
	{ "main_menu", "Main menu" },
	{ "home", "Home" },
	{ "tags", "Tags" },
	{ "all_tags", "All tags" },
	{ "posts_tagged", "Posts tagged" },
	{ "read_more", "Read more" },
	{ "min_read", "min read" },
	{ "updated_on", "Updated on" },
	{ "rss_feed", "RSS feed" },
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
};

static const char *const months_en[] = { "January", "February", "March",
	"April", "May", "June", "July", "August", "September", "October",
	"November", "December" };

struct val *
locale_strings(const char *lang, int *known)
{
	struct val *m = val_map();
	size_t i;

	if (known)
		*known = strcmp(lang, "en") == 0 || strncmp(lang, "en-", 3) == 0 ||
		    strncmp(lang, "en_", 3) == 0;
	for (i = 0; i < sizeof(en) / sizeof(en[0]); i++)
		val_set_str(m, en[i].key, en[i].text);
	return m;
}

const char *
locale_month(const char *lang, int month)
{
	(void)lang;
	if (month < 1 || month > 12)
		return "";
	return months_en[month - 1];
}
