/*
 * deploy bench --from: the site loaded from other machines (remote.h),
 * printed, and kept as NAME.json and NAME.html.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "buf.h"
#include "driver.h"
#include "health.h"
#include "mem.h"
#include "remote.h"
#include "spec.h"
#include "cmd_int.h"

int
dc_bench_from(const struct opts *o, struct diag *d)
{
	struct bench_remote *r = xcalloc(1, sizeof(*r));
	struct spec *full, *s;
	const struct spec_site *site = NULL;
	struct driver *drv = NULL;
	struct buf b = BUF_INIT, path = BUF_INIT;
	const char *name = o->out ? o->out : "bench";
	char a443[HEALTH_ADDR_MAX];
	int p443 = 443, i, rc = 1;

	if ((full = dc_load(o, d, 0)) == NULL) {
		free(r);
		return 1;
	}
	s = dc_host(full, o);
	if (o->npos)
		site = dc_named_site(s, o, d);
	else if (s->nsites == 1)
		site = &s->sites[0];
	else
		diag_error(d, o->file, 0, "bench --from: name the site");
	if (site == NULL)
		goto out;
	r->site = site->name;
	r->known_hosts = o->known_hosts;
	r->identity = o->identity;
	r->against_ssh = o->against_ssh;
	r->rounds = o->rounds ? o->rounds : 3;
	r->seconds = o->duration ? o->duration : 5;
	r->progress = isatty(2);
	for (i = 0; i < o->nfrom; i++)
		if (bench_remote_client(r, o->from[i], d) == -1)
			goto out;
	if (bench_remote_ladder(r, o->connections ? o->connections :
	    "10,100,1000", d) == -1)
		goto out;
	if (o->against != NULL) {
		if (strncmp(o->against, "http://", 7) != 0 &&
		    strncmp(o->against, "https://", 8) != 0) {
			diag_error(d, NULL, 0, "--against %s: an http:// or "
			    "https:// URL", o->against);
			goto out;
		}
		r->url[TGT_OLD] = xstrdup(o->against);
	}
	/* The site as its readers ask for it: its first name, through the
	 * host's port that reaches the proxy's 443. */
	if (health_entry(s, 443, a443, sizeof(a443), &p443) == -1)
		p443 = 443;
	if (p443 == 443)
		buf_printf(&b, "https://%s/", site->domains[0]);
	else
		buf_printf(&b, "https://%s:%d/", site->domains[0], p443);
	r->url[TGT_NEW] = buf_detach(&b, NULL);
	/* The pages of the release, when it is here; else the home page. */
	r->pages = bench_site_script(s, site, &r->script);
	/* The site's listen queues are read here when its jails are here. */
	if (!dc_fleet_mode(full, o))
		drv = driver_open(s, d);
	else
		diag_warn(d, o->file, 0, "bench --from: the site's listen queues "
		    "are read only on its host; here, causes are named for the "
		    "old server alone");
	if (bench_remote_run(r, drv, d) == -1 && r->nsteps > 0 &&
	    !r->steps[0].cell[TGT_NEW][0][0].ran && r->clients[0].gone == 0) {
		/* nothing measured (a client failed its check) */
		size_t c;
		int any = 0;

		for (c = 0; c < r->nclients; c++)
			any |= r->steps[0].cell[TGT_NEW][0][c].ran;
		if (!any)
			goto out;
	}
	buf_clear(&b);
	if (o->json) {
		bench_remote_json(r, &b);
		fputs(b.ptr, stdout);
	} else {
		bench_remote_table(r, &b);
		fputs(b.ptr, stdout);
		buf_clear(&b);
		bench_remote_json(r, &b);
		buf_printf(&path, "%s.json", name);
		if (dc_write_report(path.ptr, &b, d) == -1)
			goto out;
		buf_clear(&b);
		bench_remote_html(r, &b);
		buf_clear(&path);
		buf_printf(&path, "%s.html", name);
		if (dc_write_report(path.ptr, &b, d) == -1)
			goto out;
		printf("wrote %s.json and %s.html\n", name, name);
	}
	fflush(stdout);
	rc = diag_count(d, DIAG_ERROR) ? 1 : 0;
out:
	driver_free(drv);
	bench_remote_release(r);
	free(r);
	buf_release(&b);
	buf_release(&path);
	spec_free(full);
	return rc;
}
