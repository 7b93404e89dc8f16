/*
 * Plans as data: a fake driver reports a host state, the plan must list
 * the same actions in the same order whatever the platform.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "mem.h"
#include "plan.h"
#include "spec.h"

static int passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond)							\
		passed++;						\
	else {								\
		failed++;						\
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

/* The fake host: configs are "config of NAME for N sites". */
static int
fake_config(struct driver *drv, const char *jail, struct buf *out,
    char **path, struct diag *d)
{
	struct buf p = BUF_INIT;

	(void)d;
	buf_printf(out, "config of %s for %zu sites", jail, drv->spec->nsites);
	buf_printf(&p, "/state/%s.conf", jail);
	*path = buf_detach(&p, NULL);
	return 0;
}

static const struct driver_ops fake_ops = {
	.platform = "fake",
	.config = fake_config,
};

static struct observed_jail *
jail(struct observed *o, const char *name, enum obj_state st, int running,
    const char *config, int wanted)
{
	struct observed_jail *j;

	o->jails = xrealloc(o->jails, (o->njails + 1) * sizeof(*o->jails));
	j = &o->jails[o->njails++];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	j->jail = st;
	j->running = running;
	j->wanted = wanted;
	j->has_data = st != OBJ_ABSENT;
	buf_init(&j->config);
	if (config != NULL) {
		j->has_config = 1;
		buf_adds(&j->config, config);
	}
	return j;
}

/* The plan as "kind target" lines. */
static void
lines(const struct plan *p, struct buf *out)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		buf_printf(out, "%s %s\n", action_name(p->v[i].kind),
		    p->v[i].target);
}

static void
expect(struct driver *drv, struct observed *o, enum plan_mode mode,
    const char *site, const char *want, const char *what)
{
	struct plan p;
	struct buf got = BUF_INIT;
	struct diag *d = diag_new();

	memset(&p, 0, sizeof(p));
	CHECK(plan_build(&p, drv, o, mode, site, d) == 0, "%s: plan_build",
	    what);
	lines(&p, &got);
	CHECK(strcmp(got.ptr, want) == 0, "%s:\n--- want\n%s--- got\n%s", what,
	    want, got.ptr);
	plan_release(&p);
	buf_release(&got);
	diag_free(d);
}

int
main(void)
{
	static const char text[] =
	    "name: t\n"
	    "platform: linux-netns\n"
	    "network: {bridge: tb0, subnet: 10.231.5.0/24, proxy: 10.231.5.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/t}\n"
	    "sites:\n"
	    "  - {name: a, domains: a.test, source: /}\n"
	    "  - {name: b, domains: b.test, source: /}\n";
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", text, sizeof(text) - 1, d);
	struct driver drv = { &fake_ops, NULL };
	struct observed o;
	struct plan p;

	if (s == NULL) {
		diag_print(d, 0, stderr, 0);
		printf("0 passed, 1 failed\n");
		return 1;
	}
	drv.spec = s;

	memset(&o, 0, sizeof(o));
	expect(&drv, &o, PLAN_APPLY, NULL,
	    "create-network tb0\n"
	    "create-jail a\n" "write-config a\n" "start-server a\n"
	    "create-jail b\n" "write-config b\n" "start-server b\n"
	    "create-jail proxy\n" "write-config proxy\n" "start-server proxy\n"
	    "load-firewall t\n",
	    "empty host: network, sites, proxy, then the firewall");

	/* Everything in place: nothing to do. */
	o.network = OBJ_OK;
	o.firewall = OBJ_OK;
	jail(&o, "a", OBJ_OK, 1, "config of a for 2 sites", 1);
	jail(&o, "b", OBJ_OK, 1, "config of b for 2 sites", 1);
	jail(&o, "proxy", OBJ_OK, 1, "config of proxy for 2 sites", 1);
	expect(&drv, &o, PLAN_APPLY, NULL, "", "converged host: empty plan");

	/* A changed config is written and reloaded; a stopped server
	 * started; a jail that differs is rebuilt. */
	buf_clear(&o.jails[0].config);
	buf_adds(&o.jails[0].config, "old");
	o.jails[1].jail = OBJ_DIFFERENT;
	o.jails[2].running = 0;
	expect(&drv, &o, PLAN_APPLY, NULL,
	    "write-config a\n" "reload-server a\n"
	    "stop-server b\n" "destroy-jail b\n" "create-jail b\n"
	    "start-server b\n"
	    "start-server proxy\n",
	    "drift");
	buf_clear(&o.jails[0].config);
	buf_adds(&o.jails[0].config, "config of a for 2 sites");
	o.jails[1].jail = OBJ_OK;
	o.jails[2].running = 1;

	/* A jail the spec no longer names goes away first. */
	jail(&o, "gone", OBJ_OK, 1, "x", 0);
	o.firewall = OBJ_DIFFERENT;
	expect(&drv, &o, PLAN_APPLY, NULL,
	    "stop-server gone\n" "destroy-jail gone\n" "load-firewall t\n",
	    "stray jail and changed firewall");

	expect(&drv, &o, PLAN_DESTROY_ALL, NULL,
	    "remove-firewall t\n"
	    "stop-server proxy\n" "destroy-jail proxy\n"
	    "stop-server a\n" "destroy-jail a\n"
	    "stop-server b\n" "destroy-jail b\n"
	    "stop-server gone\n" "destroy-jail gone\n"
	    "remove-data a\n" "remove-data b\n" "remove-data proxy\n"
	    "remove-data gone\n"
	    "destroy-network tb0\n",
	    "destroy everything, firewall first, network last");

	/* One site: its jail and data, then the proxy without it. */
	memset(&p, 0, sizeof(p));
	CHECK(plan_build(&p, &drv, &o, PLAN_DESTROY_SITE, "a", d) == 0,
	    "destroy site");
	CHECK(p.n == 5 && p.v[3].kind == ACT_CONFIG_WRITE &&
	    strcmp(p.v[3].target, "proxy") == 0 &&
	    strcmp(p.v[3].payload, "config of proxy for 1 sites") == 0 &&
	    p.v[4].kind == ACT_SERVICE_RELOAD,
	    "destroy site rewrites the proxy config without the site");
	CHECK(drv.spec == s, "the driver's spec is put back");
	CHECK(p.n > 0 && p.v[0].kind == ACT_SERVICE_STOP &&
	    strcmp(p.v[0].target, "a") == 0 && p.v[2].kind == ACT_DATA_REMOVE,
	    "destroy site: stop, destroy, remove data");
	{
		struct buf out = BUF_INIT;
		FILE *fp = tmpfile();
		char line[256];

		plan_print(&p, fp);
		rewind(fp);
		CHECK(fgets(line, sizeof(line), fp) != NULL &&
		    strstr(line, "stop-server") != NULL &&
		    strstr(line, "nginx") != NULL, "plan_print: %s", line);
		fclose(fp);
		buf_release(&out);
	}
	plan_release(&p);

	observed_release(&o);
	spec_free(s);

	/* A site with gemini: the Gemini jail after the proxy, before the
	 * firewall that forwards 1965 to it, with its own server. */
	{
		static const char gtext[] =
		    "name: t\n"
		    "platform: linux-netns\n"
		    "network: {bridge: tb0, subnet: 10.231.5.0/24, "
		    "proxy: 10.231.5.2}\n"
		    "proxy: {kind: caddy, tls: internal}\n"
		    "releases: {root: /srv/t}\n"
		    "sites:\n"
		    "  - {name: a, domains: a.test, source: /, gemini: true}\n";

		s = spec_parse("deploy.yaml", gtext, sizeof(gtext) - 1, d);
		CHECK(s != NULL, "gemini spec");
		if (s != NULL) {
			drv.spec = s;
			memset(&o, 0, sizeof(o));
			expect(&drv, &o, PLAN_APPLY, NULL,
			    "create-network tb0\n"
			    "create-jail a\n" "write-config a\n"
			    "start-server a\n"
			    "create-jail proxy\n" "write-config proxy\n"
			    "start-server proxy\n"
			    "create-jail gemini\n" "write-config gemini\n"
			    "start-server gemini\n"
			    "load-firewall t\n",
			    "gemini: its jail after the proxy");
			memset(&p, 0, sizeof(p));
			CHECK(plan_build(&p, &drv, &o, PLAN_APPLY, NULL, d) == 0 &&
			    p.n == 11 && strcmp(p.v[7].args[0], "10.231.5.9") == 0 &&
			    strcmp(p.v[9].args[0], "molly-brown") == 0,
			    "gemini: address subnet + 9, molly-brown");
			plan_release(&p);
			spec_free(s);
		}
	}
	diag_free(d);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
