/*
 * Commands that list a site's sources: list, tags and drafts. Tables are
 * aligned on a terminal and tab-separated otherwise.
 */
#include <sys/stat.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "content.h"
#include "datetime.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

static const char list_usage[] =
    "usage: ssg list [-C DIR]\n"
    "\n"
    "Lists the posts, newest first: date, title, tags and file. Aligned\n"
    "on a terminal, tab-separated otherwise.\n";

static const char tags_usage[] =
    "usage: ssg tags [-C DIR] [-n]\n"
    "\n"
    "Lists the tags of the posts with their number of posts, by name\n"
    "(with -n, by count).\n"
    "\n"
    "  -n, --by-count       sort by number of posts, most first\n"
    "  -h, --help           this help\n";

static const char drafts_usage[] =
    "usage: ssg drafts [-C DIR]\n"
    "\n"
    "Lists the drafts: files in drafts/ and posts with draft: true.\n";

struct table {
	char	**cells;
	size_t	 ncols, nrows, cap;
};

static void
table_add(struct table *t, const char *const *row)
{
	size_t i;
	char *p;

	xgrow((void **)&t->cells, &t->cap, (t->nrows + 1) * t->ncols,
	    sizeof(char *));

	for (i = 0; i < t->ncols; i++) {
		p = xstrdup(row[i] ? row[i] : "");
		t->cells[t->nrows * t->ncols + i] = p;
		/* one cell, one line, no tab: the piped form stays parseable */
		for (; *p; p++)
			if (*p == '\t' || *p == '\n' || *p == '\r')
				*p = ' ';
	}
	t->nrows++;
}

/* Display width: UTF-8 code points (close enough for titles). */
static size_t
text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Aligned columns with a header on a terminal; tabs and no header when
 * piped, for other programs. */
static void
table_print(struct table *t, const char *const *head, int tty)
{
	size_t *w = xcalloc(t->ncols, sizeof(*w)), i, j, n;
	const char *cell;

	for (j = 0; j < t->ncols; j++)
		w[j] = text_width(head[j]);
	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < t->ncols; j++)
			if ((n = text_width(t->cells[i * t->ncols + j])) > w[j])
				w[j] = n;
	for (i = tty ? 0 : 1; i <= t->nrows; i++) {
		for (j = 0; j < t->ncols; j++) {
			cell = i == 0 ? head[j] : t->cells[(i - 1) * t->ncols + j];
			if (!tty) {
				printf("%s%s", cell, j + 1 < t->ncols ? "\t" : "");
				continue;
			}
			if (j + 1 < t->ncols)
				printf("%s%*s  ", cell,
				    (int)(w[j] - text_width(cell)), "");
			else
				printf("%s", cell);
		}
		printf("\n");
	}
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(w);
}

struct loaded {
	struct site_config	 c;
	struct post	*posts;
	size_t		 n, cap;
	struct arena	*arena;
	struct diag	*d;
	int		 in_drafts;
};

static int
load_one(const char *path, const char *rel, const struct stat *st, void *arg)
{
	struct loaded *l = arg;
	struct post p;

	(void)st;
	if (!content_is_source(path))
		return 0;
	if (content_load(&p, CONTENT_POST, path, rel, &l->c, NULL, l->arena,
	    l->d) == -1)
		return 0;
	if (l->in_drafts)
		p.draft = 1;
	xgrow((void **)&l->posts, &l->cap, l->n + 1, sizeof(p));
	l->posts[l->n++] = p;
	return 0;
}

static int
by_date_desc(const void *a, const void *b)
{
	const struct post *x = a, *y = b;

	if (x->date != y->date)
		return x->date < y->date ? 1 : -1;
	return strcmp(x->src, y->src);
}

/*
 * Reads the site's settings and its posts (and the drafts folder, with
 * draft set), newest first; problems are printed. Returns 0 (release l
 * with free_posts), or -1 with nothing to release when site.yaml has
 * errors.
 */
static int
load_posts(struct cli *cli, struct loaded *l, int drafts)
{
	char *dir;

	memset(l, 0, sizeof(*l));
	if (cmd_load_config(cli, &l->c, 1) == -1) {
		config_release(&l->c);
		return -1;
	}
	l->arena = arena_new();
	l->d = diag_new();
	dir = path_join(cli->site_dir, l->c.posts_dir);
	fs_walk(dir, load_one, l);
	free(dir);
	if (drafts) {
		l->in_drafts = 1;
		dir = path_join(cli->site_dir, l->c.drafts_dir);
		fs_walk(dir, load_one, l);
		free(dir);
	}
	cli_print_diag(cli, l->d, 0);
	if (l->n)
		xqsort(l->posts, l->n, sizeof(*l->posts), by_date_desc);
	return 0;
}

static void
free_posts(struct loaded *l)
{
	free(l->posts);
	arena_free(l->arena);
	diag_free(l->d);
	config_release(&l->c);
}

static void
tags_text(struct buf *out, const struct post *p)
{
	size_t i;

	for (i = 0; i < p->ntags; i++)
		buf_printf(out, "%s%s", i ? ", " : "", p->tags[i].name);
}

/* list and drafts: one row per post. */
static int
list_posts(struct cli *cli, int argc, char **argv, const char *usage_text,
    int drafts)
{
	static const char *const head[] = { "DATE", "TITLE", "TAGS", "FILE" };
	struct loaded l;
	struct table t = { NULL, 4, 0, 0 };
	struct buf date = BUF_INIT, tags = BUF_INIT;
	const char *row[4];
	size_t i;
	int rc;

	if ((rc = cmd_simple_args(cli, argc, argv, usage_text)) != 0)
		return rc == 1 ? 0 : rc;
	if (load_posts(cli, &l, drafts) == -1)
		return 1;
	for (i = 0; i < l.n; i++) {
		if (l.posts[i].draft != drafts)
			continue;
		buf_clear(&date);
		buf_clear(&tags);
		dt_format(&date, l.posts[i].date, "%Y-%m-%d %H:%M", 0);
		tags_text(&tags, &l.posts[i]);
		row[0] = date.ptr;
		row[1] = l.posts[i].title;
		row[2] = tags.ptr;
		row[3] = l.posts[i].src;
		table_add(&t, row);
	}
	table_print(&t, head, isatty(STDOUT_FILENO));
	rc = diag_count(l.d, DIAG_ERROR) ? 1 : 0;
	free_posts(&l);
	buf_release(&date);
	buf_release(&tags);
	return rc;
}

int
cmd_list(struct cli *cli, int argc, char **argv)
{
	return list_posts(cli, argc, argv, list_usage, 0);
}

int
cmd_drafts(struct cli *cli, int argc, char **argv)
{
	return list_posts(cli, argc, argv, drafts_usage, 1);
}

struct tag_count {
	const char	*name, *slug;
	size_t		 n;
};

static int
tag_by_name(const void *a, const void *b)
{
	const struct tag_count *x = a, *y = b;

	return strcmp(x->slug, y->slug);
}

static int
tag_by_count(const void *a, const void *b)
{
	const struct tag_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->slug, y->slug);
}

int
cmd_tags(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "by-count", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const head[] = { "TAG", "POSTS" };
	struct loaded l;
	struct table t = { NULL, 2, 0, 0 };
	struct tag_count *tc = NULL;
	const char *row[2];
	char num[32];
	size_t i, j, k, ntc = 0, cap = 0;
	int ch, by_count = 0, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:nh", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'n': by_count = 1; break;
		case 'h': fputs(tags_usage, stdout); return 0;
		default: return cmd_bad_usage(tags_usage);
		}
	}
	if (optind != argc)
		return cmd_bad_usage(tags_usage);
	if (load_posts(cli, &l, 0) == -1)
		return 1;
	for (i = 0; i < l.n; i++) {
		if (l.posts[i].draft)
			continue;
		for (j = 0; j < l.posts[i].ntags; j++) {
			const struct tag_ref *tr = &l.posts[i].tags[j];

			for (k = 0; k < ntc; k++)
				if (strcmp(tc[k].slug, tr->slug) == 0)
					break;
			if (k == ntc) {
				xgrow((void **)&tc, &cap, ntc + 1, sizeof(*tc));
				tc[ntc].name = tr->name;
				tc[ntc].slug = tr->slug;
				tc[ntc++].n = 0;
			}
			tc[k].n++;
		}
	}
	if (ntc)
		xqsort(tc, ntc, sizeof(*tc), by_count ? tag_by_count :
		    tag_by_name);
	for (k = 0; k < ntc; k++) {
		xsnprintf(num, sizeof(num), "%zu", tc[k].n);
		row[0] = tc[k].name;
		row[1] = num;
		table_add(&t, row);
	}
	table_print(&t, head, isatty(STDOUT_FILENO));
	rc = diag_count(l.d, DIAG_ERROR) ? 1 : 0;
	free(tc);
	free_posts(&l);
	return rc;
}
