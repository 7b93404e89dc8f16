#ifndef SSG_CMD_H
#define SSG_CMD_H

/*
 * The subcommands of ssg, one function each: (cli, argc, argv) with argv[0]
 * the command's name. Each returns the exit status: 0, 1 for problems,
 * 2 for bad usage. main.c holds the table.
 */
struct cli;

#include "build.h"

struct command {
	const char	*name;
	int		(*run)(struct cli *, int, char **);
	const char	*summary;
};

int	cmd_build(struct cli *, int, char **);
int	cmd_serve(struct cli *, int, char **);
int	cmd_check(struct cli *, int, char **);
int	cmd_config(struct cli *, int, char **);
int	cmd_themes(struct cli *, int, char **);
int	cmd_version(struct cli *, int, char **);
int	cmd_import(struct cli *, int, char **);
/* The built site's search index (cmd_search.c). */
int	cmd_search(struct cli *, int, char **);
/* Writing (cmd_write.c: init, new; cmd_edit.c: edit, delete, publish). */
int	cmd_init(struct cli *, int, char **);
int	cmd_new(struct cli *, int, char **);
int	cmd_edit(struct cli *, int, char **);
int	cmd_delete(struct cli *, int, char **);
int	cmd_publish(struct cli *, int, char **);
/* Listing (cmd_list.c). */
int	cmd_list(struct cli *, int, char **);
int	cmd_tags(struct cli *, int, char **);
int	cmd_drafts(struct cli *, int, char **);
/* Backups (cmd_backup.c). */
int	cmd_backup(struct cli *, int, char **);
int	cmd_backups(struct cli *, int, char **);
int	cmd_restore(struct cli *, int, char **);

/* Options shared by build and serve. */
struct build_args {
	struct build_opts	 o;
	const char		*set[64];
	size_t			 nset;
	const char		*host;
	int			 port;
	int			 no_build;
	int			 explain;
};

/* Parses build options (and serve's --host, --port, --no-build when serve
 * is set). Returns 0, 1 after printing --help, or 2 after printing the
 * usage for bad usage. */
int	cmd_parse_build_args(struct cli *cli, int argc, char **argv,
	    struct build_args *a, const char *usage_text, int serve);
/* Runs one build, printing its problems and summary line. Returns the
 * exit status (0 or 1). */
int	cmd_run_build(struct cli *cli, struct build_opts *o,
	    struct build_stats *st);

/* The helpers below are in cmd_site.c. */

/* The one summary line of a build ("N files (R rendered, W changed) from
 * ..."), after "label: " when label is not NULL. */
void	cmd_print_summary(struct cli *cli, const struct build_stats *st,
	    const char *label);

/* Prints a command's usage on stderr; returns 2. */
int	cmd_bad_usage(const char *usage_text);
/* Parses commands that take only -C DIR and --help. Returns 0, 1 after
 * printing --help, or 2 after printing the usage for bad usage. */
int	cmd_simple_args(struct cli *cli, int argc, char **argv,
	    const char *usage_text);
/* The same for -C DIR, --help, with quiet also -q, and exactly nargs
 * operands, left at argv[optind]. */
int	cmd_site_args(struct cli *cli, int argc, char **argv,
	    const char *usage_text, int quiet, int nargs);

struct site_config;

/* Reads the site folder's site.yaml into c, printing its problems; with
 * use_tz, dates are then shown in the site's time zone (a warning when
 * it is unknown). c is initialised either way: the caller releases it.
 * Returns 0, or -1 when site.yaml has errors. */
int	cmd_load_config(struct cli *cli, struct site_config *c, int use_tz);

#endif
