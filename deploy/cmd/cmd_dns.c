/* DNS kept in step with the fleet, for apply, push and status (each
 * site's hosts checked and its domains' records compared or published:
 * engine_dns), and by deploy watch, at an interval. */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd_int.h"
#include "diag.h"
#include "engine.h"
#include "fleet.h"
#include "mem.h"
#include "spec.h"

/* 1 if site name (only: the one asked for, NULL: all) is on host k of s
 * and on no host before it: each site is taken once, on its first host. */
static int
site_here_first(const struct spec *s, size_t k, const char *name,
    const char *only)
{
	size_t m;

	if (only != NULL && strcmp(only, name) != 0)
		return 0;
	for (m = 0; m < k; m++)
		if (spec_site(s->hosts[m], name))
			return 0;
	return 1;
}

int
dc_dns(const struct opts *o, const struct spec *s, const char *only,
    int publish, struct diag *d)
{
	struct engine_opts eo;
	size_t k, j;
	int rc = 0, r;

	if (s->dns == NULL || dc_on_host.label != NULL)
		return 0;
	memset(&eo, 0, sizeof(eo));
	eo.cacert = o->cacert;
	eo.out = stdout;
	for (k = 0; k < s->nhosts; k++) {
		const struct spec *h = s->hosts[k];

		for (j = 0; j < h->nsites; j++) {
			const char *name = h->sites[j].name;
			struct opts all = *o;
			struct fleet f;

			if (!site_here_first(s, k, name, only))
				continue;
			/* every host of the site, whatever --host says */
			all.only_host = NULL;
			if (dc_fleet_open(&f, &all, s, name, d) == -1) {
				rc = -1;
				continue;
			}
			r = engine_dns(&f, &eo, publish, d);
			if (r == -1 || (r == 1 && rc == 0))
				rc = r;
			if (fleet_close(&f, d) == -1)
				rc = -1;
		}
	}
	fflush(stdout);
	return rc;
}

/* Withdraws the hosts destroy is about to remove, then waits out the TTL. */
int
dc_dns_withdraw(const struct opts *o, const struct spec *s, const char *only,
    struct diag *d)
{
	struct engine_opts eo;
	size_t k, j, i;
	int rc = 0, changed = 0, r;

	if (s->dns == NULL || dc_on_host.label != NULL)
		return 0;
	memset(&eo, 0, sizeof(eo));
	eo.cacert = o->cacert;
	eo.out = stdout;
	eo.quiet = 1;
	for (k = 0; k < s->nhosts; k++) {
		const struct spec *h = s->hosts[k];

		for (j = 0; j < h->nsites; j++) {
			const char *name = h->sites[j].name;
			struct opts all = *o;
			struct fleet f;
			int *up;

			if (!site_here_first(s, k, name, only))
				continue;
			all.only_host = NULL;
			if (dc_fleet_open(&f, &all, s, name, d) == -1)
				return -1;
			/* the hosts that stay keep their records as they are */
			up = xcalloc(f.n, sizeof(*up));
			for (i = 0; i < f.n; i++)
				up[i] = o->only_host != NULL &&
				    strcmp(f.m[i].host->label, o->only_host) != 0;
			r = engine_dns_sync(&f, &eo, up, 2, d);
			if (r == -1)
				rc = -1;
			else if (r == 2)
				changed = 1;
			free(up);
			if (fleet_close(&f, d) == -1)
				rc = -1;
		}
	}
	if (rc == 0 && changed) {
		printf("dns: waiting %d s (the records' TTL) before destroying, "
		    "so that resolvers forget the withdrawn addresses\n",
		    s->dns->ttl);
		fflush(stdout);
		sleep((unsigned)s->dns->ttl);
	}
	fflush(stdout);
	return rc;
}

/* ---- deploy watch ---- */

static volatile sig_atomic_t watch_stop;

static void
on_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* One site's hosts, as watch sees them. */
struct watched {
	struct fleet	 f;
	const char	*site;
	int		*ok, *up, *fails, *passes, *kept;
	char		**why;
};

static void
stamp(char *out, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The hosts of w that are up, but i. */
static size_t
others_up(const struct watched *w, size_t i)
{
	size_t k, n = 0;

	for (k = 0; k < w->f.n; k++)
		if (k != i && w->up[k])
			n++;
	return n;
}

/* One round on one site: check, count, decide, publish. 0, or -1 when
 * the DNS server could not be brought in step. */
static int
watch_round(struct watched *w, const struct engine_opts *eo,
    const struct opts *o, int first)
{
	struct diag *dd = diag_new();
	size_t i, k;
	int rc;
	char t[32];

	engine_dns_check(&w->f, eo, w->ok, w->why);
	stamp(t, sizeof(t));
	for (i = 0; i < w->f.n; i++) {
		const char *label = w->f.m[i].host->label;

		if (w->ok[i]) {
			w->fails[i] = 0;
			w->passes[i]++;
			w->kept[i] = 0;
			if (!w->up[i] && (first || w->passes[i] >= o->rise)) {
				w->up[i] = 1;
				printf("%s %s host %s: up, %s\n", t, w->site,
				    label, first ? "passes its check" :
				    "passed its check again");
			}
		} else {
			w->passes[i] = 0;
			w->fails[i]++;
			if (w->up[i] && (first || w->fails[i] >= o->fall)) {
				if (others_up(w, i) == 0) {
					if (!w->kept[i])
						printf("%s %s host %s: fails "
						    "(%s), but it is the last "
						    "healthy host: kept\n", t,
						    w->site, label, w->why[i]);
					w->kept[i] = 1;
				} else {
					w->up[i] = 0;
					printf("%s %s host %s: withdrawn after "
					    "%d failed check%s: %s\n", t,
					    w->site, label, w->fails[i],
					    w->fails[i] == 1 ? "" : "s",
					    w->why[i]);
				}
			} else if (first)
				printf("%s %s host %s: down: %s\n", t, w->site,
				    label, w->why[i]);
		}
		free(w->why[i]);
		w->why[i] = NULL;
	}
	rc = engine_dns_sync(&w->f, eo, w->up, 1, dd);
	for (k = 0; k < diag_total(dd); k++)
		printf("%s %s %s\n", t, w->site, diag_message(dd, k));
	diag_free(dd);
	fflush(stdout);
	return rc == -1 ? -1 : 0;
}

int
cmd_watch(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct watched *w = NULL;
	struct engine_opts eo;
	struct sigaction sa;
	size_t nw = 0, k, j, m, i;
	int rc = 1, round, backoff = 0;

	PARSE("watch", 1, "akiMW");
	d = diag_new();
	if ((s = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	if (o.interval == 0)
		o.interval = 10;
	if (o.fall == 0)
		o.fall = 3;
	if (o.rise == 0)
		o.rise = 2;
	if (s->dns == NULL) {
		diag_error(d, s->file, 0, "watch: no dns: in the file, so "
		    "nothing to keep in step");
		goto out;
	}
	if (o.npos && !spec_fleet_has_site(s, o.pos[0])) {
		diag_error(d, s->file, 0, "unknown site '%s'", o.pos[0]);
		goto out;
	}
	for (k = 0, m = 0; k < s->nhosts; k++)
		m += s->hosts[k]->nsites;
	w = xcalloc(m + 1, sizeof(*w));
	for (k = 0; k < s->nhosts; k++) {
		const struct spec *h = s->hosts[k];

		for (j = 0; j < h->nsites; j++) {
			const char *name = h->sites[j].name;
			struct opts all = o;
			struct watched *x;

			if (o.npos && strcmp(o.pos[0], name) != 0)
				continue;
			for (m = 0; m < k && !spec_site(s->hosts[m], name);
			    m++)
				;
			if (m < k)
				continue;
			all.only_host = NULL;
			x = &w[nw];
			if (dc_fleet_open(&x->f, &all, s, name, d) == -1)
				goto out;
			nw++;
			x->site = name;
			x->ok = xcalloc(x->f.n, sizeof(int));
			x->up = xcalloc(x->f.n, sizeof(int));
			x->fails = xcalloc(x->f.n, sizeof(int));
			x->passes = xcalloc(x->f.n, sizeof(int));
			x->kept = xcalloc(x->f.n, sizeof(int));
			x->why = xcalloc(x->f.n, sizeof(char *));
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	memset(&eo, 0, sizeof(eo));
	eo.cacert = o.cacert;
	eo.out = stdout;
	eo.quiet = 1;
	printf("watching %zu site%s every %d s (fall %d, rise %d)\n", nw,
	    nw == 1 ? "" : "s", o.interval, o.fall, o.rise);
	fflush(stdout);
	for (round = 0; !watch_stop; round++) {
		struct timespec ts;
		int dns_bad = 0, wait;

		for (i = 0; i < nw; i++)
			if (watch_round(&w[i], &eo, &o, round == 0) == -1)
				dns_bad = 1;
		if (o.rounds > 0 && round + 1 >= o.rounds)
			break;
		/* the DNS server down: said each round, asked again later
		 * and later, up to a minute apart */
		backoff = dns_bad ? (backoff ? backoff * 2 : o.interval) : 0;
		if (backoff > 60)
			backoff = 60;
		wait = backoff > o.interval ? backoff : o.interval;
		ts.tv_sec = wait;
		ts.tv_nsec = 0;
		while (!watch_stop && nanosleep(&ts, &ts) == -1)
			;
	}
	rc = 0;
out:
	for (i = 0; i < nw; i++) {
		fleet_close(&w[i].f, d);
		free(w[i].ok);
		free(w[i].up);
		free(w[i].fails);
		free(w[i].passes);
		free(w[i].kept);
		free(w[i].why);
	}
	free(w);
	spec_free(s);
	return dc_report(d, rc);
}
