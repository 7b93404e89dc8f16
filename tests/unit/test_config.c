#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "tap.h"

static char *
write_tmp(const char *text)
{
	static char path[] = "/tmp/ssg-test-config-XXXXXX";
	char *p = strdup(path);
	int fd = mkstemp(p);
	FILE *fp = fdopen(fd, "w");

	fputs(text, fp);
	fclose(fp);
	return p;
}

int
main(void)
{
	struct site_config c;
	struct diag *d = diag_new();
	size_t i;
	char *p;

	config_init(&c);
	IS_STR(c.url_slug_format, "Year/Month/Day/slug", "BSSG default URL format");
	IS_INT(c.posts_per_page, 10, "default posts_per_page");
	IS_STR(c.posts_dir, "posts", "default posts_dir");
	IS_INT(c.enable_archives, 1, "archives on by default");

	p = write_tmp("site_title: My \"blog\"\nsite_url: https://x.org/blog/\n"
	    "posts_per_page: 5\nshow_timezone: yes\nsite_titel: typo\n");
	OK(config_load(&c, p, 0, d) == 0, "loads");
	IS_STR(c.site_title, "My \"blog\"", "title");
	IS_STR(c.site_url, "https://x.org/blog", "trailing slash dropped");
	IS_STR(config_base_path(&c), "/blog", "base path");
	IS_INT(c.posts_per_page, 5, "int");
	IS_INT(c.show_timezone, 1, "bool");
	IS_INT(diag_count(d, DIAG_WARNING), 1, "unknown key warns");
	OK(strstr(diag_message(d, 0), ":5:") != NULL, "warning has the line: %s",
	    diag_message(d, 0));
	unlink(p);
	free(p);

	p = write_tmp("posts_per_page: lots\nenable_archives: maybe\n");
	OK(config_load(&c, p, 0, d) == -1, "bad values fail");
	IS_INT(diag_count(d, DIAG_ERROR), 2, "every bad value is reported");
	OK(strstr(diag_message(d, 1), ":1: error: posts_per_page") != NULL,
	    "names line and key: %s", diag_message(d, 1));
	unlink(p);
	free(p);

	OK(config_set(&c, "theme", "dark", "--theme", d) == 0, "override");
	IS_STR(c.theme, "dark", "override applied");
	OK(config_set(&c, "nope", "1", "--set", d) == -1, "unknown override fails");
	/* a list as config_get() writes it, brackets or not */
	OK(config_set(&c, "image_formats", "[avif, webp]", "--set", d) == 0 &&
	    c.image_formats.n == 2, "--set reads a list of two");
	IS_STR(c.image_formats.v[1], "webp", "... its second item");
	OK(config_set(&c, "image_widths", " 480 ,960,", "--set", d) == 0 &&
	    c.image_widths.n == 2, "... without brackets, spaces and the "
	    "empty item dropped");
	IS_STR(config_get(&c, "image_widths"), "480, 960", "... read back");
	OK(config_set(&c, "image_widths", "[]", "--set", d) == 0 &&
	    c.image_widths.n == 0, "... [] is none");
	{
		uint64_t h0 = config_hash(&c), h1;

		p = write_tmp("rel_me:\n  - https://a.example/@me\n"
		    "  - https://b.example/@me\n"
		    "fediverse_creator: \"@me@a.example\"\n"
		    "author_fediverse_creators:\n  Jane Smith: \"@j@x.example\"\n"
		    "messages:\n  read_more: More\n  MSG_TAGS: Labels\n");
		OK(config_load(&c, p, 0, d) == 0, "lists and maps load");
		IS_INT(c.rel_me.n, 2, "rel_me: two URLs");
		IS_STR(c.rel_me.v[1], "https://b.example/@me", "in order");
		IS_STR(c.fediverse_creator, "@me@a.example", "fediverse_creator");
		IS_STR(config_map_get(&c.author_fediverse_creators, "Jane Smith"),
		    "@j@x.example", "per-author creator");
		IS_STR(config_map_get(&c.author_fediverse_creators, "Bob"), NULL,
		    "no entry");
		IS_STR(config_map_get(&c.messages, "MSG_TAGS"), "Labels",
		    "message override");
		IS_STR(config_get(&c, "rel_me"),
		    "https://a.example/@me, https://b.example/@me", "shown");
		IS_STR(config_get(&c, "messages"), "read_more=More, MSG_TAGS=Labels",
		    "map shown");
		h1 = config_hash(&c);
		OK(h0 != h1, "lists change the settings' hash");
		unlink(p);
		free(p);
		p = write_tmp("rel_me: https://solo.example/@me\n");
		OK(config_load(&c, p, 0, d) == 0 && c.rel_me.n == 1 &&
		    strcmp(c.rel_me.v[0], "https://solo.example/@me") == 0,
		    "rel_me: one URL");
		OK(config_hash(&c) != h1, "and the hash follows");
		unlink(p);
		free(p);
		p = write_tmp("rel_me:\n  a: b\nmessages: [x]\n");
		i = diag_count(d, DIAG_ERROR);
		OK(config_load(&c, p, 0, d) == -1 &&
		    diag_count(d, DIAG_ERROR) == i + 2, "wrong shapes fail");
		unlink(p);
		free(p);
		OK(config_set(&c, "messages", "home=Start", "--set", d) == 0 &&
		    strcmp(config_map_get(&c.messages, "home"), "Start") == 0,
		    "--set messages=KEY=TEXT");
		OK(config_set(&c, "messages", "nothing", "--set", d) == -1,
		    "--set messages needs KEY=TEXT");
	}
	IS_STR(c.raw_html, "keep", "raw HTML kept by default, as BSSG");
	OK(config_set(&c, "raw_html", "omit", "--set", d) == 0 &&
	    strcmp(c.raw_html, "omit") == 0, "raw_html: omit");
	OK(config_set(&c, "raw_html", "filter", "--set", d) == 0 &&
	    strcmp(c.raw_html, "filter") == 0, "raw_html: filter");
	OK(config_set(&c, "raw_html", "unsafe", "--set", d) == -1 &&
	    strcmp(c.raw_html, "filter") == 0, "raw_html: other words refused");
	OK(config_set(&c, "raw_html", "", "--set", d) == -1, "and empty too");
	OK(config_set(&c, "raw_html", "kee", "--set", d) == -1, "and prefixes");
	OK(strstr(diag_message(d, diag_total(d) - 1), "keep|filter|omit") !=
	    NULL, "the message lists the choices: %s",
	    diag_message(d, diag_total(d) - 1));
	OK(config_load(&c, "/nonexistent/site.yaml", 1, d) == 0,
	    "missing optional file is fine");
	OK(config_load(&c, "/nonexistent/site.yaml", 0, d) == -1,
	    "missing required file fails");
	config_release(&c);
	diag_free(d);
	return tap_done();
}
