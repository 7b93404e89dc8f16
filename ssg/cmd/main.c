/*
 * ssg: build a static site from Markdown posts and pages.
 * Subcommands are a table; each parses its own options and has --help.
 */
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"

static int cmd_help(struct cli *, int, char **);

static const struct command commands[] = {
	{ "build", cmd_build, "build the site into its output folder" },
	{ "serve", cmd_serve, "build and serve the site locally; rebuild and reload on changes" },
	{ "check", cmd_check, "check the built site's links (--external: outside ones too)" },
	{ "init", cmd_init, "create a new site in a folder" },
	{ "new", cmd_new, "write a new post or page" },
	{ "edit", cmd_edit, "edit a post, page or draft and update its lastmod" },
	{ "delete", cmd_delete, "delete a post, page or draft" },
	{ "publish", cmd_publish, "move a draft into the posts, dated now" },
	{ "list", cmd_list, "list the posts" },
	{ "tags", cmd_tags, "list the tags with their number of posts" },
	{ "drafts", cmd_drafts, "list the drafts" },
	{ "search", cmd_search, "find posts and pages in the built site's search index" },
	{ "backup", cmd_backup, "archive the site's sources into .ssg-backups/" },
	{ "backups", cmd_backups, "list the backups" },
	{ "restore", cmd_restore, "restore the sources from a backup" },
	{ "config", cmd_config, "print every setting with its value and meaning" },
	{ "themes", cmd_themes, "list the themes" },
	{ "import", cmd_import, "write site.yaml for a BSSG site, to build it unchanged" },
	{ "version", cmd_version, "print the version" },
	{ "help", cmd_help, "show help for a command" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void
usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: ssg COMMAND [options]\n\nCommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name,
		    commands[i].summary);
	fprintf(fp, "\n`ssg COMMAND --help` shows a command's options.\n");
}

static const struct command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int
cmd_help(struct cli *cli, int argc, char **argv)
{
	const struct command *c;
	char *hargv[3];

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if ((c = find_command(argv[1])) == NULL) {
		fprintf(stderr, "ssg: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	hargv[0] = argv[1];
	hargv[1] = "--help";
	hargv[2] = NULL;
	return c->run(cli, 2, hargv);
}

int
main(int argc, char **argv)
{
	struct cli cli;
	const struct command *c;

	cli_init(&cli, argv[0]);
	/* ssg -C DIR COMMAND: as git, make and tar take it, the command runs
	 * in DIR (the site folder, by default the current one). */
	while (argc > 2 && (strcmp(argv[1], "-C") == 0 ||
	    strcmp(argv[1], "--site") == 0)) {
		if (chdir(argv[2]) == -1) {
			fprintf(stderr, "ssg: -C %s: %s\n", argv[2],
			    strerror(errno));
			return 1;
		}
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		return cmd_version(&cli, argc - 1, argv + 1);
	if ((c = find_command(argv[1])) == NULL) {
		fprintf(stderr, "ssg: unknown command '%s'\n\n", argv[1]);
		usage(stderr);
		return 2;
	}
	return c->run(&cli, argc - 1, argv + 1);
}
