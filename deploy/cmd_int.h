#ifndef DEPLOY_CMD_INT_H
#define DEPLOY_CMD_INT_H

/* Shared by the deploy commands: main.c (options, dispatch, check, plan,
 * apply, destroy, bench), cmd_status.c (status, health, logs) and
 * cmd_release.c (push, rollback, releases). Not for other modules. */

#include <limits.h>

#include "diag.h"
#include "spec.h"

#define VERSION "0.1"

#define EXIT_USAGE 2

/* Common options: -c FILE (deploy.yaml), -f, -h; the rest positional. */
struct opts {
	const char	*file;
	int		 force;
	int		 quick;
	int		 json;
	const char	*expect;
	const char	*cacert;
	const char	*out;
	const char	*compare;
	int		 no_build;
	const char	*known_hosts;
	const char	*identity;
	const char	*platform;	/* overrides deploy.yaml's */
	int		 max_parallel;	/* hosts worked on at once */
	const char	*canary;	/* host switched and checked first */
	char		*pos[4];
	int		 npos;
};

/* Parses argv into o (maxpos operands; allowed: the long options this
 * command takes, by letter). 0, 1 after printing help, -1 after usage. */
int	dc_parse_opts(const char *cmd, int argc, char **argv, struct opts *o,
	    int maxpos, const char *allowed);
#define PARSE(cmd, maxpos, allowed)					\
	do {								\
		int r_ = dc_parse_opts(cmd, argc, argv, &o, maxpos, allowed); \
		if (r_ == 1)						\
			return 0;					\
		if (r_ == -1)						\
			return EXIT_USAGE;				\
	} while (0)

/* Prints and frees d; returns rc. */
int	dc_report(struct diag *d, int rc);
/* Loads and checks the spec (also against the host when host is set). */
struct spec *dc_load(const struct opts *o, struct diag *d, int host);
/* The site named by the first operand, or NULL after saying so. */
const struct spec_site *dc_named_site(const struct spec *s,
	    const struct opts *o, struct diag *d);
/* Prints the usage of a command to stderr (rc != 0) or stdout; returns
 * rc. */
int	dc_usage_of(const char *name, int rc);

/* This program's own path (for a local agent, and to find themes), or
 * "" when unknown. */
extern char self_path[PATH_MAX];

/* The current release of site name on every host of the fleet, one line
 * each: 0 when they agree, 1 on drift (said in d), -1 when a host cannot
 * be asked. */
int	dc_fleet_status(const struct opts *o, const struct spec *s,
	    const char *name, struct diag *d);

int	cmd_status(int argc, char **argv);
int	cmd_health(int argc, char **argv);
int	cmd_logs(int argc, char **argv);
int	cmd_push(int argc, char **argv);
int	cmd_rollback(int argc, char **argv);
int	cmd_releases(int argc, char **argv);

#endif
