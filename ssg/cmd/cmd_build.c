/* ssg build and ssg serve. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "serve.h"
#include "theme.h"

static const char build_usage[] =
    "usage: ssg build [-C DIR] [-o DIR] [-t THEME] [-u URL] [-j N]\n"
    "                 [--set KEY=VALUE] [--drafts] [--future] [--force]\n"
    "                 [--force-images] [--strict] [--explain] [-q | -v]\n"
    "\n"
    "Builds the site in DIR (default: the current folder, which holds\n"
    "site.yaml) into its output folder.\n"
    "\n"
    "  -C, --site DIR       the site folder\n"
    "  -o, --output DIR     write here instead of output_dir\n"
    "  -t, --theme NAME     use this theme (or 'random')\n"
    "  -u, --site-url URL   use this site_url (e.g. for a staging copy)\n"
    "  -s, --set KEY=VALUE  override any site.yaml setting (repeatable)\n"
    "  -j, --jobs N         threads (default: one per CPU)\n"
    "      --drafts         include drafts (drafts/ and draft: true)\n"
    "      --future         include posts dated in the future\n"
    "      --force          ignore what earlier builds left and rewrite\n"
    "                       (images are still taken from the image cache)\n"
    "      --force-images   encode every image's copies again too\n"
    "      --strict         stop at the first bad post, writing nothing\n"
    "      --explain        say why each rendered page was rendered\n"
    "  -q, --quiet          print only problems\n"
    "  -v, --verbose        print more\n"
    "  -h, --help           this help\n"
    "\n"
    "Exit status: 0 built, 1 problems found (good pages are still\n"
    "written), 2 bad usage.\n";


struct progress_state {
	struct cli	*cli;
	int		 shown;
};

/* One line, redrawn in place, on a terminal only. */
static void
show_progress(const char *stage, size_t done, size_t total, void *arg)
{
	struct progress_state *ps = arg;
	int width = 30, filled;

	if (total == 0)
		return;
	filled = (int)((double)done / (double)total * width);
	fprintf(stderr, "\r%-7s [%.*s%*s] %s/%s", stage, filled,
	    "##############################", width - filled, "",
	    cli_num(done), cli_num(total));
	fflush(stderr);
	ps->shown = 1;
}

enum {
	OPT_DRAFTS = 256, OPT_FUTURE, OPT_FORCE, OPT_STRICT, OPT_HOST,
	OPT_NO_BUILD, OPT_EXPLAIN, OPT_FORCE_IMAGES, OPT_BUILD_MODE
};

static const struct option build_options[] = {
	{ "site", required_argument, NULL, 'C' },
	{ "output", required_argument, NULL, 'o' },
	{ "theme", required_argument, NULL, 't' },
	{ "site-url", required_argument, NULL, 'u' },
	{ "set", required_argument, NULL, 's' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "drafts", no_argument, NULL, OPT_DRAFTS },
	{ "future", no_argument, NULL, OPT_FUTURE },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "force-images", no_argument, NULL, OPT_FORCE_IMAGES },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "port", required_argument, NULL, 'p' },
	{ "no-build", no_argument, NULL, OPT_NO_BUILD },
	{ "build-mode", required_argument, NULL, OPT_BUILD_MODE },
	{ NULL, 0, NULL, 0 }
};


/* Parses build options (and serve's when serve is set). Returns 0, 1 for
 * --help (printed), or 2 for bad usage (printed). */
int
cmd_parse_build_args(struct cli *cli, int argc, char **argv, struct build_args *a,
    const char *usage_text, int serve)
{
	char *end;
	long v;
	int ch;

	memset(a, 0, sizeof(*a));
	a->host = "127.0.0.1";
	a->port = 8000;
	optind = 1;
	opterr = 1;
	while ((ch = getopt_long(argc, argv, serve ? "C:o:t:u:s:j:qvhp:" :
	    "C:o:t:u:s:j:qvh", build_options, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'o': a->o.output_dir = optarg; break;
		case 't': a->o.theme = optarg; break;
		case 'u': a->o.site_url = optarg; break;
		case 's':
			if (a->nset + 1 >= sizeof(a->set) / sizeof(a->set[0]))
				return cmd_bad_usage("ssg: too many --set options\n");
			a->set[a->nset++] = optarg;
			break;
		case 'j':
			v = strtol(optarg, &end, 10);
			if (*end != '\0' || v < 1 || v > 256)
				return cmd_bad_usage("ssg: --jobs takes a number "
				    "from 1 to 256\n");
			a->o.jobs = (int)v;
			break;
		case OPT_DRAFTS: a->o.drafts = 1; break;
		case OPT_FUTURE: a->o.future = 1; break;
		case OPT_FORCE: a->o.force = 1; break;
		case OPT_FORCE_IMAGES: a->o.force = a->o.force_images = 1; break;
		case OPT_STRICT: a->o.strict = 1; break;
		case OPT_EXPLAIN: a->explain = 1; break;
		case 'q': cli->quiet = 1; break;
		case 'v': cli->verbose = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		case OPT_HOST:
			if (!serve)
				return cmd_bad_usage(usage_text);
			a->host = optarg;
			break;
		case 'p':
			v = strtol(optarg, &end, 10);
			if (*end != '\0' || v < 1 || v > 65535)
				return cmd_bad_usage("ssg: --port takes a number "
				    "from 1 to 65535\n");
			a->port = (int)v;
			break;
		case OPT_NO_BUILD:
			if (!serve)
				return cmd_bad_usage(usage_text);
			a->no_build = 1;
			break;
		case OPT_BUILD_MODE:
			/* BSSG 0.41's choice between building in memory and
			 * on disk; ssg has one mode (incremental, on disk),
			 * so a BSSG user's command line still works */
			if (!serve)
				return cmd_bad_usage(usage_text);
			if (strcmp(optarg, "ram") != 0 &&
			    strcmp(optarg, "normal") != 0)
				return cmd_bad_usage("ssg: --build-mode takes "
				    "ram or normal (BSSG's; ssg has one build "
				    "mode)\n");
			break;
		default:
			return cmd_bad_usage(usage_text);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ssg: unexpected argument '%s'\n", argv[optind]);
		return cmd_bad_usage(usage_text);
	}
	a->o.set = a->set;
	a->o.site_dir = cli->site_dir;
	return 0;
}

static void
show_explain(const char *path, const char *why, void *arg)
{
	(void)arg;
	printf("%s: %s\n", path, why);
}

void
cmd_print_summary(struct cli *cli, const struct build_stats *st,
    const char *label)
{
	printf("%s%s%s%s files (%s rendered, %s changed",
	    label ? label : "", label ? ": " : "",
	    cli->color_out ? "\033[1m" : "", cli_num(st->outputs),
	    cli_num(st->rendered), cli_num(st->written));
	if (st->removed)
		printf(", %s removed", cli_num(st->removed));
	if (st->images_encoded)
		printf(", %s images encoded", cli_num(st->images_encoded));
	printf(") from %s posts and %s pages in %.2f s%s",
	    cli_num(st->posts), cli_num(st->pages), st->seconds,
	    cli->color_out ? "\033[0m" : "");
	if (st->theme[0])
		printf(", theme %s", st->theme);
	if (st->skipped)
		printf("; %s%s skipped because of errors%s",
		    cli->color_out ? "\033[31m" : "",
		    cli_num(st->skipped), cli->color_out ? "\033[0m" : "");
	if (st->drafts && cli->verbose)
		printf("; %s drafts or scheduled posts left out",
		    cli_num(st->drafts));
	printf("\n");
	if (cli->verbose)
		printf("output: %s\n", st->output);
	if (cli->verbose && (st->code_blocks || st->highlighters_started))
		printf("code blocks: %zu with a language, %zu from the cache, "
		    "%zu plain; highlighter started %zu times\n",
		    st->code_blocks, st->code_cached, st->code_plain,
		    st->highlighters_started);
}

/* Runs one build and prints its problems and summary. */
int
cmd_run_build(struct cli *cli, struct build_opts *o, struct build_stats *st)
{
	struct diag *d = diag_new();
	struct progress_state ps = { cli, 0 };
	char *builtin = theme_builtin_dir(cli->argv0);
	int rc;

	o->themes_builtin = builtin;
	if (cli->tty_err && !cli->quiet) {
		o->progress = show_progress;
		o->progress_arg = &ps;
	}
	rc = ssg_build(o, st, d);
	if (ps.shown)
		fputs("\r\033[K", stderr);
	cli_print_diag(cli, d, 0);
	if (!cli->quiet || rc != 0)
		cmd_print_summary(cli, st, NULL);
	fflush(stdout);
	free(builtin);
	diag_free(d);
	return rc == 0 ? 0 : 1;
}

int
cmd_build(struct cli *cli, int argc, char **argv)
{
	struct build_args a;
	struct build_stats st;
	int rc;

	if ((rc = cmd_parse_build_args(cli, argc, argv, &a, build_usage, 0)) != 0)
		return rc == 1 ? 0 : rc;
	if (a.explain) {
		a.o.explain = show_explain;
		a.o.explain_arg = NULL;
	}
	return cmd_run_build(cli, &a.o, &st);
}


