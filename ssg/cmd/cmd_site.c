/* The commands config and version, and the helpers every command
 * shares: argument parsing and reading site.yaml. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "datetime.h"
#include "diag.h"
#include "fsutil.h"

#ifndef SSG_VERSION
#define SSG_VERSION "0.1"
#endif

static const char config_usage[] =
    "usage: ssg config [-C DIR]\n"
    "\n"
    "Prints every site.yaml setting with its current value, meaning and\n"
    "default.\n";

/* Bad usage: the command's usage on stderr and status 2. */
int
cmd_bad_usage(const char *text)
{
	fputs(text, stderr);
	return 2;
}

/* Commands with -C, --help, maybe -q, and a fixed number of operands. */
int
cmd_site_args(struct cli *cli, int argc, char **argv, const char *usage_text,
    int quiet, int nargs)
{
	/* without quiet, the table starts after --quiet */
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "site", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, quiet ? "C:qh" : "C:h",
	    quiet ? opts : opts + 1, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'q': cli->quiet = 1; break;
		case 'h': fputs(usage_text, stdout); return 1;
		default: return cmd_bad_usage(usage_text);
		}
	}
	if (argc - optind != nargs)
		return cmd_bad_usage(usage_text);
	return 0;
}

int
cmd_simple_args(struct cli *cli, int argc, char **argv, const char *usage_text)
{
	return cmd_site_args(cli, argc, argv, usage_text, 0, 0);
}

int
cmd_load_config(struct cli *cli, struct site_config *c, int use_tz)
{
	struct diag *d = diag_new();
	char *path = path_join(cli->site_dir, "site.yaml");
	int rc;

	config_init(c);
	rc = config_load(c, path, 1, d);
	cli_print_diag(cli, d, 0);
	if (use_tz && rc == 0 && dt_set_timezone(c->timezone) == -1)
		fprintf(stderr, "ssg: warning: unknown time zone '%s', using "
		    "UTC\n", c->timezone);
	diag_free(d);
	free(path);
	return rc;
}

int
cmd_config(struct cli *cli, int argc, char **argv)
{
	struct site_config c;
	int rc;

	if ((rc = cmd_simple_args(cli, argc, argv, config_usage)) != 0)
		return rc == 1 ? 0 : rc;
	rc = cmd_load_config(cli, &c, 0);
	config_describe(&c, stdout);
	config_release(&c);
	return rc == 0 ? 0 : 1;
}

int
cmd_version(struct cli *cli, int argc, char **argv)
{
	(void)cli;
	(void)argc;
	(void)argv;
	printf("ssg %s (ISC license)\n", SSG_VERSION);
	return 0;
}

