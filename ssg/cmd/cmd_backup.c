/* ssg backup, backups and restore. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backup.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"

static const char backup_usage[] =
    "usage: ssg backup [-C DIR] [-q]\n"
    "\n"
    "Archives posts, pages, drafts, static, templates and site.yaml into\n"
    ".ssg-backups/ID.tar.gz in the site folder and prints the ID.\n";

static const char backups_usage[] =
    "usage: ssg backups [-C DIR]\n"
    "\n"
    "Lists the backups, oldest first: ID, date and size.\n";

static const char restore_usage[] =
    "usage: ssg restore [-C DIR] [--no-content] [--no-config] [ID | FILE]\n"
    "\n"
    "Restores the sources from a backup (default: the newest). The\n"
    "current state is backed up first, and the whole archive is checked\n"
    "before anything changes. Each folder in the archive replaces the\n"
    "site's folder of that name.\n"
    "\n"
    "      --no-content     leave the folders as they are\n"
    "      --no-config      leave site.yaml as it is\n"
    "  -h, --help           this help\n";

int
cmd_backup(struct cli *cli, int argc, char **argv)
{
	struct site_config c;
	struct diag *d;
	char *id;
	int rc;

	if ((rc = cmd_site_args(cli, argc, argv, backup_usage, 1, 0)) != 0)
		return rc == 1 ? 0 : rc;
	if (cmd_load_config(cli, &c, 0) == -1) {
		config_release(&c);
		return 1;
	}
	d = diag_new();
	id = backup_create(cli->site_dir, &c, d);
	cli_print_diag(cli, d, 0);
	if (id != NULL)
		printf("%s\n", id);
	free(id);
	diag_free(d);
	config_release(&c);
	return id != NULL ? 0 : 1;
}

int
cmd_backups(struct cli *cli, int argc, char **argv)
{
	struct backup_info *l;
	struct tm tm;
	char when[32];
	size_t n, i;
	int rc;

	if ((rc = cmd_simple_args(cli, argc, argv, backups_usage)) != 0)
		return rc == 1 ? 0 : rc;
	n = backup_list(cli->site_dir, &l);
	for (i = 0; i < n; i++) {
		localtime_r(&l[i].mtime, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		printf("%s\t%s\t%lld\n", l[i].id, when, l[i].size);
	}
	if (n == 0 && isatty(STDOUT_FILENO))
		printf("no backups (ssg backup makes one)\n");
	backup_list_free(l, n);
	return 0;
}

enum { OPT_NO_CONTENT = 256, OPT_NO_CONFIG };

int
cmd_restore(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "site", required_argument, NULL, 'C' },
		{ "no-content", no_argument, NULL, OPT_NO_CONTENT },
		{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct site_config c;
	struct backup_info *l = NULL;
	struct diag *d = NULL;
	char *archive = NULL, *id = NULL, *name;
	size_t n = 0, i;
	int ch, flags = BACKUP_CONTENT | BACKUP_CONFIG, rc = 1;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "C:qh", opts, NULL)) != -1) {
		switch (ch) {
		case 'C': cli->site_dir = optarg; break;
		case 'q': cli->quiet = 1; break;
		case OPT_NO_CONTENT: flags &= ~BACKUP_CONTENT; break;
		case OPT_NO_CONFIG: flags &= ~BACKUP_CONFIG; break;
		case 'h': fputs(restore_usage, stdout); return 0;
		default: return cmd_bad_usage(restore_usage);
		}
	}
	if (argc - optind > 1)
		return cmd_bad_usage(restore_usage);
	if (flags == 0) {
		fprintf(stderr, "ssg: --no-content and --no-config leave "
		    "nothing to restore\n");
		return cmd_bad_usage(restore_usage);
	}
	config_init(&c);
	n = backup_list(cli->site_dir, &l);
	if (argc - optind == 0) {
		if (n == 0) {
			cli_error(cli, "no backups in %s/%s", cli->site_dir,
			    BACKUP_DIR);
			goto out;
		}
		archive = xstrdup(l[n - 1].path);
	} else {
		name = argv[optind];
		for (i = 0; i < n; i++)
			if (strcmp(l[i].id, name) == 0)
				archive = xstrdup(l[i].path);
		if (archive == NULL && fs_is_file(name))
			archive = xstrdup(name);
		if (archive == NULL) {
			cli_error(cli, "%s: no such backup (see ssg backups)",
			    name);
			goto out;
		}
	}
	d = diag_new();
	if (backup_verify(archive, d) == -1) {
		cli_print_diag(cli, d, 0);
		cli_error(cli, "%s: not restored; nothing was changed", archive);
		goto out;
	}
	config_release(&c);
	if (cmd_load_config(cli, &c, 0) == -1)
		goto out;
	/* the state before, so that a restore can be undone */
	if ((id = backup_create(cli->site_dir, &c, d)) == NULL) {
		cli_print_diag(cli, d, 0);
		cli_error(cli, "cannot back up the current state; nothing was "
		    "changed");
		goto out;
	}
	if (!cli->quiet)
		printf("current state saved as backup %s\n", id);
	if (backup_restore(cli->site_dir, archive, flags, d) == -1) {
		cli_print_diag(cli, d, 0);
		cli_error(cli, "%s: not restored", archive);
		goto out;
	}
	cli_print_diag(cli, d, 0);
	if (!cli->quiet)
		printf("restored %s\n", archive);
	rc = 0;
out:
	backup_list_free(l, n);
	config_release(&c);
	diag_free(d);
	free(archive);
	free(id);
	return rc;
}
