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
    "usage: ssg import bssg [-f] [-o FILE] [--bssg BSSG_DIR] DIR\n"
    "\n"
    "Reads the BSSG site in DIR (its config.sh, then config.sh.local) and\n"
    "writes DIR/site.yaml with the same settings, the folders pointing at\n"
    "the BSSG ones, so that `ssg build -C DIR` builds the site unchanged.\n"
    "The files are read, never run: lines other than NAME=value\n"
    "assignments are skipped with a warning. BSSG settings ssg has no use\n"
    "for are listed as comments.\n"
    "\n"
    "  -o, --output FILE  write FILE instead of DIR/site.yaml (- for stdout)\n"
    "  -b, --bssg DIR     the BSSG installation the site was built with:\n"
    "                     copy its theme (THEME; every theme for random)\n"
    "                     into the site's themes folder and its\n"
    "                     templates/header.html and footer.html into the\n"
    "                     site's templates folder, where the site has none\n"
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

/* Copies bssg/from to dir/to unless dir/to exists; 1 if copied. */
static int
take_file(const char *bssg, const char *from, const char *dir,
    const char *to, struct diag *d)
{
	char *src = path_join(bssg, from), *dst = path_join(dir, to), *slash;
	int copied = 0;

	if (fs_is_file(src) && !fs_is_file(dst)) {
		if ((slash = strrchr(dst, '/')) != NULL) {
			*slash = '\0';
			fs_mkdirs(dst);
			*slash = '/';
		}
		if (fs_copy_atomic(src, dst) == -1)
			diag_error(d, dst, 0, "cannot copy %s here: %s", src,
			    strerror(errno));
		else {
			diag_add(d, DIAG_NOTE, dst, 0, "copied from %s", src);
			copied = 1;
		}
	}
	free(src);
	free(dst);
	return copied;
}

/*
 * BSSG keeps its themes and templates beside its scripts, not in the
 * site: take those the site uses from the installation at bssg, so that
 * it keeps its exact look. Files the site has are kept.
 */
static int
take_from_bssg(const char *dir, const char *bssg, const struct bssg_site *s,
    struct diag *d)
{
	const char *theme = bssg_get(s, "THEME");
	const char *tdir = bssg_get(s, "THEMES_DIR");
	const char *pdir = bssg_get(s, "TEMPLATES_DIR");
	char *themes = path_join(bssg, "themes"), **names = NULL;
	struct buf from = BUF_INIT, to = BUF_INIT;
	size_t i, n = 0;
	static const char *const frame[] = { "header.html", "footer.html" };

	if (!fs_is_dir(themes)) {
		diag_error(d, bssg, 0, "not a BSSG installation (no themes/ "
		    "folder)");
		free(themes);
		return -1;
	}
	/* only into the site: never a folder named by an absolute path */
	if ((tdir && (tdir[0] == '/' || strstr(tdir, "..") != NULL)) ||
	    (pdir && (pdir[0] == '/' || strstr(pdir, "..") != NULL))) {
		diag_warn(d, NULL, 0, "THEMES_DIR or TEMPLATES_DIR is outside "
		    "the site: nothing copied from %s", bssg);
		free(themes);
		return 0;
	}
	if (theme == NULL)
		theme = "default";
	if (strcmp(theme, "random") == 0)
		n = theme_list(themes, NULL, &names);
	for (i = 0; i < (n ? n : 1); i++) {
		buf_clear(&from);
		buf_clear(&to);
		buf_printf(&from, "themes/%s/style.css", n ? names[i] : theme);
		buf_printf(&to, "%s/%s/style.css", tdir ? tdir : "themes",
		    n ? names[i] : theme);
		take_file(bssg, from.ptr, dir, to.ptr, d);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	for (i = 0; i < 2; i++) {
		buf_clear(&to);
		buf_printf(&to, "%s/%s", pdir ? pdir : "templates", frame[i]);
		buf_clear(&from);
		buf_printf(&from, "templates/%s", frame[i]);
		take_file(bssg, from.ptr, dir, to.ptr, d);
	}
	buf_release(&from);
	buf_release(&to);
	free(themes);
	return 0;
}

int
cmd_import(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "bssg", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct bssg_site *s = NULL;
	struct buf yaml = BUF_INIT;
	struct diag *d;
	const char *dir, *output = NULL, *bssg = NULL;
	char *dest = NULL;
	size_t nset = 0;
	int ch, force = 0, rc = 1;
	FILE *info;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "o:b:fh", opts, NULL)) != -1) {
		switch (ch) {
		case 'o': output = optarg; break;
		case 'b': bssg = optarg; break;
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
	if (bssg != NULL && take_from_bssg(dir, bssg, s, d) == -1)
		goto out;
	check_theme(cli, dir, s, d);
	{
		const char *o = bssg_get(s, "OUTPUT_DIR");
		char *old = path_join(dir, o ? o : "output");
		size_t pinned = 0;

		if (bssg_locale_urls(s, dir, old, &yaml, &pinned, d) > 0)
			diag_add(d, DIAG_NOTE, NULL, 0, fs_is_dir(old) ?
			    "%zu moved URL(s) kept; after `ssg build`, `ssg "
			    "check --against %s` lists any BSSG published that "
			    "ssg's build still lacks" : "%zu URL(s) kept; keep "
			    "a copy of the output BSSG wrote and run `ssg check "
			    "--against COPY` after `ssg build`: it lists every "
			    "URL that moved", pinned, old);
		free(old);
	}
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
