/* Commands that read a site without building it: check, config, themes,
 * version; and the argument helpers every command shares. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "theme.h"

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

/* Commands with only -C and --help. */
int
cmd_simple_args(struct cli *cli, int argc, char **argv, const char *usage_text)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'h': fputs(usage_text, stdout); return 1;
		default: return cmd_bad_usage(usage_text);
		}
	}
	if (optind != argc)
		return cmd_bad_usage(usage_text);
	return 0;
}

int
cmd_config(struct cli *cli, int argc, char **argv)
{
	struct site_config c;
	struct diag *d;
	char *path;
	int rc;

	if ((rc = cmd_simple_args(cli, argc, argv, config_usage)) != 0)
		return rc == 1 ? 0 : rc;
	d = diag_new();
	path = path_join(cli->site_dir, "site.yaml");
	config_init(&c);
	rc = config_load(&c, path, 1, d);
	cli_print_diag(cli, d, 0);
	config_describe(&c, stdout);
	config_release(&c);
	diag_free(d);
	free(path);
	return rc == 0 ? 0 : 1;
}



int
cmd_version(struct cli *cli, int argc, char **argv)
{
	(void)cli;
	(void)argc;
	(void)argv;
	printf("ssg %s\n", SSG_VERSION);
	return 0;
}

