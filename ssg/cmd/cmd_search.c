/*
 * ssg search: the built site's search index queried from the command
 * line, as its search page queries it (search_query.h).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "fsutil.h"
#include "search_query.h"
#include "searchword.h"

static const char search_usage[] =
    "usage: ssg search [-C DIR] [-n N] [-w [-l LANG]] WORDS...\n"
    "\n"
    "Finds the posts and pages that hold all the WORDS in the search index\n"
    "of the built site (search: true in site.yaml; run ssg build first),\n"
    "best first, as the site's /search/ page finds them: one line each,\n"
    "title, a tab and URL. The last word also finds the words it begins.\n"
    "Exits 1 when nothing is found.\n"
    "\n"
    "  -n, --limit N        at most N results (default 10; 0: all)\n"
    "  -w, --words          print the words the index would look for, one\n"
    "                       a line, as it folds them (case and accents)\n"
    "  -l, --lang LANG      with -w: as the index of a site whose site_lang\n"
    "                       is LANG folds them (default en: accents off)\n"
    "  -C, --site DIR       the site folder (default .)\n"
    "  -h, --help           this help\n";

static void
print_word(const char *w, size_t len, uint64_t h, void *arg)
{
	(void)h;
	(void)arg;
	printf("%.*s\n", (int)len, w);
}

static int
load_file(const char *rel, struct buf *out, void *arg)
{
	char *path = path_join(arg, rel);
	int rc = fs_read(path, out);

	free(path);
	return rc;
}

int
cmd_search(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "limit", required_argument, NULL, 'n' },
		{ "words", no_argument, NULL, 'w' },
		{ "lang", required_argument, NULL, 'l' },
		{ "site", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct buf q = BUF_INIT, err = BUF_INIT;
	struct site_config c;
	struct search_result r;
	char *out = NULL, *dir = NULL, *end;
	const char *lang = "en";
	long limit = 10;
	size_t i;
	int ch, words = 0, rc = 1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "n:wl:C:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			errno = 0;
			limit = strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || end == optarg ||
			    limit < 0 || limit > INT_MAX)
				return cmd_bad_usage(search_usage);
			break;
		case 'w': words = 1; break;
		case 'l': lang = optarg; break;
		case 'C': cli->site_dir = optarg; break;
		case 'h': fputs(search_usage, stdout); return 0;
		default: return cmd_bad_usage(search_usage);
		}
	}
	if (optind >= argc)
		return cmd_bad_usage(search_usage);
	for (i = (size_t)optind; i < (size_t)argc; i++)
		buf_printf(&q, "%s%s", i > (size_t)optind ? " " : "", argv[i]);
	if (words) {
		search_words(q.ptr, q.len, search_lang_folds(lang), print_word,
		    NULL);
		buf_release(&q);
		return 0;
	}
	if (cmd_load_config(cli, &c, 0) == -1) {
		config_release(&c);
		buf_release(&q);
		return 1;
	}
	out = path_join(cli->site_dir, c.output_dir);
	dir = path_join(out, "search");
	switch (search_query(q.ptr, (size_t)limit, load_file, dir, &r, &err)) {
	case SEARCH_OK:
		for (i = 0; i < r.nhits; i++)
			printf("%s\t%s\n", r.hits[i].title, r.hits[i].url);
		if (r.total > r.nhits)
			fprintf(stderr, "ssg search: the best %zu of %zu shown "
			    "(-n 0: all)\n", r.nhits, r.total);
		if (r.nhits == 0)
			cli_error(cli, "no post or page holds all of: %s", q.ptr);
		rc = r.nhits > 0 ? 0 : 1;
		break;
	case SEARCH_NO_WORDS:
		cli_error(cli, "nothing to search for: the query has no words "
		    "(letters or digits)");
		break;
	case SEARCH_TOO_LONG:
		cli_error(cli, "the query is too long: at most %d words and %d "
		    "bytes", SEARCH_WORDS_MAX, SEARCH_QUERY_MAX);
		break;
	case SEARCH_NO_INDEX:
		cli_error(cli, "%s has no search index: run ssg build with "
		    "search: true in site.yaml", out);
		break;
	case SEARCH_DAMAGED:
		cli_error(cli, "%s: %s (run ssg build --force)", out, err.ptr);
		break;
	}
	search_result_release(&r);
	config_release(&c);
	free(out);
	free(dir);
	buf_release(&q);
	buf_release(&err);
	return rc;
}
