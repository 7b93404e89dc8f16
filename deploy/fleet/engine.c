/* The fleet engine (engine.h): push, rollback, releases and health over
 * every host of a fleet, as one. */

#include "engine.h"

#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "health.h"
#include "host.h"
#include "mem.h"
#include "release.h"
#include "spec.h"
#include "transport.h"

/* What every host's steps of one command share (f->job). */
struct job {
	const struct engine_opts *o;
	const char	*repo;
	const char	*id;		/* the release pushed or wanted */
};

#define JOB(f)	((const struct job *)(f)->job)

int
engine_lock(const char *repo, FILE *out, struct diag *d)
{
	struct buf path = BUF_INIT, dir = BUF_INIT;
	char pid[32];
	const char *slash;
	ssize_t n;
	int fd;

	buf_printf(&path, "%.*s.lock", (int)(strlen(repo) -
	    (strlen(repo) > 4 && strcmp(repo + strlen(repo) - 4, ".git") == 0 ?
	    4 : 0)), repo);
	if ((slash = strrchr(repo, '/')) != NULL) {
		buf_add(&dir, repo, (size_t)(slash - repo));
		(void)fs_mkdirs(dir.ptr);
	}
	buf_release(&dir);
	if ((fd = open(path.ptr, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) == -1) {
		diag_error(d, path.ptr, 0, "cannot open the lock: %s",
		    strerror(errno));
		buf_release(&path);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		n = pread(fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		fprintf(out, "waiting for the push or rollback that holds %s "
		    "(process %s) to finish\n", path.ptr, pid[0] ? pid : "?");
		fflush(out);
		if (flock(fd, LOCK_EX) == -1) {
			diag_error(d, path.ptr, 0, "cannot lock: %s",
			    strerror(errno));
			close(fd);
			buf_release(&path);
			return -1;
		}
	}
	xsnprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0)
		(void)!pwrite(fd, pid, strlen(pid), 0);
	buf_release(&path);
	return fd;
}

void
engine_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* Remembers the outcome of the last push for `deploy status` (on this
 * machine's hosts: another keeps its own). */
static void
record_push(const struct spec *s, const struct spec_site *site,
    const char *line)
{
	struct buf path = BUF_INIT;
	FILE *fp;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	if (s->host != HOST_LOCAL)
		return;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	buf_printf(&path, "%s/sites/%s/last-push", s->state, site->name);
	if ((fp = fopen(path.ptr, "w")) != NULL) {
		fprintf(fp, "%s %s\n", when, line);
		fclose(fp);
	}
	buf_release(&path);
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Prints each host's lines, under its name when there are several. */
static void
print_hosts(struct fleet *f, FILE *out)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		struct fleet_member *m = &f->m[i];
		char *line, *nl;

		if (m->out.len == 0)
			continue;
		for (line = m->out.ptr; *line; line = nl + 1) {
			if ((nl = strchr(line, '\n')) == NULL)
				nl = line + strlen(line);
			if (f->n > 1)
				fprintf(out, "host %s: ", m->host->label);
			fprintf(out, "%.*s\n", (int)(nl - line), line);
			if (*nl == '\0')
				break;
		}
		buf_clear(&m->out);
	}
	fflush(out);
}

/* The links of one host as they are: current into m->prev, previous into
 * m->prev_prev. */
static int
links_of(struct fleet_member *m)
{
	struct release_info *list = NULL;
	size_t n = 0, i;

	m->prev[0] = m->prev_prev[0] = '\0';
	if (release_list(m->t, &list, &n, m->d) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (list[i].current)
			xsnprintf(m->prev, sizeof(m->prev), "%s", list[i].id);
		if (list[i].previous)
			xsnprintf(m->prev_prev, sizeof(m->prev_prev), "%s",
			    list[i].id);
	}
	free(list);
	return 0;
}

/* Phase 1 on one host: send what it lacks, check the release out, verify;
 * and note what it serves now, to come back to. */
static int
step_stage(struct fleet *f, struct fleet_member *m)
{
	unsigned long long sent, recv;

	if (fleet_open_member(f, m) == -1 || links_of(m) == -1 ||
	    release_send(m->t, JOB(f)->repo, JOB(f)->id, m->d) == -1)
		return -1;
	transport_bytes(m->t, &sent, &recv);
	buf_printf(&m->out, "sent %llu bytes to %s\n", sent,
	    transport_name(m->t));
	if (release_stage(m->t, JOB(f)->id, m->d) == -1)
		return -1;
	m->staged = 1;
	return 0;
}

/* Phase 2 on one host: the switch itself, one rename. */
static int
step_switch(struct fleet *f, struct fleet_member *m)
{
	char was[RELEASE_ID_MAX];

	if (m->switched)
		return 0;
	if (release_switch(m->t, JOB(f)->id, was, m->d) == -1)
		return -1;
	m->switched = 1;
	m->switched_ms = now_ms();
	return 0;
}

static int
step_check(struct fleet *f, struct fleet_member *m)
{
	return host_check(f, m, JOB(f)->id, JOB(f)->o->cacert, 1, 1);
}

/* Puts a switched host back as it was before this push: both links, or
 * none before a first push. */
static int
step_back(struct fleet *f, struct fleet_member *m)
{
	struct buf said = m->out;
	struct diag *d;
	int rc;

	if (!m->switched || m->t == NULL)
		return 0;
	if (release_restore(m->t, m->prev, m->prev_prev, m->d) == -1)
		return -1;
	m->switched = 0;
	m->back = 1;
	xsnprintf(m->now, sizeof(m->now), "%s", m->prev);
	if (m->prev[0] == '\0')
		return 0;
	/* it serves the old release again (its lines are not news, nor
	 * are the reasons of a host that failed: said once, above) */
	buf_init(&m->out);
	d = m->d;
	m->d = diag_new();
	rc = host_check(f, m, m->prev, JOB(f)->o->cacert, 1, 0);
	diag_free(m->d);
	m->d = d;
	if (rc == -1 && !m->failed)
		diag_error(m->d, NULL, 0, "back on %s, which does not pass "
		    "its check either", m->prev);
	buf_release(&m->out);
	m->out = said;
	return rc;
}

static int
step_prune(struct fleet *f, struct fleet_member *m)
{
	size_t pruned;

	if (release_prune(m->t, m->host->releases.keep, &pruned, m->d) == -1)
		return -1;
	buf_printf(&m->out, "live: %s%s%s (pruned %zu)\n", JOB(f)->id,
	    m->prev[0] ? ", previous " : "", m->prev, pruned);
	return 0;
}

/* Every host that switched goes back; says so, host by host. */
static void
put_back(struct fleet *f, const char *why, const char *id, FILE *out)
{
	struct buf line = BUF_INIT;
	size_t i;

	fleet_each(f, 0, step_back);
	for (i = 0; i < f->n; i++) {
		struct fleet_member *m = &f->m[i];

		buf_clear(&line);
		if (f->n > 1)
			fprintf(out, "host %s: ", m->host->label);
		if (!m->back && !m->switched)
			fprintf(out, "%s: not switched, still on %s\n", why,
			    m->prev[0] ? m->prev : "nothing (no release yet)");
		else if (m->switched)
			fprintf(out, "%s: could not be put back, serves %s\n",
			    why, id);
		else if (m->prev[0] != '\0')
			fprintf(out, "%s: back to %s\n", why, m->prev);
		else
			fprintf(out, "%s: back to serving nothing, as before "
			    "this first push (%s stays on the host for deploy "
			    "logs)\n", why, id);
		if (m->prev[0] != '\0')
			buf_printf(&line, "failed %s (back to %s)", id, m->prev);
		else
			buf_printf(&line, "failed %s", id);
		record_push(m->host, m->site, line.ptr);
	}
	fflush(out);
	buf_release(&line);
}

int
engine_push(struct fleet *f, const char *repo, const char *id,
    const struct engine_opts *o, struct diag *d)
{
	struct job job = { o, repo, id };
	struct buf line = BUF_INIT;
	FILE *out = o->out;
	size_t i, bad;
	long long first = 0, last = 0;
	int rc = -1;

	f->job = &job;
	if (o->canary != NULL && fleet_member(f, o->canary) == NULL) {
		diag_error(d, NULL, 0, "--canary %s: no such host has site %s",
		    o->canary, f->m[0].site->name);
		goto out;
	}
	/* Phase 1: every host stages; nobody switches unless all did. */
	bad = fleet_each(f, 1, step_stage);
	print_hosts(f, out);
	if (bad > 0) {
		for (i = 0; i < f->n; i++)
			if (f->m[i].failed)
				fprintf(out, "host %s: not staged\n",
				    f->m[i].host->label);
		fprintf(out, "nothing switched: %zu of %zu host%s could not "
		    "stage %s\n", bad, f->n, f->n == 1 ? "" : "s", id);
		goto out;
	}
	if (f->n > 1)
		fprintf(out, "staged on %zu hosts\n", f->n);
	fflush(out);
	release_test_pause("between-phases");

	/* Phase 2: switch (the canary alone first), then check each host. */
	if (o->canary != NULL) {
		struct fleet_member *c = fleet_member(f, o->canary);

		if (step_switch(f, c) == -1 || step_check(f, c) == -1) {
			c->failed = 1;
			print_hosts(f, out);
			put_back(f, "canary failed", id, out);
			goto out;
		}
		print_hosts(f, out);
	}
	bad = fleet_each(f, 1, step_switch);
	bad += fleet_each(f, 1, step_check);
	print_hosts(f, out);
	for (i = 0; i < f->n; i++) {
		if (!f->m[i].switched)
			continue;
		if (first == 0 || f->m[i].switched_ms < first)
			first = f->m[i].switched_ms;
		if (f->m[i].switched_ms > last)
			last = f->m[i].switched_ms;
	}
	if (bad > 0) {
		put_back(f, "health check failed", id, out);
		goto out;
	}
	if (f->n > 1)
		fprintf(out, "switched %zu hosts within %lld ms\n", f->n,
		    last - first);
	if (fleet_each(f, 1, step_prune) > 0) {
		print_hosts(f, out);
		goto out;
	}
	print_hosts(f, out);
	buf_printf(&line, "ok %s", id);
	for (i = 0; i < f->n; i++)
		record_push(f->m[i].host, f->m[i].site, line.ptr);
	rc = 0;
out:
	buf_release(&line);
	f->job = NULL;
	return rc;
}

/* rollback, one host: the release before its current one (or the one
 * named) is verified and switched to. */
static int
step_rollback(struct fleet *f, struct fleet_member *m)
{
	if ((m->t == NULL && fleet_open_member(f, m) == -1) ||
	    release_rollback(m->t, JOB(f)->id, m->now, m->d) == -1)
		return -1;
	return 0;
}

static int
step_check_now(struct fleet *f, struct fleet_member *m)
{
	return host_check(f, m, m->now, JOB(f)->o->cacert, 1, 1);
}

/* The release to roll back to on one host, into m->prev: as the host's
 * agent picks it, the one that served before when it is older (the list
 * is oldest first), else the newest older. */
static int
step_before(struct fleet *f, struct fleet_member *m)
{
	struct release_info *list = NULL;
	size_t n = 0, i, k;

	if (fleet_open_member(f, m) == -1 ||
	    release_list(m->t, &list, &n, m->d) == -1)
		return -1;
	for (i = 0; i < n && !list[i].current; i++)
		;
	for (k = 0; k < i && !list[k].previous; k++)
		;
	if (k < i)
		xsnprintf(m->prev, sizeof(m->prev), "%s", list[k].id);
	else
		for (k = 0; k < i && i < n; k++)
			if (!list[k].failed)
				xsnprintf(m->prev, sizeof(m->prev), "%s",
				    list[k].id);
	free(list);
	if (m->prev[0] == '\0') {
		diag_error(m->d, NULL, 0, "no release before the current one");
		return -1;
	}
	return 0;
}

int
engine_rollback(struct fleet *f, const char *id, const struct engine_opts *o,
    struct diag *d)
{
	struct job job = { o, NULL, id };
	FILE *out = o->out;
	size_t i;
	int rc = -1;

	f->job = &job;
	/* Without an id, every host must agree on the release to go back to:
	 * a fleet never ends a rollback serving two versions. */
	if (id == NULL && f->n > 1) {
		if (fleet_each(f, 0, step_before) > 0)
			goto out;
		for (i = 1; i < f->n; i++)
			if (strcmp(f->m[i].prev, f->m[0].prev) != 0) {
				diag_error(d, NULL, 0, "the hosts' previous "
				    "releases differ (%s on %s, %s on %s): name "
				    "the release to roll back to", f->m[0].prev,
				    f->m[0].host->label, f->m[i].prev,
				    f->m[i].host->label);
				goto out;
			}
		job.id = f->m[0].prev;
	}
	if (fleet_each(f, 0, step_rollback) > 0) {
		print_hosts(f, out);
		goto out;
	}
	rc = fleet_each(f, 0, step_check_now) == 0 ? 0 : -1;
	print_hosts(f, out);
	for (i = 0; i < f->n; i++) {
		struct buf line = BUF_INIT;

		if (f->n > 1)
			fprintf(out, "host %s: ", f->m[i].host->label);
		fprintf(out, "current: %s\n", f->m[i].now);
		buf_printf(&line, "rollback %s %s", rc == 0 ? "ok" : "failed",
		    f->m[i].now);
		record_push(f->m[i].host, f->m[i].site, line.ptr);
		buf_release(&line);
	}
	fflush(out);
out:
	f->job = NULL;
	return rc;
}

static int
step_list(struct fleet *f, struct fleet_member *m)
{
	struct release_info *list = NULL;
	size_t n = 0, i;

	if (fleet_open_member(f, m) == -1 ||
	    release_list(m->t, &list, &n, m->d) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		char when[32];
		time_t tt = (time_t)list[i].time;
		struct tm tm;

		gmtime_r(&tt, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		buf_printf(&m->out, "%s  %s%s%s%s\n", list[i].id, when,
		    list[i].current ? "  current" : "",
		    list[i].previous ? "  previous" : "",
		    list[i].failed ? "  failed (never served)" : "");
		if (list[i].current)
			xsnprintf(m->now, sizeof(m->now), "%s", list[i].id);
	}
	if (n == 0)
		buf_printf(&m->out, "no releases\n");
	free(list);
	return 0;
}

int
engine_releases(struct fleet *f, const struct engine_opts *o, struct diag *d)
{
	size_t i;
	int rc = 0;

	if (fleet_each(f, 0, step_list) > 0) {
		print_hosts(f, o->out);
		return -1;
	}
	print_hosts(f, o->out);
	/* Drift: hosts of one site serving different releases. */
	for (i = 1; i < f->n; i++)
		if (strcmp(f->m[i].now, f->m[0].now) != 0) {
			diag_error(d, NULL, 0, "drift: site %s is at %s on %s "
			    "but at %s on %s", f->m[0].site->name,
			    f->m[0].now[0] ? f->m[0].now : "nothing",
			    f->m[0].host->label, f->m[i].now[0] ?
			    f->m[i].now : "nothing", f->m[i].host->label);
			rc = 1;
		}
	return rc;
}

/* status, one host: the release it serves now, into m->now. */
static int
step_current(struct fleet *f, struct fleet_member *m)
{
	if (fleet_open_member(f, m) == -1 || links_of(m) == -1)
		return -1;
	xsnprintf(m->now, sizeof(m->now), "%s", m->prev);
	return 0;
}

int
engine_current(struct fleet *f, const struct engine_opts *o, struct diag *d)
{
	const char *name = f->m[0].site->name;
	size_t i;
	int rc = 0;

	fleet_each(f, 0, step_current);
	for (i = 0; i < f->n; i++) {
		fprintf(o->out, "%-12s host %s: ", name, f->m[i].host->label);
		if (f->m[i].failed)
			fprintf(o->out, "unreachable\n");
		else
			fprintf(o->out, "current %s\n", f->m[i].now[0] ?
			    f->m[i].now : "none (nothing pushed)");
		if (f->m[i].failed)
			rc = -1;
		else if (strcmp(f->m[i].now, f->m[0].now) != 0 && rc == 0)
			rc = 1;
	}
	if (rc == 1)
		diag_error(d, NULL, 0, "drift: the hosts of site %s serve "
		    "different releases", name);
	return rc;
}

/* health, one host: each of its sites (or its one), its report in m->out
 * under each site's name. */
static int
step_health(struct fleet *f, struct fleet_member *m)
{
	const struct spec *h = m->host;
	const struct spec_site *only = m->site;
	size_t i;
	int rc = 0;

	for (i = 0; i < h->nsites; i++) {
		if (only != NULL && only != &h->sites[i])
			continue;
		m->site = &h->sites[i];
		buf_printf(&m->out, "%s:\n", h->sites[i].name);
		/* once: a check in a loop is push's, not a reader's */
		if (host_check_once(f, m, JOB(f)->o->expect,
		    JOB(f)->o->cacert) == -1)
			rc = -1;
	}
	m->site = only;
	return rc;
}

size_t
engine_health(struct fleet *f, const struct engine_opts *o)
{
	struct job job = { o, NULL, NULL };
	size_t bad;

	f->job = &job;
	bad = fleet_each(f, 0, step_health);
	f->job = NULL;
	return bad;
}

/* What every host's run of one command shares (f->job). */
struct run {
	const char		*cmd;
	const char		*const *args;
};

static int
step_run(struct fleet *f, struct fleet_member *m)
{
	const struct run *r = f->job;

	return host_command(f, m, r->cmd, r->args);
}

size_t
engine_command(struct fleet *f, const char *cmd, const char *const *args)
{
	struct run r = { cmd, args };
	size_t i, bad;

	for (i = 0; i < f->n; i++)
		f->m[i].status = -1;
	f->job = &r;
	bad = fleet_each(f, 0, step_run);
	f->job = NULL;
	return bad;
}
