#ifndef DEPLOY_PLAN_H
#define DEPLOY_PLAN_H

#include <stdio.h>

#include "driver.h"

/*
 * A plan: the ordered actions that take the host from what the driver
 * observed to what the spec asks for. Building one changes nothing.
 */
struct plan {
	struct action	*v;
	size_t		 n, cap;
};

enum plan_mode {
	PLAN_APPLY,		/* converge on the spec */
	PLAN_DESTROY_ALL,	/* remove everything the spec created */
	PLAN_DESTROY_SITE	/* remove one site, update the proxy */
};

/*
 * Fills p (zeroed by the caller) from the spec, the observed state and the
 * driver's configs. site names the site for PLAN_DESTROY_SITE. 0 or -1.
 */
int	plan_build(struct plan *p, struct driver *drv, const struct observed *o,
	    enum plan_mode mode, const char *site, struct diag *d);

/* Adds one action; args are copied; a NULL arg ends the list. */
void	plan_add(struct plan *p, enum action_kind kind, const char *target,
	    const char *a0, const char *a1, const char *payload);

/* One line per action: "  N  kind  target  args". */
void	plan_print(const struct plan *p, FILE *fp);

/* Runs every action in order and stops at the first failure. 0 or -1. */
int	plan_apply(const struct plan *p, struct driver *drv, FILE *progress,
	    struct diag *d);

void	plan_release(struct plan *p);

/* "create-network" etc. */
const char *action_name(enum action_kind k);

#endif
