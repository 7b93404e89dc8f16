/* The hosts of a site as one: parallel steps over their sessions. */

#include "fleet.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "mem.h"
#include "transport.h"

int
fleet_init_hosts(struct fleet *f, const struct spec *s, const char *site,
    const char *only, struct diag *d)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	buf_init(&f->spec_text);
	f->max_parallel = 4;
	f->m = xcalloc(s->nhosts ? s->nhosts : 1, sizeof(*f->m));
	for (i = 0; i < s->nhosts; i++) {
		const struct spec *h = s->hosts[i];

		if (only != NULL && strcmp(h->label, only) != 0)
			continue;
		if (site != NULL && spec_site(h, site) == NULL)
			continue;
		f->m[f->n].host = h;
		f->m[f->n].site = site != NULL ? spec_site(h, site) : NULL;
		f->m[f->n].d = diag_new();
		buf_init(&f->m[f->n].out);
		buf_init(&f->m[f->n].ca);
		f->n++;
	}
	if (f->n == 0) {
		if (only != NULL && site == NULL)
			diag_error(d, s->file, 0, "no host named '%s'", only);
		else if (only != NULL)
			diag_error(d, s->file, 0, "host %s has no site '%s'",
			    only, site);
		else
			diag_error(d, s->file, 0, "unknown site '%s'", site);
		free(f->m);
		f->m = NULL;
		return -1;
	}
	return 0;
}

struct worker {
	struct fleet	*f;
	int		(*step)(struct fleet *, struct fleet_member *);
	int		 only_ok;
	size_t		 next;
	size_t		 failed;
	pthread_mutex_t	 lock;
};

static void *
work(void *arg)
{
	struct worker *w = arg;

	for (;;) {
		struct fleet_member *m;
		int rc;

		pthread_mutex_lock(&w->lock);
		while (w->next < w->f->n && w->only_ok &&
		    w->f->m[w->next].failed)
			w->next++;
		if (w->next >= w->f->n) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		m = &w->f->m[w->next++];
		pthread_mutex_unlock(&w->lock);
		rc = w->step(w->f, m);
		pthread_mutex_lock(&w->lock);
		if (rc == -1) {
			m->failed = 1;
			w->failed++;
		}
		pthread_mutex_unlock(&w->lock);
	}
}

size_t
fleet_each(struct fleet *f, int only_ok,
    int (*step)(struct fleet *, struct fleet_member *))
{
	struct worker w;
	pthread_t *th;
	size_t i, nth;

	w.f = f;
	w.step = step;
	w.only_ok = only_ok;
	w.next = 0;
	w.failed = 0;
	pthread_mutex_init(&w.lock, NULL);
	nth = f->max_parallel > 0 ? (size_t)f->max_parallel : 1;
	if (nth > f->n)
		nth = f->n;
	/* One host needs no thread: messages and timing stay as they were. */
	if (nth <= 1) {
		work(&w);
	} else {
		th = xcalloc(nth, sizeof(*th));
		for (i = 0; i < nth; i++)
			if (pthread_create(&th[i], NULL, work, &w) != 0)
				break;
		nth = i;
		if (nth == 0)
			work(&w);
		for (i = 0; i < nth; i++)
			pthread_join(th[i], NULL);
		free(th);
	}
	pthread_mutex_destroy(&w.lock);
	return w.failed;
}

int
fleet_open_member(struct fleet *f, struct fleet_member *m)
{
	struct transport_opts to;

	memset(&to, 0, sizeof(to));
	to.host = m->host->host_str;
	to.known_hosts = f->known_hosts;
	to.identity = f->identity;
	/* Locally the agent is this very program; remotely, the host's
	 * `agent:` or deploy in PATH. */
	to.agent = m->host->agent ? m->host->agent :
	    m->host->host == HOST_LOCAL && f->self && f->self[0] ? f->self :
	    NULL;
	to.root = m->host->releases.root;
	to.site = m->site->name;
	m->t = transport_open(&to, m->d);
	return m->t != NULL ? 0 : -1;
}

int
fleet_close(struct fleet *f, struct diag *d)
{
	size_t i, k;
	int rc = 0;

	for (i = 0; i < f->n; i++) {
		struct fleet_member *m = &f->m[i];

		if (transport_close(m->t, m->d) == -1)
			rc = -1;
		m->t = NULL;
		for (k = 0; k < diag_total(m->d); k++) {
			const char *msg = diag_message(m->d, k);

			if (f->n > 1)
				diag_add(d, DIAG_ERROR, NULL, 0, "host %s: %s",
				    m->host->label, strncmp(msg, "error: ",
				    7) == 0 ? msg + 7 : msg);
			else
				diag_add(d, DIAG_ERROR, NULL, 0, "%s",
				    strncmp(msg, "error: ", 7) == 0 ? msg + 7 :
				    msg);
		}
		diag_free(m->d);
		m->d = NULL;
		buf_release(&m->out);
		buf_release(&m->ca);
	}
	free(f->m);
	free(f->spec_path);
	f->spec_path = NULL;
	buf_release(&f->spec_text);
	f->m = NULL;
	f->n = 0;
	return rc;
}

struct fleet_member *
fleet_member(struct fleet *f, const char *label)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->m[i].host->label, label) == 0)
			return &f->m[i];
	return NULL;
}
