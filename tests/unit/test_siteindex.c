/*
 * The site model (siteindex.h), from posts parsed as the build parses
 * them: the order readers see, tags under their first spelling, months
 * and years, the home page, secondary pages, authors and their e-mail,
 * and two sources at one URL refused, naming both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "content.h"
#include "diag.h"
#include "markdown.h"
#include "mem.h"
#include "siteindex.h"
#include "tap.h"

static struct site_config c;
static struct arena *a;
static struct diag *d;

static void
parse(struct post *p, enum content_kind kind, const char *rel,
    const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s",
	    kind == CONTENT_POST ? "posts" : "pages", rel);
	if (content_parse(p, kind, path, rel, text, strlen(text), 0, &c, NULL,
	    a, d) != 0)
		printf("# %s did not parse\n", path);
}

int
main(void)
{
	struct post posts[5], pages[3], clash[2];
	struct site_index ix;
	const struct tag_info *t;
	const char *msg;
	size_t i;

	markdown_init();
	config_init(&c);
	free(c.author_name);
	c.author_name = xstrdup("Site Author");
	free(c.author_email);
	c.author_email = xstrdup("site@example.org");
	a = arena_new();
	d = diag_new();
	memset(posts, 0, sizeof(posts));
	memset(pages, 0, sizeof(pages));
	parse(&posts[0], CONTENT_POST, "old.md", "---\ntitle: Old\n"
	    "date: 2024-12-31 23:00\ntags: Cooking, sea\n---\nOld.\n");
	parse(&posts[1], CONTENT_POST, "b.md", "---\ntitle: Bravo\n"
	    "date: 2025-03-01 10:00\ntags: cooking\n---\nB.\n");
	parse(&posts[2], CONTENT_POST, "a.md", "---\ntitle: Alpha\n"
	    "date: 2025-03-01 10:00\nauthor_name: Guest\n"
	    "author_email: guest@example.org\n---\nA.\n");
	parse(&posts[3], CONTENT_POST, "new.md", "---\ntitle: New\n"
	    "date: 2025-04-02\ntags: Sea\nauthor_name: Site Author\n---\nN.\n");
	parse(&posts[4], CONTENT_POST, "quiet.md", "---\ntitle: Quiet\n"
	    "date: 2025-04-01\nauthor_name: Other\n---\nQ.\n");
	parse(&pages[0], CONTENT_PAGE, "zeta.md", "---\ntitle: Zeta\n---\nZ.\n");
	parse(&pages[1], CONTENT_PAGE, "index.md", "---\ntitle: Welcome\n"
	    "slug: index\n---\nHome.\n");
	parse(&pages[2], CONTENT_PAGE, "colophon.md", "---\ntitle: Colophon\n"
	    "secondary: true\n---\nC.\n");
	IS_INT(siteindex_build(&ix, posts, 5, pages, 3, &c, d), 0,
	    "the site indexes");

	IS_INT(ix.nposts, 5, "five posts");
	IS_STR(ix.posts[0]->title, "New", "newest first");
	IS_STR(ix.posts[2]->title, "Alpha", "a tie of dates by title: Alpha");
	IS_STR(ix.posts[3]->title, "Bravo", "... then Bravo");
	IS_STR(ix.posts[4]->title, "Old", "oldest last");

	IS_INT(ix.ntags, 2, "Cooking and cooking, sea and Sea: two tags");
	t = siteindex_tag(&ix, "cooking");
	OK(t != NULL && strcmp(t->name, "cooking") == 0,
	    "a tag is named as its newest post spells it");
	t = siteindex_tag(&ix, "sea");
	OK(t != NULL && strcmp(t->name, "Sea") == 0, "... Sea, not sea");
	t = siteindex_tag(&ix, "cooking");
	OK(t != NULL && t->nposts == 2 &&
	    strcmp(t->posts[0]->title, "Bravo") == 0, "its posts, newest "
	    "first");
	OK(siteindex_tag(&ix, "Sea") == NULL, "tags are found by slug");

	IS_INT(ix.nmonths, 3, "three months with posts");
	OK(ix.months[0].year == 2025 && ix.months[0].month == 4 &&
	    ix.months[0].nposts == 2, "the newest month first, with both "
	    "its posts");
	OK(ix.nyears == 2 && ix.years[0].year == 2025 &&
	    ix.years[0].nmonths == 2 && ix.years[0].nposts == 4,
	    "2025: two months, four posts");
	OK(ix.months[2].year == 2024 && ix.months[2].month == 12,
	    "a post dated 23:00 on 31 December is December's");

	OK(ix.home != NULL && strcmp(ix.home->title, "Welcome") == 0,
	    "the page whose slug is index is the home page");
	IS_INT(ix.npages, 2, "... and not one of the pages");
	IS_STR(ix.pages[0]->title, "Colophon", "pages by title");
	OK(ix.nsecondary == 1 && strcmp(ix.secondary[0]->title,
	    "Colophon") == 0, "the secondary page listed apart");

	IS_STR(siteindex_author(&ix, ix.posts[4]), "Site Author",
	    "a post naming no author is the site's");
	IS_STR(siteindex_author_email(&ix, ix.posts[4]), "site@example.org",
	    "... with the site's e-mail");
	IS_STR(siteindex_author_email(&ix, ix.posts[0]), "site@example.org",
	    "a post by the site's author by name: the site's e-mail");
	IS_STR(siteindex_author_email(&ix, ix.posts[2]), "guest@example.org",
	    "a guest's own e-mail");
	OK(siteindex_author_email(&ix, ix.posts[1]) == NULL,
	    "another author without one: none, not the site's");
	IS_INT(ix.nauthors, 3, "three authors");
	IS_INT(diag_count(d, DIAG_ERROR), 0, "no errors");
	siteindex_release(&ix);

	/* two sources, one URL */
	memset(clash, 0, sizeof(clash));
	parse(&clash[0], CONTENT_POST, "one.md", "---\ntitle: Same\n"
	    "date: 2025-01-01\n---\n1\n");
	parse(&clash[1], CONTENT_POST, "two.md", "---\ntitle: Same\n"
	    "date: 2025-01-01\n---\n2\n");
	IS_INT(siteindex_build(&ix, clash, 2, NULL, 0, &c, d), -1,
	    "two posts at one URL are refused");
	for (i = 0, msg = NULL; i < diag_total(d); i++)
		if (strstr(diag_message(d, i), "posts/one.md") != NULL &&
		    strstr(diag_message(d, i), "posts/two.md") != NULL)
			msg = "";
	OK(msg != NULL, "... naming both files");
	siteindex_release(&ix);

	diag_free(d);
	arena_free(a);
	config_release(&c);
	return tap_done();
}
