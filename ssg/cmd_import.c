/* ssg import: take over a site made with another generator (BSSG). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cmd.h"
#include "diag.h"
#include "fsutil.h"
#include "import_bssg.h"
#include "mem.h"
#include "theme.h"

static const char import_usage[] =
    "usage: ssg import bssg [-f] [-o FILE] DIR\n"
    "\n"
    "Reads the BSSG site in DIR (its config.sh, then config.sh.local) and\n"
    "writes DIR/site.yaml with the same settings, the folders pointing at\n"
    "the BSSG ones, so that `ssg build -C DIR` builds the site unchanged.\n"
    "The files are read, never run: lines other than NAME=value\n"
    "assignments are skipped with a warning. BSSG settings ssg has no use\n"
    "for are listed as comments.\n"
    "\n"
    "  -o, --output FILE  write FILE instead of DIR/site.yaml (- for stdout)\n"
    "  -f, --force        replace an existing file\n"
    "  -h, --help         show this help\n";

/* Warns when the theme named is neither the site's nor built in, since
 * BSSG's own themes live beside its scripts, not in the site. */
static void
check_theme(struct cli *cli, const char *dir, const struct bssg_site *s,
    struct diag *d)
{
	const char *theme = bssg_get(s, "THEME");
	const char *tdir = bssg_get(s, "THEMES_DIR");
	char *site_themes, *builtin, *sheet;

	if (theme == NULL)
		theme = "default";
	if (strcmp(theme, "random") == 0)
		return;
	site_themes = path_join(dir, tdir ? tdir : "themes");
	builtin = theme_builtin_dir(cli->argv0);
	sheet = theme_stylesheet(theme, site_themes, builtin);
	if (sheet == NULL)
		diag_warn(d, NULL, 0, "theme '%s' is neither in %s nor "
		    "among ssg's themes: copy BSSG's themes/%s/style.css "
		    "there, or pick one from `ssg themes`", theme,
		    site_themes, theme);
	free(sheet);
	free(builtin);
	free(site_themes);
}

int
cmd_import(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bssg_site *s = NULL;
	struct buf yaml = BUF_INIT;
	struct diag *d;
	const char *dir, *output = NULL;
	char *dest = NULL;
	size_t nset = 0;
	int ch, force = 0, rc = 1;
	FILE *info;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:fh", opts, NULL)) != -1) {
		switch (ch) {
		case 'o': output = optarg; break;
		case 'f': force = 1; break;
		case 'h': fputs(import_usage, stdout); return 0;
		default: return cmd_bad_usage(import_usage);
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "ssg import: expected a kind of site (bssg) "
		    "and its folder\n");
		return cmd_bad_usage(import_usage);
	}
	if (strcmp(argv[optind], "bssg") != 0) {
		fprintf(stderr, "ssg import: unknown kind of site '%s' (ssg "
		    "imports: bssg)\n", argv[optind]);
		return cmd_bad_usage(import_usage);
	}
	dir = argv[optind + 1];
	if (!fs_is_dir(dir)) {
		cli_error(cli, "%s: not a folder", dir);
		return 1;
	}
	dest = output ? xstrdup(output) : path_join(dir, "site.yaml");
	if (strcmp(dest, "-") != 0 && !force && fs_is_file(dest)) {
		cli_error(cli, "%s already exists (--force replaces it)", dest);
		free(dest);
		return 1;
	}
	d = diag_new();
	if ((s = bssg_load(dir, d)) == NULL)
		goto out;
	nset = bssg_write_yaml(s, &yaml, d);
	check_theme(cli, dir, s, d);
	if (strcmp(dest, "-") == 0) {
		if (fwrite(yaml.ptr, 1, yaml.len, stdout) != yaml.len ||
		    fflush(stdout) != 0) {
			diag_error(d, NULL, 0, "cannot write to stdout: %s",
			    strerror(errno));
			goto out;
		}
	} else if (fs_write_atomic(dest, yaml.ptr, yaml.len) == -1) {
		diag_error(d, dest, 0, "cannot write: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	cli_print_diag(cli, d, 0);
	info = strcmp(dest, "-") == 0 ? stderr : stdout;
	if (rc == 0 && !cli->quiet)
		fprintf(info, "%s: %zu settings from BSSG, %zu warning%s\n",
		    strcmp(dest, "-") == 0 ? "site.yaml" : dest, nset,
		    diag_count(d, DIAG_WARNING),
		    diag_count(d, DIAG_WARNING) == 1 ? "" : "s");
	diag_free(d);
	bssg_free(s);
	buf_release(&yaml);
	free(dest);
	return rc;
}
