/* The fleet engine's DNS step (engine.h): the A and AAAA records of a
 * site's domains kept to the addresses of its hosts that pass their
 * check, on the server of deploy.yaml's dns: (dns.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "dns.h"
#include "engine.h"
#include "fleet.h"
#include "fsutil.h"
#include "host.h"
#include "mem.h"

/* What the checks of one engine_dns share (f->job). */
struct dns_job {
	const struct engine_opts *o;
	int		*ok;		/* per member: passed its check */
	char		**why;		/* per member: why not (or NULL) */
};

/* One check of m's site, as a reader would, kept apart from what the
 * command said of m before. */
static int
step_check(struct fleet *f, struct fleet_member *m)
{
	struct dns_job *j = f->job;
	size_t i = (size_t)(m - f->m);
	struct buf said = m->out;
	struct diag *saved = m->d;
	struct diag *tmp = diag_new();

	buf_init(&m->out);
	m->d = tmp;
	j->ok[i] = host_check_once(f, m, NULL, j->o->cacert) == 0;
	if (!j->ok[i]) {
		const char *msg = diag_total(tmp) > 0 ? diag_message(tmp, 0) :
		    "the check failed";

		if (strncmp(msg, "error: ", 7) == 0)
			msg += 7;
		j->why[i] = xstrdup(msg);
	}
	buf_release(&m->out);
	m->out = said;
	m->d = saved;
	diag_free(tmp);
	return 0;
}

/* The addresses of every host of the fleet f's hosts belong to. */
static void
fleet_addresses(const struct spec *s, struct dns_addrs *all)
{
	size_t i, k;

	memset(all, 0, sizeof(*all));
	for (i = 0; i < s->nhosts; i++)
		for (k = 0; k < s->hosts[i]->naddresses; k++)
			dns_addrs_add(all, s->hosts[i]->addresses[k]);
}

/*
 * What deploy last published for a domain, kept beside deploy.yaml in
 * .deploy/dns/NAME, one address a line: addresses of a host that has
 * left the fleet, or moved, are deploy's own to withdraw, not others'.
 */
static char *
published_path(const struct spec *s, const char *name)
{
	struct buf b = BUF_INIT;
	const char *slash = strrchr(s->file, '/');

	if (slash != NULL)
		buf_add(&b, s->file, (size_t)(slash - s->file + 1));
	buf_printf(&b, ".deploy/dns/%s", name);
	return buf_detach(&b, NULL);
}

static void
published_read(const struct spec *s, const char *name, struct dns_addrs *out)
{
	char *path = published_path(s, name), line[128];
	FILE *fp;

	memset(out, 0, sizeof(*out));
	if ((fp = fopen(path, "r")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			dns_addrs_add(out, line);
		}
		fclose(fp);
	}
	free(path);
}

static int
published_write(const struct spec *s, const char *name,
    const struct dns_addrs *set, struct diag *d)
{
	char *path = published_path(s, name);
	struct buf b = BUF_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; i < set->n; i++)
		buf_printf(&b, "%s\n", set->a[i]);
	if (fs_write_atomic(path, b.ptr, b.len) == -1)
		rc = diag_error(d, path, 0, "cannot keep what was published "
		    "for %s: %s", name, strerror(errno));
	buf_release(&b);
	free(path);
	return rc;
}

int
engine_dns_check(struct fleet *f, const struct engine_opts *o, int *ok,
    char **why)
{
	struct dns_job j;
	size_t i, n = 0;

	j.o = o;
	j.ok = ok;
	j.why = why;
	for (i = 0; i < f->n; i++) {
		ok[i] = 0;
		why[i] = NULL;
	}
	f->job = &j;
	fleet_each(f, 0, step_check);
	f->job = NULL;
	for (i = 0; i < f->n; i++)
		n += ok[i] != 0;
	return (int)n;
}

int
engine_dns_sync(struct fleet *f, const struct engine_opts *o, const int *up,
    int publish, struct diag *d)
{
	const struct spec *s = f->m[0].host;
	const struct spec_site *site = f->m[0].site;
	const struct spec_dns *dns = s->dns;
	struct dns_addrs want, all;
	size_t i, k, healthy = 0;
	int rc = 0, changed = 0;
	char a[4096], b[4096];

	if (dns == NULL || site == NULL)
		return 0;
	memset(&want, 0, sizeof(want));
	for (i = 0; i < f->n; i++) {
		const struct spec *h = f->m[i].host;

		if (!up[i])
			continue;
		healthy++;
		for (k = 0; k < h->naddresses; k++)
			dns_addrs_add(&want, h->addresses[k]);
	}
	fleet_addresses(s, &all);
	for (k = 0; k < site->ndomains; k++) {
		const char *name = site->domains[k];
		struct dns_addrs have, mine;
		size_t x;

		if (dns_query(dns, name, &have, d) == -1) {
			rc = -1;
			continue;
		}
		dns_addrs_format(&have, a, sizeof(a));
		dns_addrs_format(&want, b, sizeof(b));
		if (!publish) {
			int same = dns_addrs_equal(&have, &want);

			fprintf(o->out, "dns %s: server answers %s; deploy "
			    "expects %s%s\n", name, a, healthy ? b :
			    "a healthy host (none passes its check)",
			    same && healthy ? "" : " (differs)");
			if ((!same || healthy == 0) && rc == 0)
				rc = 1;
			continue;
		}
		/* before the first push, or every host down: withdrawing
		 * the last one helps no reader */
		if (healthy == 0 && publish != 2) {
			fprintf(o->out, "dns %s: no host of site %s passes its "
			    "check: the records are left as they are (%s)\n",
			    name, site->name, a);
			continue;
		}
		if (dns_addrs_equal(&have, &want)) {
			if (published_write(s, name, &want, d) == -1)
				rc = -1;
			if (!o->quiet)
				fprintf(o->out, "dns %s: in step (%s)\n", name,
				    a);
			continue;
		}
		/* deploy owns the RRsets it made: others' addresses are
		 * taken over only when asked */
		published_read(s, name, &mine);
		for (x = 0; x < have.n && !dns->adopt; x++)
			if (!dns_addrs_has(&all, have.a[x]) &&
			    !dns_addrs_has(&mine, have.a[x]))
				break;
		if (!dns->adopt && x < have.n) {
			rc = diag_error(d, s->file, dns->line, "dns %s: the "
			    "server holds %s, not an address of the fleet: set "
			    "dns.adopt: true to take its A/AAAA records over; "
			    "nothing changed", name, have.a[x]);
			continue;
		}
		if (dns_replace(dns, name, &have, &want, d) == -1 ||
		    published_write(s, name, &want, d) == -1) {
			rc = -1;
			continue;
		}
		fprintf(o->out, "dns %s: published %s (was %s)\n", name, b, a);
		changed = 1;
	}
	return rc == 0 && changed ? 2 : rc;
}

int
engine_dns(struct fleet *f, const struct engine_opts *o, int publish,
    struct diag *d)
{
	int *ok;
	char **why;
	size_t i;
	int rc;

	if (f->m[0].host->dns == NULL || f->m[0].site == NULL)
		return 0;
	ok = xcalloc(f->n, sizeof(*ok));
	why = xcalloc(f->n, sizeof(*why));
	engine_dns_check(f, o, ok, why);
	for (i = 0; i < f->n; i++)
		if (!ok[i])
			fprintf(o->out, "dns: host %s left out: %s\n",
			    f->m[i].host->label, why[i]);
	rc = engine_dns_sync(f, o, ok, publish, d);
	for (i = 0; i < f->n; i++)
		free(why[i]);
	free(why);
	free(ok);
	return rc;
}
