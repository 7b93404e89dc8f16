#ifndef DEPLOY_CMD_INT_H
#define DEPLOY_CMD_INT_H

/* Shared by the deploy commands: main.c (options, dispatch, check, plan,
 * apply, destroy, bench), cmd_status.c (status, health, logs),
 * cmd_release.c (push, rollback, releases) and cmd_fleet.c (a command on
 * every host, and the host's side of it). Not for other modules. */

#include <limits.h>

#include "diag.h"
#include "spec.h"

struct buf;
struct driver;

#define VERSION "0.1"

#define EXIT_USAGE 2

/* Common options: -c FILE (deploy.yaml), -f, -h; the rest positional. */
struct opts {
	const char	*file;
	int		 force;
	int		 quick;
	int		 seconds;	/* bench: each run's length, 0 default */
	int		 proxy_only;	/* bench: through the proxy only */
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
	const char	*only_host;	/* --host: this host of the fleet */
	int		 dry_run;	/* -n: print, change nothing */
	int		 due;		/* --due: renew only what is due */
	/* bench --from: clients, the old server, the ladder */
	const char	*from[16];
	int		 nfrom;
	const char	*against;
	const char	*against_ssh;
	const char	*connections;
	int		 duration;
	int		 rounds;	/* bench: old beside new so many times;
					 * watch: stop after so many, 0 never */
	int		 interval;	/* watch: seconds between rounds */
	int		 fall;		/* watch: failures before withdrawal */
	int		 rise;		/* watch: passes before return */
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
/* Loads and checks the spec (also the host picked by dc_host against
 * its interfaces, when host is set and it is this machine). The result
 * owns every host's spec: spec_free it. */
struct spec *dc_load(const struct opts *o, struct diag *d, int host);
/* The host a one-host command acts on: --host's (or, on the host, the
 * agent's) entry, else the first. Owned by s. */
struct spec *dc_host(const struct spec *s, const struct opts *o);
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

/* cmd_fleet.c */

/* Set while this program runs a command for a controller as the host's
 * agent (`agent --spec NAME --host LABEL COMMAND ...`): the spec came on
 * standard input. */
struct on_host {
	const char	*name;		/* the controller's deploy.yaml */
	const char	*label;		/* this host's entry */
	char		*text;
	size_t		 len;
};
extern struct on_host dc_on_host;

/*
 * The hosts of s that have site (every host when site is NULL; only
 * --host's when given), ready for the engine (engine.h): the options
 * and deploy.yaml for their agents. 0, or -1 after saying why.
 */
struct fleet;
/* A report of deploy bench (JSON, SVG, HTML) written whole, its folder
 * made; -1 with the problem in d. */
int	dc_write_report(const char *path, const struct buf *b, struct diag *d);
int	dc_fleet_open(struct fleet *f, const struct opts *o,
	    const struct spec *s, const char *site, struct diag *d);

/* `deploy agent --spec NAME --host LABEL COMMAND [ARGS]`: reads the spec
 * from standard input and runs COMMAND for that host, on this machine. */
int	dc_agent_spec(int argc, char **argv);

/* Whether a command that observes or changes hosts runs on several hosts
 * (or on one it must reach through its agent) rather than here, on one:
 * not on the host itself, no --host, and a fleet or a linux-netns host
 * over ssh. */
int	dc_fleet_mode(const struct spec *s, const struct opts *o);

/*
 * Runs `deploy CMD ARGS` for every host of s that has site (every host
 * when site is NULL; only --host's when given), at most --max-parallel
 * at once: a linux-netns host over ssh runs it through its agent with
 * the spec sent along; any other host runs it here, as a child, with
 * --host. Prints each host's output under a heading naming the host (no
 * heading for one host). Returns 0 when it succeeded on every host,
 * else 1 with each failed host named in d.
 */
int	dc_on_hosts(const char *cmd, const struct opts *o, const struct spec *s,
	    const char *site, const char *const *args, struct diag *d);
/*
 * The same, on parallel hosts at once (0: --max-parallel's number), and
 * with each host's result given to got instead of printed (when got is
 * not NULL). An argument with "{host}" in it gets each host's label there.
 */
struct fleet_member;
int	dc_on_hosts_with(const char *cmd, const struct opts *o,
	    const struct spec *s, const char *site, const char *const *args,
	    int parallel, void (*got)(struct fleet_member *, void *), void *arg,
	    struct diag *d);

/* cmd_dns.c */
/*
 * With dns: in deploy.yaml, and not on a host for its controller: for
 * every site of s (or only that one), its hosts checked and the records
 * of its domains compared with the healthy hosts' addresses, or
 * published (engine_dns). 0 in step, 1 on a difference without publish,
 * -1 after saying why in d.
 */
int	dc_dns(const struct opts *o, const struct spec *s, const char *only,
	    int publish, struct diag *d);
/*
 * Before destroy removes --host's host (every host without --host): its
 * addresses withdrawn from the records of every site (or only) and the
 * TTL waited out; with every host going, the records deploy owns are
 * removed. 0, or -1 after saying why in d (then nothing is destroyed).
 */
int	dc_dns_withdraw(const struct opts *o, const struct spec *s,
	    const char *only, struct diag *d);
/* deploy watch: checks at an interval, keeps DNS to the hosts that are up. */
int	cmd_watch(int argc, char **argv);

/* cmd_acme.c: the nginx proxy's ACME certificates (acme.h) */

/* 1 when h's proxy is nginx with tls acme and h is this machine on
 * linux-netns: apply, destroy, renew and status then do their part. */
int	dc_acme_here(const struct spec *h);
/* Folders and placeholder certificates, before the proxy starts. */
int	dc_acme_prepare(const struct spec *h, struct diag *d);
/* After apply: a certificate for every site that has none, or whose is
 * due; the renewal schedule. *did is set when something changed. */
int	dc_acme_converge(const struct spec *h, struct driver *drv, int *did,
	    struct diag *d);
/* For plan: prints what apply would do for the certificates; returns
 * how many things that is. */
int	dc_acme_preview(const struct spec *h);
/* After destroy: the schedule and the ACME folder go. */
int	dc_acme_remove(const struct spec *h, struct diag *d);
/* The status lines of a site's certificate. */
void	dc_acme_describe(const struct spec *h, const struct spec_site *site,
	    const char *indent);
int	cmd_renew(int argc, char **argv);

/* cmd_bench.c: bench --from, the load made on other machines. */
int	dc_bench_from(const struct opts *o, struct diag *d);

int	cmd_status(int argc, char **argv);
int	cmd_health(int argc, char **argv);
int	cmd_logs(int argc, char **argv);
int	cmd_push(int argc, char **argv);
int	cmd_rollback(int argc, char **argv);
int	cmd_releases(int argc, char **argv);

#endif
