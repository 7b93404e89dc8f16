/* ssg check: every internal link of the built site must resolve; with
 * --external, every outside link must answer. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "check.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "fsutil.h"
#include "lazy_curl.h"

static const char check_usage[] =
    "usage: ssg check [-C DIR] [--against OLD_OUTPUT]\n"
    "                 [--external [--no-cache] [--timeout SECONDS]]\n"
    "\n"
    "Checks the built site (run ssg build first): every internal link,\n"
    "#anchor, image and stylesheet reference must resolve to a file in the\n"
    "output folder. Prints each problem as 'page: link: problem' and exits\n"
    "1 if there is any. Then lists, for information, the scripts and\n"
    "frames (<script src>, <iframe src>) the pages load from other sites.\n"
    "\n"
    "  -a, --against DIR    also list every URL of an older build (a copy of\n"
    "                       the output BSSG or ssg wrote before) that this\n"
    "                       build no longer has, as '/url/: gone'\n"
    "  -e, --external       also fetch every outside http(s) link (16 at\n"
    "                       once, 2 per host); links that answered well\n"
    "                       are remembered for a day in\n"
    "                       .ssg-cache/links.tsv\n"
    "      --no-cache       fetch every outside link again\n"
    "      --timeout SECS   per request (default 15)\n"
    "  -q, --quiet          print only problems\n"
    "  -h, --help           this help\n";

enum { OPT_NO_CACHE = 256, OPT_TIMEOUT };

int
cmd_check(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "against", required_argument, NULL, 'a' },
		{ "external", no_argument, NULL, 'e' },
		{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct extlink_opts eo;
	struct site_config c;
	char *out, *cache = NULL, *end, *against = NULL;
	size_t problems, pages, links, ext_problems, cached, old_urls, gone;
	long v;
	int ch, rc, external = 0, no_cache = 0;

	extlink_opts_init(&eo);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:a:eqh", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'a': against = optarg; break;
		case 'e': external = 1; break;
		case 'q': cli->quiet = 1; break;
		case OPT_NO_CACHE: no_cache = 1; break;
		case OPT_TIMEOUT:
			v = strtol(optarg, &end, 10);
			if (*end != '\0' || v < 1 || v > 600)
				return cmd_bad_usage("ssg: --timeout takes a "
				    "number of seconds from 1 to 600\n");
			eo.timeout = v;
			break;
		case 'h': fputs(check_usage, stdout); return 0;
		default: return cmd_bad_usage(check_usage);
		}
	}
	if (optind != argc)
		return cmd_bad_usage(check_usage);
	rc = cmd_load_config(cli, &c, 0);
	out = path_join(cli->site_dir, c.output_dir);
	if (!fs_is_dir(out)) {
		cli_error(cli, "%s: no built site here (run ssg build first)",
		    out);
		rc = -1;
		goto done;
	}
	problems = check_links(out, c.site_url, config_base_path(&c), stdout,
	    &pages, &links);
	if (!cli->quiet || problems)
		printf("%s links in %s pages checked: %s broken\n",
		    cli_num(links), cli_num(pages), cli_num(problems));
	if (against != NULL) {
		if (!fs_is_dir(against)) {
			cli_error(cli, "%s: not a folder (--against takes the "
			    "old output folder)", against);
			rc = -1;
			goto done;
		}
		fflush(stdout);
		gone = check_against(against, out, stdout, &old_urls);
		if (!cli->quiet || gone)
			printf("%s URLs of %s checked: %s gone\n",
			    cli_num(old_urls), against, cli_num(gone));
		problems += gone;
	}
	if (!cli->quiet) {
		/* what visitors' browsers fetch from elsewhere: to know, not
		 * a problem */
		printf("Scripts and frames from other sites:\n");
		fflush(stdout);
		if (check_embeds(out, c.site_url, stdout) == 0)
			printf("none\n");
	}
	if (external) {
		if (!no_cache) {
			cache = path_join(cli->site_dir, ".ssg-cache/links.tsv");
			eo.cache_file = cache;
		}
		{
			struct diag *ld = diag_new();

			if (lazy_curl_load(ld) == -1) {
				cli_print_diag(cli, ld, 0);
				diag_free(ld);
				rc = -1;
				goto done;
			}
			diag_free(ld);
		}
		curl_global_init(CURL_GLOBAL_DEFAULT);
		fflush(stdout);
		ext_problems = check_external(out, c.site_url, &eo, stdout,
		    &links, &cached);
		curl_global_cleanup();
		if (!cli->quiet || ext_problems)
			printf("%s outside links checked (%s from the cache): "
			    "%s broken\n", cli_num(links), cli_num(cached),
			    cli_num(ext_problems));
		problems += ext_problems;
	}
	if (problems)
		rc = -1;
done:
	free(cache);
	free(out);
	config_release(&c);
	return rc == 0 ? 0 : 1;
}
