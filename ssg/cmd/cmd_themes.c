/* ssg themes: list the themes, or build the site once per theme with a
 * gallery page linking the results. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "escape.h"
#include "fsutil.h"
#include "mem.h"
#include "theme.h"

static const char themes_usage[] =
    "usage: ssg themes [-C DIR]\n"
    "       ssg themes preview [-C DIR] [--out DIR] [--site-url URL] [THEME...]\n"
    "\n"
    "Lists the themes (the site's own in themes_dir, then the built-in ones)\n"
    "with their family and description.\n"
    "\n"
    "preview builds the site once per theme (or per THEME given) into\n"
    "DIR/THEME/ and writes DIR/index.html, a gallery linking them. The posts\n"
    "are parsed once; each theme only renders. Serve DIR at URL to browse it.\n"
    "\n"
    "  -C, --site DIR       the site folder\n"
    "  -o, --out DIR        where to write (default: SITE/themes-preview)\n"
    "  -u, --site-url URL   the address DIR will be served at\n"
    "                       (default: http://127.0.0.1:8000)\n"
    "  -h, --help           this help\n";

/* The site's themes folder and the built-in one. */
static void
theme_dirs(struct cli *cli, char **site_themes, char **builtin)
{
	struct site_config c;
	char *path = path_join(cli->site_dir, "site.yaml");

	config_init(&c);
	config_load(&c, path, 1, NULL);
	*site_themes = path_join(cli->site_dir, c.themes_dir);
	*builtin = theme_builtin_dir(cli->argv0);
	config_release(&c);
	free(path);
}

static int
list_themes(struct cli *cli)
{
	struct theme_info ti;
	char *site_themes, *builtin, **names;
	size_t n, i;
	int tty = cli->color_out;

	theme_dirs(cli, &site_themes, &builtin);
	n = theme_list(site_themes, builtin, &names);
	for (i = 0; i < n; i++) {
		if (theme_info_load(&ti, names[i], site_themes, builtin) == 0) {
			if (tty)
				printf("\033[1m%-16s\033[0m %-8s %s\n", ti.name,
				    ti.family, ti.description);
			else
				printf("%s\t%s\t%s\n", ti.name, ti.family,
				    ti.description);
			theme_info_release(&ti);
		}
		free(names[i]);
	}
	free(names);
	free(builtin);
	free(site_themes);
	return n > 0 ? 0 : 1;
}

static void
gallery_text(struct buf *b, const char *s)
{
	esc_html(b, s, strlen(s));
}

/* DIR/index.html: one link per theme that was built. */
static int
write_gallery(const char *out, char **names, const int *built, size_t n,
    const char *site_themes, const char *builtin)
{
	struct theme_info ti;
	struct buf b = BUF_INIT;
	char *path;
	size_t i;
	int rc;

	buf_adds(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n"
	    "<title>Theme gallery</title>\n"
	    "<link rel=\"stylesheet\" href=\"default/css/style.css\">\n"
	    "</head>\n<body>\n<main id=\"main\">\n<h1>Theme gallery</h1>\n"
	    "<ul class=\"theme-gallery\">\n");
	for (i = 0; i < n; i++) {
		if (!built[i] || theme_info_load(&ti, names[i], site_themes,
		    builtin) == -1)
			continue;
		buf_adds(&b, "<li><a href=\"");
		esc_url(&b, names[i], strlen(names[i]));
		buf_adds(&b, "/index.html\">");
		gallery_text(&b, names[i]);
		buf_adds(&b, "</a> <small>");
		gallery_text(&b, ti.family);
		buf_adds(&b, "</small> ");
		gallery_text(&b, ti.description);
		buf_adds(&b, "</li>\n");
		theme_info_release(&ti);
	}
	buf_adds(&b, "</ul>\n</main>\n</body>\n</html>\n");
	path = path_join(out, "index.html");
	rc = fs_write_atomic(path, b.ptr, b.len);
	free(path);
	buf_release(&b);
	return rc;
}

static int
preview(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "out", required_argument, NULL, 'o' },
		{ "site-url", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *url = "http://127.0.0.1:8000";
	char *out = NULL, *site_themes, *builtin, **names, *dir;
	struct build_opts o;
	struct build_stats st;
	struct diag *d;
	struct buf u = BUF_INIT;
	size_t n, i, ok = 0;
	int ch, *built, rc = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:o:u:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'o': free(out); out = xstrdup(optarg); break;
		case 'u': url = optarg; break;
		case 'h': fputs(themes_usage, stdout); free(out); return 0;
		default: free(out); return cmd_bad_usage(themes_usage);
		}
	}
	theme_dirs(cli, &site_themes, &builtin);
	if (optind < argc) {
		n = (size_t)(argc - optind);
		names = xcalloc(n, sizeof(*names));
		for (i = 0; i < n; i++)
			names[i] = xstrdup(argv[optind + i]);
	} else
		n = theme_list(site_themes, builtin, &names);
	if (out == NULL)
		out = path_join(cli->site_dir, "themes-preview");
	built = xcalloc(n + 1, sizeof(*built));
	for (i = 0; i < n; i++) {
		memset(&o, 0, sizeof(o));
		o.site_dir = cli->site_dir;
		o.theme = names[i];
		o.themes_builtin = builtin;
		dir = path_join(out, names[i]);
		o.output_dir = dir;
		buf_clear(&u);
		buf_printf(&u, "%s/%s", url, names[i]);
		o.site_url = u.ptr;
		d = diag_new();
		if (ssg_build(&o, &st, d) == 0) {
			built[i] = 1;
			ok++;
		} else
			rc = 1;
		cli_print_diag(cli, d, 0);
		diag_free(d);
		if (!cli->quiet && cli->tty_err)
			fprintf(stderr, "\r\033[K%zu/%zu %s", i + 1, n, names[i]);
		free(dir);
	}
	if (!cli->quiet && cli->tty_err)
		fputs("\r\033[K", stderr);
	if (write_gallery(out, names, built, n, site_themes, builtin) == -1) {
		cli_error(cli, "%s: cannot write the gallery", out);
		rc = 1;
	}
	printf("%zu of %zu themes built into %s; gallery: %s/index.html\n",
	    ok, n, out, out);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(built);
	free(out);
	free(builtin);
	free(site_themes);
	buf_release(&u);
	return rc;
}

int
cmd_themes(struct cli *cli, int argc, char **argv)
{
	int rc;

	if (argc > 1 && strcmp(argv[1], "preview") == 0)
		return preview(cli, argc - 1, argv + 1);
	if ((rc = cmd_simple_args(cli, argc, argv, themes_usage)) != 0)
		return rc == 1 ? 0 : rc;
	return list_themes(cli);
}
