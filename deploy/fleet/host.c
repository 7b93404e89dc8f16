/* The host interface of the fleet engine (host.h). */

#include "host.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "driver.h"
#include "fsutil.h"
#include "health.h"
#include "mem.h"
#include "spec.h"
#include "transport.h"

int
host_spec(struct fleet *f, const char *path, struct diag *d)
{
	char abs[PATH_MAX];

	buf_clear(&f->spec_text);
	if (fs_read(path, &f->spec_text) == -1) {
		diag_error(d, path, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	free(f->spec_path);
	/* The host reads relative paths against the same folder as here. */
	f->spec_path = xstrdup(realpath(path, abs) != NULL ? abs : path);
	return 0;
}

#define HOST_ARGS	8

int
host_command(struct fleet *f, struct fleet_member *m, const char *cmd,
    const char *const *args)
{
	const struct spec *h = m->host;
	int agent = driver_needs_agent(h);
	struct transport_opts to;
	struct buf own[HOST_ARGS];
	const char *w[16 + HOST_ARGS];
	size_t n = 0, i;
	int rc;

	memset(&to, 0, sizeof(to));
	for (i = 0; i < HOST_ARGS; i++)
		buf_init(&own[i]);
	if (agent) {
		to.host = h->host_str;
		to.known_hosts = f->known_hosts;
		to.identity = f->identity;
		w[n++] = h->agent ? h->agent : "deploy";
		w[n++] = "agent";
		w[n++] = "--spec";
		w[n++] = f->spec_path;
		w[n++] = "--host";
		w[n++] = h->label;
		w[n++] = cmd;
	} else {
		to.host = "local";
		w[n++] = f->self && f->self[0] ? f->self : "deploy";
		w[n++] = cmd;
		w[n++] = "-c";
		w[n++] = f->spec_path;
		w[n++] = "--host";
		w[n++] = h->label;
		if (f->known_hosts != NULL) {
			w[n++] = "--known-hosts";
			w[n++] = f->known_hosts;
		}
		if (f->identity != NULL) {
			w[n++] = "--identity";
			w[n++] = f->identity;
		}
	}
	for (i = 0; args != NULL && args[i] != NULL && i < HOST_ARGS; i++) {
		const char *at = strstr(args[i], "{host}");

		if (at == NULL) {
			w[n++] = args[i];
			continue;
		}
		buf_add(&own[i], args[i], (size_t)(at - args[i]));
		buf_printf(&own[i], "%s%s", h->label, at + 6);
		w[n++] = own[i].ptr;
	}
	w[n] = NULL;
	rc = transport_run(&to, w, agent ? f->spec_text.ptr : NULL,
	    agent ? f->spec_text.len : 0, &m->out, m->d);
	for (i = 0; i < HOST_ARGS; i++)
		buf_release(&own[i]);
	m->status = rc;
	if (rc == 0)
		return 0;
	if (rc == 255 && agent)
		diag_error(m->d, NULL, 0, "%s: cannot reach %s", cmd,
		    h->host_str);
	else if (rc > 0)
		diag_error(m->d, NULL, 0, "%s failed (exit %d)", cmd, rc);
	return -1;
}

/* The certificates in text (what else the host said is left out). */
static void
pem_blocks(const char *text, struct buf *pem)
{
	static const char begin[] = "-----BEGIN CERTIFICATE-----";
	static const char end[] = "-----END CERTIFICATE-----";
	const char *p = text, *e;

	while ((p = strstr(p, begin)) != NULL &&
	    (e = strstr(p, end)) != NULL) {
		e += sizeof(end) - 1;
		buf_add(pem, p, (size_t)(e - p));
		buf_addc(pem, '\n');
		p = e;
	}
}

int
host_proxy_ca(struct fleet *f, struct fleet_member *m)
{
	struct driver *drv;
	int rc = 0;

	if (m->ca_read)
		return m->ca_read == 1 ? 0 : -1;
	/* only Caddy's tls internal makes a CA of its own */
	if (m->host->proxy.kind != PROXY_CADDY ||
	    m->host->proxy.tls != TLS_INTERNAL)
		rc = 0;
	else if (driver_needs_agent(m->host)) {
		struct buf said = m->out;

		buf_init(&m->out);
		rc = host_command(f, m, "proxy-ca", NULL);
		if (rc == 0)
			pem_blocks(m->out.ptr, &m->ca);
		buf_release(&m->out);
		m->out = said;
	} else if ((drv = driver_open(m->host, m->d)) == NULL)
		rc = -1;
	else {
		rc = drv->ops->proxy_ca(drv, &m->ca, m->d);
		driver_free(drv);
	}
	/* asked once: a failure is not asked again at each retry */
	m->ca_read = rc == 0 ? 1 : 2;
	return rc;
}

/* What the platform wants after a switch, where its driver runs here. */
static int
after_switch(struct fleet_member *m)
{
	struct driver *drv;
	int rc = 0;

	if (driver_needs_agent(m->host))
		return 0;
	if ((drv = driver_open(m->host, m->d)) == NULL)
		return -1;
	if (drv->ops->after_switch != NULL)
		rc = drv->ops->after_switch(drv, m->site, m->d);
	driver_free(drv);
	return rc;
}

/* One check of m's site from here, its lines into rep, its problems
 * into d. 0 or -1. */
static int
check(struct fleet *f, struct fleet_member *m, const char *id,
    const char *cacert, long timeout, struct buf *rep, struct diag *d)
{
	struct health_opts ho;
	struct health_result hr;

	if (cacert == NULL && host_proxy_ca(f, m) == -1)
		return -1;
	memset(&ho, 0, sizeof(ho));
	ho.ca = cacert;
	ho.ca_pem = m->ca.ptr;
	ho.ca_pem_len = m->ca.len;
	ho.expect = id;
	ho.timeout = timeout;
	return health_check(m->host, m->site, &ho, &hr, rep, d);
}

int
host_check_once(struct fleet *f, struct fleet_member *m, const char *id,
    const char *cacert)
{
	return check(f, m, id, cacert, 10, &m->out, m->d);
}

int
host_check(struct fleet *f, struct fleet_member *m, const char *id,
    const char *cacert, int switched, int report)
{
	struct buf rep = BUF_INIT;
	struct diag *tmp;
	int i, rc = -1;

	if (switched && after_switch(m) == -1)
		return -1;
	/*
	 * Again for a few seconds until it serves id. Nothing is reloaded: a
	 * site's nginx resolves current once per request and opens files
	 * under the release itself, and a reload would close idle
	 * keep-alive connections.
	 */
	for (i = 0; i < 10; i++) {
		struct timespec ts = { 0, 500000000 };

		buf_clear(&rep);
		tmp = diag_new();
		rc = check(f, m, id, cacert, 5, &rep, tmp);
		if (rc == 0 || i == 9) {
			size_t k;

			for (k = 0; rc == -1 && k < diag_total(tmp); k++)
				diag_error(m->d, NULL, 0, "%s",
				    diag_message(tmp, k) + strlen("error: "));
			diag_free(tmp);
			break;
		}
		diag_free(tmp);
		nanosleep(&ts, NULL);
	}
	if (report)
		buf_add(&m->out, rep.ptr, rep.len);
	buf_release(&rep);
	return rc;
}
