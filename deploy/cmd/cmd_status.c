/* deploy status, health and logs: what the host runs and serves. */

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "cmd_int.h"
#include "diag.h"
#include "driver.h"
#include "engine.h"
#include "fleet.h"
#include "host.h"
#include "health.h"
#include "mem.h"
#include "plan.h"
#include "release.h"
#include "spec.h"
#include "transport.h"

static const char *
state_word(enum obj_state st)
{
	return st == OBJ_OK ? "up" : st == OBJ_ABSENT ? "absent" : "differs";
}

static void
age(char *out, size_t n, time_t t)
{
	long s = (long)(time(NULL) - t);

	if (s < 120)
		xsnprintf(out, n, "%lds", s);
	else if (s < 7200)
		xsnprintf(out, n, "%ldm", s / 60);
	else if (s < 172800)
		xsnprintf(out, n, "%ldh", s / 3600);
	else
		xsnprintf(out, n, "%ldd", s / 86400);
}

int
cmd_status(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s, *full;
	struct driver *drv = NULL;
	struct observed obs;
	struct buf ca = BUF_INIT;
	size_t i;
	int rc = 1;

	PARSE("status", 1, "akiHM");
	d = diag_new();
	memset(&obs, 0, sizeof(obs));
	if ((full = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	s = dc_host(full, &o);
	if (o.npos && !spec_fleet_has_site(full, o.pos[0])) {
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
		goto out;
	}
	if (dc_fleet_mode(full, &o)) {
		/* Each host's own status, observed on the host; then, on a
		 * fleet, what every host serves and drift between them. */
		const struct spec *h;
		const char *args[2] = { o.npos ? o.pos[0] : NULL, NULL };
		size_t k, j;

		rc = dc_on_hosts("status", &o, full, o.npos ? o.pos[0] : NULL,
		    args, d);
		if (full->nhosts == 1 || o.only_host != NULL)
			goto dns;
		s = full;
		printf("\n");
		for (k = 0; k < s->nhosts; k++) {
			h = s->hosts[k];
			for (j = 0; j < h->nsites; j++) {
				const char *name = h->sites[j].name;
				size_t m;

				if (o.npos && strcmp(o.pos[0], name) != 0)
					continue;
				/* each site once: on the first host that has it */
				for (m = 0; m < k && !spec_site(s->hosts[m],
				    name); m++)
					;
				if (m < k)
					continue;
				if (dc_fleet_status(&o, s, name, d) != 0)
					rc = 1;
			}
		}
		goto dns;
	}
	if (o.npos && dc_named_site(s, &o, d) == NULL)
		goto out;
	if ((drv = driver_open(s, d)) == NULL ||
	    drv->ops->observe(drv, &obs, d) == -1)
		goto out;
	printf("network %s: %s; firewall: %s\n", s->net.bridge,
	    state_word(obs.network), state_word(obs.firewall));
	for (i = 0; i < obs.njails; i++) {
		const struct observed_jail *j0 = &obs.jails[i];
		const struct spec_site *site = spec_site(s, j0->name);
		struct buf desc = BUF_INIT, dir = BUF_INIT, rep = BUF_INIT;
		struct health_opts ho = { .ca = o.cacert, .timeout = 5 };
		struct health_result hr;
		struct diag *hd;
		struct stat st;
		char link[PATH_MAX], when[32];
		ssize_t n;

		if (o.npos && strcmp(o.pos[0], j0->name) != 0)
			continue;
		if (!j0->wanted) {
			printf("%-12s stray (not in %s): jail %s%s\n", j0->name,
			    o.file, state_word(j0->jail),
			    j0->running ? ", server running" : "");
			continue;
		}
		drv->ops->describe(drv, j0->name, &desc);
		printf("%-12s jail %s, %s\n", j0->name, state_word(j0->jail),
		    desc.ptr);
		buf_release(&desc);
		if (site == NULL)
			continue;
		buf_printf(&dir, "%s/%s/current", s->releases.root, site->name);
		n = readlink(dir.ptr, link, sizeof(link) - 1);
		if (n > 0 && lstat(dir.ptr, &st) == 0) {
			link[n] = '\0';
			age(when, sizeof(when), st.st_mtime);
			printf("%-12s current %s (switched %s ago)\n", "",
			    strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
			    when);
		} else
			printf("%-12s current: none (nothing pushed)\n", "");
		buf_clear(&dir);
		buf_printf(&dir, "%s/sites/%s/last-push", s->state, site->name);
		{
			FILE *fp = fopen(dir.ptr, "r");
			char lp[256];

			if (fp != NULL && fgets(lp, sizeof(lp), fp) != NULL)
				printf("%-12s last push: %s", "", lp);
			if (fp != NULL)
				fclose(fp);
		}
		buf_release(&dir);
		if (!j0->running || !obs.jails[obs.njails - 1].running)
			continue;
		if (ho.ca == NULL && ca.len == 0)
			(void)drv->ops->proxy_ca(drv, &ca, d);
		ho.ca_pem = ca.ptr;
		ho.ca_pem_len = ca.len;
		hd = diag_new();
		health_check(s, site, &ho, &hr, &rep, hd);
		{
			char *line = rep.ptr, *nl;

			while (*line && (nl = strchr(line, '\n')) != NULL) {
				printf("%-12s %.*s\n", "", (int)(nl - line), line);
				line = nl + 1;
			}
		}
		if (hr.cert_expiry > 0) {
			char buf[64];
			struct tm tm;

			gmtime_r(&hr.cert_expiry, &tm);
			strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M UTC", &tm);
			printf("%-12s certificate expires %s (%ld days "
			    "left)\n", "", buf,
			    (long)((hr.cert_expiry - time(NULL)) / 86400));
			if (hr.cert_issuer[0] != '\0')
				printf("%-12s certificate issuer: %s\n", "",
				    hr.cert_issuer);
		}
		if (dc_acme_here(s))
			dc_acme_describe(s, site, "             ");
		diag_free(hd);
		buf_release(&rep);
	}
	rc = 0;
dns:
	/* per domain: what the server answers, what deploy expects */
	if (full->dns != NULL && dc_on_host.label == NULL) {
		printf("\n");
		if (dc_dns(&o, full, o.npos ? o.pos[0] : NULL, 0, d) != 0)
			rc = 1;
	}
out:
	observed_release(&obs);
	buf_release(&ca);
	driver_free(drv);
	spec_free(full);
	return dc_report(d, rc);
}

/* health on every host, in parallel, each under its name, checked from
 * here through the host's proxy. */
static int
health_on_hosts(const struct opts *o, const struct spec *s, struct diag *d)
{
	struct fleet f;
	struct engine_opts eo;
	size_t i, bad;

	if (dc_fleet_open(&f, o, s, o->npos ? o->pos[0] : NULL, d) == -1)
		return 1;
	memset(&eo, 0, sizeof(eo));
	eo.cacert = o->cacert;
	eo.expect = o->expect;
	eo.out = stdout;
	bad = engine_health(&f, &eo);
	for (i = 0; i < f.n; i++) {
		if (f.n > 1)
			printf("%s=== host %s (%s) ===\n", i ? "\n" : "",
			    f.m[i].host->label, f.m[i].host->host_str);
		fputs(f.m[i].out.ptr, stdout);
	}
	if (f.n > 1)
		printf("\nhealth on %zu hosts: %zu ok, %zu failed\n", f.n,
		    f.n - bad, bad);
	fleet_close(&f, d);
	return bad > 0 ? 1 : 0;
}

int
cmd_health(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s, *full;
	struct driver *drv = NULL;
	struct buf ca = BUF_INIT;
	size_t i;
	int rc = 0, found = 0;

	PARSE("health", 1, "eaHMki");
	d = diag_new();
	if ((full = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	s = dc_host(full, &o);
	if (o.npos && !spec_fleet_has_site(full, o.pos[0])) {
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
		spec_free(full);
		return dc_report(d, 1);
	}
	/* Checked from here, as a visitor would: no agent needed. */
	if (full->nhosts > 1 || driver_needs_agent(s)) {
		rc = health_on_hosts(&o, full, d);
		spec_free(full);
		return dc_report(d, rc);
	}
	if (o.cacert == NULL && (drv = driver_open(s, d)) == NULL) {
		spec_free(full);
		return dc_report(d, 1);
	}
	for (i = 0; i < s->nsites; i++) {
		struct health_opts ho = { .ca = o.cacert, .expect = o.expect,
		    .timeout = 10 };
		struct health_result hr;
		struct buf rep = BUF_INIT;

		if (o.npos && strcmp(o.pos[0], s->sites[i].name) != 0)
			continue;
		found = 1;
		if (ho.ca == NULL && ca.len == 0 &&
		    drv->ops->proxy_ca(drv, &ca, d) == -1)
			rc = 1;
		ho.ca_pem = ca.ptr;
		ho.ca_pem_len = ca.len;
		if (health_check(s, &s->sites[i], &ho, &hr, &rep, d) == -1)
			rc = 1;
		printf("%s:\n%s", s->sites[i].name, rep.ptr);
		buf_release(&rep);
	}
	if (!found) {
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
		rc = 1;
	}
	buf_release(&ca);
	driver_free(drv);
	spec_free(full);
	return dc_report(d, rc);
}

static void
tail(const char *path, int lines)
{
	FILE *fp = fopen(path, "r");
	long pos;
	int n = 0, ch;

	if (fp == NULL) {
		printf("(no %s)\n", path);
		return;
	}
	printf("==> %s <==\n", path);
	fseek(fp, 0, SEEK_END);
	pos = ftell(fp);
	while (pos > 0) {
		fseek(fp, --pos, SEEK_SET);
		if (fgetc(fp) == '\n' && ++n > lines) {
			pos++;
			break;
		}
	}
	fseek(fp, pos, SEEK_SET);
	while ((ch = fgetc(fp)) != EOF)
		putchar(ch);
	fclose(fp);
}

int
cmd_logs(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s, *full;
	struct driver *drv;
	char *path;
	int proxy;

	PARSE("logs", 1, "kiHM");
	if (o.npos != 1)
		return dc_usage_of("logs", EXIT_USAGE);
	d = diag_new();
	if ((full = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	s = dc_host(full, &o);
	/* the host's own jails: the proxy, and the Gemini jail if any */
	proxy = strcmp(o.pos[0], "proxy") == 0 ||
	    (strcmp(o.pos[0], "gemini") == 0 && spec_gemini_site(s) != NULL);
	if (!proxy && !spec_fleet_has_site(full, o.pos[0])) {
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
		spec_free(full);
		return dc_report(d, 1);
	}
	/* The logs are on each host: read there, shown under its name. */
	if (dc_fleet_mode(full, &o)) {
		const char *args[2] = { o.pos[0], NULL };
		int rc = dc_on_hosts("logs", &o, full, proxy ? NULL : o.pos[0],
		    args, d);

		spec_free(full);
		return dc_report(d, rc);
	}
	if (!proxy && dc_named_site(s, &o, d) == NULL) {
		spec_free(full);
		return dc_report(d, 1);
	}
	if ((drv = driver_open(s, d)) == NULL) {
		spec_free(full);
		return dc_report(d, 1);
	}
	path = drv->ops->log_path(drv, o.pos[0]);
	tail(path, 40);
	if (strstr(path, "error.log") != NULL) {
		strcpy(strstr(path, "error.log"), "access.log");
		tail(path, 40);
	}
	free(path);
	driver_free(drv);
	spec_free(full);
	return dc_report(d, 0);
}
