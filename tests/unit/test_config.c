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
