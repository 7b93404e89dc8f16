#ifndef DEPLOY_DRIVER_H
#define DEPLOY_DRIVER_H

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "diag.h"
#include "spec.h"

/*
 * A platform driver only observes the host and carries out actions; what
 * to do, and in which order, is decided by plan.c from the same data on
 * every platform. A jail is named by its role: "proxy" or a site name.
 */

enum action_kind {
	ACT_NETWORK_CREATE,	/* target: bridge; args: gateway/prefix */
	ACT_NETWORK_DESTROY,
	ACT_JAIL_CREATE,	/* target: jail; args: address */
	ACT_JAIL_DESTROY,
	ACT_CONFIG_WRITE,	/* target: jail; args: path; payload: text */
	ACT_SERVICE_START,	/* target: jail; args: server program */
	ACT_SERVICE_RELOAD,
	ACT_SERVICE_STOP,
	ACT_FIREWALL_LOAD,	/* target: rule set; args: what it does */
	ACT_FIREWALL_REMOVE,
	ACT_DATA_REMOVE		/* target: jail; args: folders removed */
};

#define ACTION_ARGS 3

struct action {
	enum action_kind kind;
	char		*target;
	char		*args[ACTION_ARGS];	/* NULL-terminated */
	char		*payload;		/* ACT_CONFIG_WRITE */
};

enum obj_state {
	OBJ_ABSENT,
	OBJ_OK,
	OBJ_DIFFERENT
};

struct observed_jail {
	char		*name;		/* "proxy" or a site name */
	enum obj_state	 jail;		/* exists with the wanted address, rules */
	int		 running;	/* its server is up */
	int		 has_config;
	struct buf	 config;	/* the config file as it is on the host */
	int		 wanted;	/* named by the spec */
	int		 has_data;	/* state or releases folders exist */
};

struct observed {
	enum obj_state	 network;
	enum obj_state	 firewall;
	struct observed_jail *jails;	/* wanted ones first, then strays */
	size_t		 njails;
};

struct driver;
struct plan;

struct driver_ops {
	const char	*platform;
	/* Fills o (zeroed by the caller) with the host's state. 0 or -1. */
	int	(*observe)(struct driver *, struct observed *o, struct diag *d);
	/* The desired config of a jail: text into out, *path (malloc'd) set
	 * to where it lives on the host. 0 or -1. */
	int	(*config)(struct driver *, const char *jail, struct buf *out,
		    char **path, struct diag *d);
	/* Carries out one action. 0, or -1 with the reason in d. */
	int	(*execute)(struct driver *, const struct action *a,
		    struct diag *d);
	/* Human-readable detail of a jail for `deploy status`. */
	void	(*describe)(struct driver *, const char *jail, struct buf *out);
	/* The CA certificate the proxy signs with when it is its own
	 * (Caddy's tls internal root), read where it is, as PEM appended to
	 * pem; nothing when there is none (yet). 0 or -1. */
	int	(*proxy_ca)(struct driver *, struct buf *pem, struct diag *d);
	/* Moves the calling process into the jail's network (for tools
	 * such as wrk run in a child). 0 or -1. */
	int	(*enter)(struct driver *, const char *jail);
	/* Server log file of a jail, malloc'd, or NULL. */
	char	*(*log_path)(struct driver *, const char *jail);
	/* The pid, as the host sees it, of the jail's server (nginx's
	 * master, Caddy), or <= 0; NULL where the platform cannot tell. */
	pid_t	(*server_pid)(struct driver *, const char *jail);
	/* The Caddy proxy with tls: acme (caddy_renew.h): with n names,
	 * loads the running config with their certificates due now, which
	 * Caddy renews in the background while it serves the ones it has;
	 * with none, loads the proxy's config file again, even when it is
	 * the running one. 0 or -1. NULL where the platform has no such
	 * step. */
	int	(*force_renewal)(struct driver *, const char *const *names,
		    size_t n, struct diag *d);
	/* The exact script apply would run for plan p, for `deploy plan`
	 * to show (FreeBSD runs one on the host). 0 or -1. NULL where apply
	 * carries the actions out itself. */
	int	(*script)(struct driver *, const struct plan *p,
		    struct buf *out, struct diag *d);
	/* After a switch of site's releases, what the platform's servers
	 * need to serve the new one (gmid holds the capsule folder it
	 * opened). 0 or -1. NULL where nothing is needed. */
	int	(*after_switch)(struct driver *, const struct spec_site *site,
		    struct diag *d);
	void	(*free)(struct driver *);
};

struct driver {
	const struct driver_ops *ops;
	const struct spec *spec;
};

/* The driver for s->platform, or NULL with a diagnostic. */
struct driver *driver_open(const struct spec *s, struct diag *d);
void	driver_free(struct driver *drv);

/*
 * 1 when h's driver must run on the host itself (it makes namespaces
 * there) and h is another machine: a controller then reaches it through
 * the host's `deploy agent`. 0 when the driver runs here (for this
 * machine, or for a host it drives over ssh).
 */
int	driver_needs_agent(const struct spec *h);

/* Frees what observe put in o. */
void	observed_release(struct observed *o);

/* Implemented by driver_linux.c. */
struct driver *driver_linux_open(const struct spec *s, struct diag *d);

#endif
