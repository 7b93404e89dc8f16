#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "freebsd.h"
#include "mem.h"

static const char *const names[] = {
	[ACT_NETWORK_CREATE] = "create-network",
	[ACT_NETWORK_DESTROY] = "destroy-network",
	[ACT_JAIL_CREATE] = "create-jail",
	[ACT_JAIL_DESTROY] = "destroy-jail",
	[ACT_CONFIG_WRITE] = "write-config",
	[ACT_SERVICE_START] = "start-server",
	[ACT_SERVICE_RELOAD] = "reload-server",
	[ACT_SERVICE_STOP] = "stop-server",
	[ACT_FIREWALL_LOAD] = "load-firewall",
	[ACT_FIREWALL_REMOVE] = "remove-firewall",
	[ACT_DATA_REMOVE] = "remove-data",
};

const char *
action_name(enum action_kind k)
{
	return names[k];
}

void
plan_add(struct plan *p, enum action_kind kind, const char *target,
    const char *a0, const char *a1, const char *payload)
{
	struct action *a;

	xgrow((void **)&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	a = &p->v[p->n++];
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->target = xstrdup(target);
	if (a0 != NULL) {
		a->args[0] = xstrdup(a0);
		if (a1 != NULL)
			a->args[1] = xstrdup(a1);
	}
	if (payload != NULL)
		a->payload = xstrdup(payload);
}

void
plan_release(struct plan *p)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].target);
		for (j = 0; j < ACTION_ARGS; j++)
			free(p->v[i].args[j]);
		free(p->v[i].payload);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static const struct observed_jail *
find(const struct observed *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->njails; i++)
		if (strcmp(o->jails[i].name, name) == 0)
			return &o->jails[i];
	return NULL;
}

static const char *
server_of(const struct spec *s, const char *jail)
{
	if (strcmp(jail, "proxy") == 0 && s->proxy.kind == PROXY_CADDY)
		return "caddy";
	if (strcmp(jail, "gemini") == 0)
		return s->platform == PLATFORM_LINUX_NETNS ? "molly-brown" :
		    "gmid";
	return "nginx";
}

/* Brings one jail to the wanted state: jail, config, running server. */
static int
converge_jail(struct plan *p, struct driver *drv, const struct observed *o,
    const char *name, const char *addr, struct diag *d)
{
	const struct observed_jail *j = find(o, name);
	struct buf want = BUF_INIT;
	char *path = NULL;
	int fresh = 0, running = j ? j->running : 0, changed;

	if (j == NULL || j->jail == OBJ_ABSENT) {
		plan_add(p, ACT_JAIL_CREATE, name, addr, NULL, NULL);
		fresh = 1;
	} else if (j->jail == OBJ_DIFFERENT) {
		if (running)
			plan_add(p, ACT_SERVICE_STOP, name,
			    server_of(drv->spec, name), NULL, NULL);
		plan_add(p, ACT_JAIL_DESTROY, name, NULL, NULL, NULL);
		plan_add(p, ACT_JAIL_CREATE, name, addr, NULL, NULL);
		fresh = 1;
	}
	if (drv->ops->config(drv, name, &want, &path, d) == -1)
		return -1;
	changed = j == NULL || !j->has_config || strcmp(j->config.ptr,
	    want.ptr) != 0;
	if (changed)
		plan_add(p, ACT_CONFIG_WRITE, name, path, NULL, want.ptr);
	if (fresh || !running)
		plan_add(p, ACT_SERVICE_START, name, server_of(drv->spec, name),
		    NULL, NULL);
	else if (changed)
		plan_add(p, ACT_SERVICE_RELOAD, name, server_of(drv->spec, name),
		    NULL, NULL);
	buf_release(&want);
	free(path);
	return 0;
}

static void
remove_jail(struct plan *p, const struct spec *s,
    const struct observed_jail *j)
{
	if (j->running)
		plan_add(p, ACT_SERVICE_STOP, j->name, server_of(s, j->name),
		    NULL, NULL);
	if (j->jail != OBJ_ABSENT)
		plan_add(p, ACT_JAIL_DESTROY, j->name, NULL, NULL, NULL);
}

static int
plan_apply_mode(struct plan *p, struct driver *drv, const struct observed *o,
    struct diag *d)
{
	const struct spec *s = drv->spec;
	size_t i;

	if (o->network != OBJ_OK)
		plan_add(p, ACT_NETWORK_CREATE, s->net.bridge,
		    s->net.subnet_str, NULL, NULL);
	for (i = 0; i < o->njails; i++)
		if (!o->jails[i].wanted)
			remove_jail(p, s, &o->jails[i]);
	/* Sites first: the proxy should find its upstreams up. */
	for (i = 0; i < s->nsites; i++)
		if (converge_jail(p, drv, o, s->sites[i].name,
		    s->sites[i].addr_str, d) == -1)
			return -1;
	if (converge_jail(p, drv, o, "proxy", s->net.proxy_str, d) == -1)
		return -1;
	/* The Gemini jail serves one site's capsule (spec.h). */
	if (spec_gemini_site(s) != NULL && converge_jail(p, drv, o, "gemini",
	    s->net.gemini_str, d) == -1)
		return -1;
	/* Last: the host's ports reach the proxy once it is ready. */
	if (o->firewall != OBJ_OK)
		plan_add(p, ACT_FIREWALL_LOAD, s->name, "host ports to proxy",
		    NULL, NULL);
	return 0;
}

static int
plan_destroy_all(struct plan *p, struct driver *drv, const struct observed *o)
{
	const struct spec *s = drv->spec;
	const struct observed_jail *j;
	size_t i;

	if (o->firewall != OBJ_ABSENT)
		plan_add(p, ACT_FIREWALL_REMOVE, s->name, NULL, NULL, NULL);
	if ((j = find(o, "proxy")) != NULL)
		remove_jail(p, s, j);
	for (i = 0; i < o->njails; i++) {
		j = &o->jails[i];
		if (strcmp(j->name, "proxy") == 0)
			continue;
		remove_jail(p, s, j);
	}
	for (i = 0; i < o->njails; i++) {
		j = &o->jails[i];
		if (j->has_data)
			plan_add(p, ACT_DATA_REMOVE, j->name, NULL, NULL,
			    NULL);
	}
	if (o->network != OBJ_ABSENT)
		plan_add(p, ACT_NETWORK_DESTROY, s->net.bridge, NULL, NULL,
		    NULL);
	return 0;
}

static int
plan_destroy_site(struct plan *p, struct driver *drv, const struct observed *o,
    const char *site, struct diag *d)
{
	const struct spec *orig = drv->spec;
	const struct observed_jail *j = find(o, site), *pj;
	struct spec without;
	struct spec_site *sites;
	struct buf want = BUF_INIT;
	char *path = NULL;
	size_t i, n = 0;
	int rc = 0;

	if (j != NULL) {
		remove_jail(p, orig, j);
		if (j->has_data)
			plan_add(p, ACT_DATA_REMOVE, site, NULL, NULL, NULL);
	}
	/* The proxy stops routing to the site: same spec without it. */
	pj = find(o, "proxy");
	if (pj == NULL || !pj->running)
		return 0;
	sites = xcalloc(orig->nsites + 1, sizeof(*sites));
	for (i = 0; i < orig->nsites; i++)
		if (strcmp(orig->sites[i].name, site) != 0)
			sites[n++] = orig->sites[i];
	without = *orig;
	without.sites = sites;
	without.nsites = n;
	drv->spec = &without;
	if (drv->ops->config(drv, "proxy", &want, &path, d) == -1)
		rc = -1;
	else if (!pj->has_config || strcmp(pj->config.ptr, want.ptr) != 0) {
		plan_add(p, ACT_CONFIG_WRITE, "proxy", path, NULL, want.ptr);
		plan_add(p, ACT_SERVICE_RELOAD, "proxy", server_of(orig,
		    "proxy"), NULL, NULL);
	}
	drv->spec = orig;
	free(sites);
	free(path);
	buf_release(&want);
	return rc;
}

int
plan_build(struct plan *p, struct driver *drv, const struct observed *o,
    enum plan_mode mode, const char *site, struct diag *d)
{
	switch (mode) {
	case PLAN_APPLY:
		return plan_apply_mode(p, drv, o, d);
	case PLAN_DESTROY_ALL:
		return plan_destroy_all(p, drv, o);
	case PLAN_DESTROY_SITE:
		return plan_destroy_site(p, drv, o, site, d);
	}
	return -1;
}

void
plan_print(const struct plan *p, FILE *fp)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct action *a = &p->v[i];

		fprintf(fp, "%3zu  %-16s %-12s", i + 1, action_name(a->kind),
		    a->target);
		for (j = 0; j < ACTION_ARGS && a->args[j] != NULL; j++)
			fprintf(fp, " %s", a->args[j]);
		fputc('\n', fp);
	}
}

int
plan_apply(const struct plan *p, struct driver *drv, FILE *progress,
    struct diag *d)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		if (progress != NULL) {
			fprintf(progress, "%3zu/%zu %s %s\n", i + 1, p->n,
			    action_name(p->v[i].kind), p->v[i].target);
			fflush(progress);
		}
		if (drv->ops->execute(drv, &p->v[i], d) == -1) {
			diag_error(d, NULL, 0, "%s %s failed; stopped after "
			    "%zu of %zu actions", action_name(p->v[i].kind),
			    p->v[i].target, i, p->n);
			return -1;
		}
	}
	return 0;
}

/* The driver for the platform; FreeBSD drivers slot in here. */
struct driver *
driver_open(const struct spec *s, struct diag *d)
{
	switch (s->platform) {
	case PLATFORM_LINUX_NETNS:
		if (s->host != HOST_LOCAL) {
			diag_error(d, s->file, 0, "platform linux-netns is "
			    "driven on the host itself: run deploy there "
			    "(host: local)");
			return NULL;
		}
		return driver_linux_open(s, d);
	case PLATFORM_FREEBSD_BASTILLE:
		return driver_bastille_open(s, d);
	case PLATFORM_FREEBSD_JAIL:
		return driver_jail_open(s, d);
	}
	diag_error(d, s->file, 0, "no driver for this platform yet: only "
	    "linux-netns can plan and apply");
	return NULL;
}

int
driver_needs_agent(const struct spec *h)
{
	return h->host == HOST_SSH && h->platform == PLATFORM_LINUX_NETNS;
}

void
driver_free(struct driver *drv)
{
	if (drv != NULL)
		drv->ops->free(drv);
}

void
observed_release(struct observed *o)
{
	size_t i;

	for (i = 0; i < o->njails; i++) {
		free(o->jails[i].name);
		buf_release(&o->jails[i].config);
	}
	free(o->jails);
	o->jails = NULL;
	o->njails = 0;
}
