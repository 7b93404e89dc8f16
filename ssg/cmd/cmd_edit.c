/*
 * Commands on an existing source file: edit, delete and publish. They
 * find the file by path or by name under posts/, pages/ or drafts/ and
 * change its front matter in place.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cmd.h"
#include "cmd_write_int.h"
#include "config.h"
#include "datetime.h"
#include "diag.h"
#include "frontmatter.h"
#include "fsutil.h"
#include "mem.h"
#include "slug.h"

static const char edit_usage[] =
    "usage: ssg edit [-C DIR] [-n] FILE\n"
    "\n"
    "Opens FILE (a path, or a name under posts/, pages/ or drafts/) in\n"
    "$EDITOR, then sets lastmod in its front matter to now and builds the\n"
    "site when rebuild_after_edit is true.\n"
    "\n"
    "  -n, --rename         rename the file when its title changed\n"
    "      --no-build       do not build afterwards\n"
    "  -h, --help           this help\n";

static const char delete_usage[] =
    "usage: ssg delete [-C DIR] [-f] FILE\n"
    "\n"
    "Deletes a post, page or draft after asking. Without a terminal,\n"
    "-f is needed.\n"
    "\n"
    "  -f, --force          do not ask\n"
    "  -h, --help           this help\n";

static const char publish_usage[] =
    "usage: ssg publish [-C DIR] DRAFT\n"
    "\n"
    "Moves a draft into posts/ dated now: the date, lastmod and the file\n"
    "name's date prefix are set to the current time and draft: is removed.\n";

/*
 * The front matter block of text: [*start, *end) are its lines (after the
 * opening "---\n", up to the closing "---" line). Returns -1 without one.
 */
static int
fm_span(const char *text, size_t *start, size_t *end)
{
	const char *p;

	if (strncmp(text, "---\n", 4) != 0 && strncmp(text, "---\r\n", 5) != 0)
		return -1;
	*start = text[3] == '\r' ? 5 : 4;
	for (p = text + *start; *p; ) {
		if (strncmp(p, "---", 3) == 0 && (p[3] == '\n' || p[3] == '\r' ||
		    p[3] == '\0')) {
			*end = (size_t)(p - text);
			return 0;
		}
		if ((p = strchr(p, '\n')) == NULL)
			break;
		p++;
	}
	return -1;
}

/* The offset of the line "key:" inside the front matter, or -1. */
static long
fm_find_line(const char *text, size_t start, size_t end, const char *key)
{
	size_t klen = strlen(key), i = start;

	while (i < end) {
		if (strncmp(text + i, key, klen) == 0 && text[i + klen] == ':')
			return (long)i;
		while (i < end && text[i] != '\n')
			i++;
		i++;
	}
	return -1;
}

/*
 * Sets "key: value" in the front matter of text (replacing the line, or
 * adding it at the end of the block); value NULL removes the line. Adds a
 * block when there is none. Returns 0.
 */
static int
fm_set(struct buf *text, const char *key, const char *value)
{
	struct buf out = BUF_INIT;
	size_t start, end, eol;
	long at;

	if (fm_span(text->ptr, &start, &end) == -1) {
		if (value == NULL)
			return 0;
		buf_printf(&out, "---\n%s: %s\n---\n", key, value);
		buf_add(&out, text->ptr, text->len);
		goto done;
	}
	if ((at = fm_find_line(text->ptr, start, end, key)) == -1) {
		buf_add(&out, text->ptr, end);
		if (value)
			buf_printf(&out, "%s: %s\n", key, value);
		buf_adds(&out, text->ptr + end);
		goto done;
	}
	for (eol = (size_t)at; eol < end && text->ptr[eol] != '\n'; eol++)
		;
	if (eol < end)
		eol++;
	buf_add(&out, text->ptr, (size_t)at);
	if (value)
		buf_printf(&out, "%s: %s\n", key, value);
	buf_adds(&out, text->ptr + eol);
done:
	buf_release(text);
	*text = out;
	return 0;
}

/* The title in a file's front matter (malloc'd), or NULL. */
static char *
file_title(const char *path)
{
	struct buf text = BUF_INIT;
	struct frontmatter fm;
	struct diag *d = diag_new();
	const char *t;
	char *title = NULL;

	memset(&fm, 0, sizeof(fm));
	if (fs_read(path, &text) == 0 &&
	    (strcmp(path_ext(path), "html") == 0 ? frontmatter_parse_html :
	    frontmatter_parse)(&fm, text.ptr, text.len, path, d) == 0 &&
	    (t = fm_str(&fm, "title")) != NULL)
		title = xstrdup(t);
	frontmatter_release(&fm);
	buf_release(&text);
	diag_free(d);
	return title;
}

/* Finds a source file: the path as given, else relative to the site
 * folder, else by name in posts, pages and drafts. Caller frees. */
static char *
find_source(struct cli *cli, const struct site_config *c, const char *name)
{
	const char *dirs[3];
	char *p, *dir;
	size_t i;

	if (fs_is_file(name))
		return xstrdup(name);
	p = path_join(cli->site_dir, name);
	if (fs_is_file(p))
		return p;
	free(p);
	dirs[0] = c->posts_dir;
	dirs[1] = c->pages_dir;
	dirs[2] = c->drafts_dir;
	for (i = 0; i < 3; i++) {
		dir = path_join(cli->site_dir, dirs[i]);
		p = path_join(dir, path_base(name));
		free(dir);
		if (fs_is_file(p))
			return p;
		free(p);
	}
	return NULL;
}

/* Reads the site's settings into c (release it either way) and finds the
 * source name names, saying "no such <what>" when there is none. Returns
 * the path (caller frees) or NULL. */
static char *
load_source(struct cli *cli, struct site_config *c, const char *name,
    const char *what)
{
	char *path;

	if (cmd_load_config(cli, c, 1) == -1)
		return NULL;
	if ((path = find_source(cli, c, name)) == NULL)
		cli_error(cli, "%s: no such %s", name, what);
	return path;
}

/* 11 if the file name starts with BSSG's "YYYY-MM-DD-" prefix, else 0. */
static size_t
date_prefix_len(const char *base)
{
	size_t i;

	for (i = 0; i < 11; i++) {
		if (i == 4 || i == 7 || i == 10) {
			if (base[i] != '-')
				return 0;
		} else if (base[i] < '0' || base[i] > '9')
			return 0;
	}
	return 11;
}

/* Strips BSSG's "YYYY-MM-DD-" prefix and the extension of a file name. */
static char *
name_stem(const char *path)
{
	const char *base = path_base(path), *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	size_t pre = date_prefix_len(base);

	if (n > pre) {
		base += pre;
		n -= pre;
	}
	return xstrndup(base, n);
}

/* ---- edit ---- */

enum { OPT_NOBUILD = 256 };

/* Sets lastmod in the file's front matter to now, atomically. */
static int
touch_lastmod(const char *path, time_t now)
{
	struct buf text = BUF_INIT, v = BUF_INIT;
	int rc = -1;

	if (fs_read(path, &text) == -1)
		goto out;
	cw_now_text(&v, now);
	fm_set(&text, "lastmod", v.ptr);
	rc = fs_write_atomic(path, text.ptr, text.len);
out:
	buf_release(&text);
	buf_release(&v);
	return rc;
}

int
cmd_edit(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "rename", no_argument, NULL, 'n' },
		{ "no-build", no_argument, NULL, OPT_NOBUILD },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct site_config c;
	struct buf prefix = BUF_INIT, s = BUF_INIT;
	char *path = NULL, *before = NULL, *after = NULL, *stem = NULL;
	char *dir = NULL, *npath = NULL;
	const char *base;
	int ch, rename_it = 0, nobuild = 0, rc = 1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:nh", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'n': rename_it = 1; break;
		case OPT_NOBUILD: nobuild = 1; break;
		case 'h': fputs(edit_usage, stdout); return 0;
		default: return cmd_bad_usage(edit_usage);
		}
	}
	if (argc - optind != 1)
		return cmd_bad_usage(edit_usage);
	if ((path = load_source(cli, &c, argv[optind], "post, page or draft")) == NULL)
		goto out;
	before = file_title(path);
	if (cw_run_editor(cli, path) != 0)
		goto out;
	if (touch_lastmod(path, time(NULL)) == -1) {
		cli_error(cli, "%s: %s", path, strerror(errno));
		goto out;
	}
	after = file_title(path);
	if (rename_it && after && (before == NULL || strcmp(before, after) != 0)) {
		base = path_base(path);
		stem = name_stem(path);
		if ((size_t)(base - path) > 0)
			dir = xstrndup(path, (size_t)(base - path - 1));
		else
			dir = xstrdup(".");
		buf_add(&prefix, base, date_prefix_len(base));
		slug_append(&s, after);
		if (s.len && strcmp(s.ptr, stem) != 0) {
			npath = cw_free_name(dir, prefix.ptr, s.ptr,
			    path_ext(path), NULL);
			if (rename(path, npath) == -1) {
				cli_error(cli, "%s: %s", npath, strerror(errno));
				goto out;
			}
			if (!cli->quiet)
				printf("renamed to %s\n", npath);
		}
	}
	rc = 0;
	if (c.rebuild_after_edit && !nobuild)
		rc = cw_build_site(cli);
out:
	config_release(&c);
	buf_release(&prefix);
	buf_release(&s);
	free(path);
	free(before);
	free(after);
	free(stem);
	free(dir);
	free(npath);
	return rc;
}

/* ---- delete ---- */

int
cmd_delete(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct site_config c;
	char *path = NULL, answer[64];
	int ch, force = 0, rc = 1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:fh", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'f': force = 1; break;
		case 'h': fputs(delete_usage, stdout); return 0;
		default: return cmd_bad_usage(delete_usage);
		}
	}
	if (argc - optind != 1)
		return cmd_bad_usage(delete_usage);
	if ((path = load_source(cli, &c, argv[optind], "post, page or draft")) == NULL)
		goto out;
	if (!force) {
		if (!isatty(STDIN_FILENO)) {
			cli_error(cli, "refusing to delete %s without asking: "
			    "no terminal (use -f)", path);
			goto out;
		}
		printf("Delete %s? [y/N] ", path);
		fflush(stdout);
		if (fgets(answer, sizeof(answer), stdin) == NULL ||
		    (answer[0] != 'y' && answer[0] != 'Y')) {
			printf("Not deleted.\n");
			goto out;
		}
	}
	if (unlink(path) == -1) {
		cli_error(cli, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!cli->quiet)
		printf("deleted %s\n", path);
	rc = 0;
out:
	config_release(&c);
	free(path);
	return rc;
}

/* ---- publish ---- */

int
cmd_publish(struct cli *cli, int argc, char **argv)
{
	struct site_config c;
	struct buf text = BUF_INIT, v = BUF_INIT, prefix = BUF_INIT;
	char *path = NULL, *stem = NULL, *dir = NULL, *npath = NULL;
	time_t now = time(NULL);
	int rc;

	if ((rc = cmd_site_args(cli, argc, argv, publish_usage, 0, 1)) != 0)
		return rc == 1 ? 0 : rc;
	rc = 1;
	if ((path = load_source(cli, &c, argv[optind], "draft")) == NULL)
		goto out;
	if (fs_read(path, &text) == -1) {
		cli_error(cli, "%s: %s", path, strerror(errno));
		goto out;
	}
	cw_now_text(&v, now);
	fm_set(&text, "date", v.ptr);
	fm_set(&text, "lastmod", v.ptr);
	fm_set(&text, "draft", NULL);
	stem = name_stem(path);
	dir = path_join(cli->site_dir, c.posts_dir);
	dt_format(&prefix, now, "%Y-%m-%d-", 0);
	npath = cw_free_name(dir, prefix.ptr, stem, path_ext(path), NULL);
	if (cw_write_new(npath, text.ptr, text.len) == -1) {
		cli_error(cli, "%s: %s", npath, strerror(errno));
		goto out;
	}
	if (unlink(path) == -1) {
		cli_error(cli, "%s: %s", path, strerror(errno));
		unlink(npath);
		goto out;
	}
	if (!cli->quiet)
		printf("%s\n", npath);
	rc = 0;
out:
	config_release(&c);
	buf_release(&text);
	buf_release(&v);
	buf_release(&prefix);
	free(path);
	free(stem);
	free(dir);
	free(npath);
	return rc;
}
