/* deploy push, rollback and releases: building, sending and switching
 * releases of a site. */

#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "buf.h"
#ifdef HAVE_LIBSSG
#include "build.h"
#endif
#include "cmd_int.h"
#include "diag.h"
#include "driver.h"
#include "fsutil.h"
#include "fleet.h"
#include "freebsd.h"
#include "health.h"
#include "mem.h"
#include "plan.h"
#include "release.h"
#include "spec.h"
#ifdef HAVE_LIBSSG
#include "theme.h"
#endif
#include "transport.h"

/* ---- releases: push, rollback, releases, agent ---- */

/* The local release repository of a site: next to deploy.yaml. */
static char *
repo_dir(const struct spec *s, const struct spec_site *site)
{
	struct buf b = BUF_INIT;
	const char *slash = strrchr(s->file, '/');

	if (slash != NULL)
		buf_add(&b, s->file, (size_t)(slash - s->file + 1));
	buf_printf(&b, ".deploy/%s.git", site->name);
	return buf_detach(&b, NULL);
}

/*
 * After a switch: check every domain through the proxy, for a few
 * seconds, until it serves release id. Nothing is reloaded: a site's
 * nginx resolves current once per request and opens files under the
 * release itself, and a reload would close idle keep-alive connections.
 */
static int
settle(const struct spec *s, const struct spec_site *site, const char *id,
    const struct opts *o, struct buf *rep, struct diag *d)
{
	struct driver *drv = NULL;
	struct health_opts ho = { o->cacert, id, 5 };
	struct health_result hr;
	struct diag *tmp;
	int i, rc = -1;

	if (ho.ca == NULL && s->host == HOST_LOCAL &&
	    s->platform == PLATFORM_LINUX_NETNS &&
	    (drv = driver_open(s, d)) != NULL)
		ho.ca = drv->ops->proxy_ca(drv);
	/* gmid (FreeBSD) holds the capsule folder it opened at start;
	 * molly-brown resolves current per request like nginx. */
	if (site->gemini && s->platform != PLATFORM_LINUX_NETNS) {
		struct driver *g = driver_open(s, d);

		if (g == NULL || freebsd_gemini_restart(g, d) == -1) {
			driver_free(g);
			driver_free(drv);
			return -1;
		}
		driver_free(g);
	}
	for (i = 0; i < 10; i++) {
		struct timespec ts = { 0, 500000000 };

		buf_clear(rep);
		tmp = diag_new();
		rc = health_check(s, site, &ho, &hr, rep, tmp);
		if (rc == 0 || i == 9) {
			size_t k;

			for (k = 0; rc == -1 && k < diag_total(tmp); k++)
				diag_error(d, NULL, 0, "%s",
				    diag_message(tmp, k) + strlen("error: "));
			diag_free(tmp);
			break;
		}
		diag_free(tmp);
		nanosleep(&ts, NULL);
	}
	driver_free(drv);
	return rc;
}

/* Remembers the outcome of the last push for `deploy status`. */
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

/* What every host's steps of one command share. */
struct job {
	const struct opts *o;
	const char	*repo;
	const char	*id;		/* the release pushed or wanted */
	pthread_mutex_t	 lock;		/* for the switch clock */
};

static struct job *the_job;

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Phase 1 on one host: send what it lacks, check the release out, verify. */
static int
step_stage(struct fleet *f, struct fleet_member *m)
{
	unsigned long long sent, recv;

	if (fleet_open_member(f, m) == -1 ||
	    release_send(m->t, the_job->repo, the_job->id, m->d) == -1)
		return -1;
	transport_bytes(m->t, &sent, &recv);
	buf_printf(&m->out, "sent %llu bytes to %s\n", sent,
	    transport_name(m->t));
	if (release_stage(m->t, the_job->id, m->d) == -1)
		return -1;
	m->staged = 1;
	return 0;
}

/* Phase 2 on one host: the switch itself, one rename. */
static int
step_switch(struct fleet *f, struct fleet_member *m)
{
	(void)f;
	if (m->switched)
		return 0;
	if (release_switch(m->t, the_job->id, m->prev, m->d) == -1)
		return -1;
	m->switched = 1;
	m->switched_ms = now_ms();
	return 0;
}

static int
step_settle(struct fleet *f, struct fleet_member *m)
{
	(void)f;
	return settle(m->host, m->site, the_job->id, the_job->o, &m->out,
	    m->d);
}

/* Puts a switched host back where it was before this push. */
static int
step_back(struct fleet *f, struct fleet_member *m)
{
	struct buf rep = BUF_INIT;
	int rc;

	(void)f;
	if (!m->switched || m->prev[0] == '\0' || m->t == NULL)
		return 0;
	rc = release_rollback(m->t, m->prev, m->now, m->d);
	if (rc == 0) {
		m->switched = 0;
		settle(m->host, m->site, m->now, the_job->o, &rep, m->d);
	}
	buf_release(&rep);
	return rc;
}

static int
step_prune(struct fleet *f, struct fleet_member *m)
{
	size_t pruned;

	(void)f;
	if (release_prune(m->t, m->host->releases.keep, &pruned, m->d) == -1)
		return -1;
	buf_printf(&m->out, "live: %s%s%s (pruned %zu)\n", the_job->id,
	    m->prev[0] ? ", previous " : "", m->prev, pruned);
	return 0;
}

/* Prints each host's lines, under its name when there are several. */
static void
print_hosts(struct fleet *f)
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
				printf("host %s: ", m->host->label);
			printf("%.*s\n", (int)(nl - line), line);
			if (*nl == '\0')
				break;
		}
		buf_clear(&m->out);
	}
	fflush(stdout);
}

static void
fleet_setup(struct fleet *f, const struct opts *o)
{
	f->known_hosts = o->known_hosts;
	f->identity = o->identity;
	f->self = self_path;
	if (o->max_parallel > 0)
		f->max_parallel = o->max_parallel;
}

/*
 * What push, rollback and releases begin with: deploy.yaml, and the hosts
 * of the site named by the first operand, no session open yet. The spec,
 * or NULL after saying why (f then holds nothing).
 */
static struct spec *
fleet_start(const struct opts *o, struct fleet *f, struct diag *d)
{
	struct spec *s;

	memset(f, 0, sizeof(*f));
	if ((s = dc_load(o, d, 0)) == NULL)
		return NULL;
	if (fleet_init(f, s, o->pos[0], d) == -1) {
		free(f->m);
		f->m = NULL;
		spec_free(s);
		return NULL;
	}
	fleet_setup(f, o);
	return s;
}

/* Every host that switched goes back to its previous release; says so. */
static void
put_back(struct fleet *f, const char *why, const char *id)
{
	struct buf line = BUF_INIT;
	size_t i;

	fleet_each(f, 0, step_back);
	for (i = 0; i < f->n; i++) {
		struct fleet_member *m = &f->m[i];

		buf_clear(&line);
		if (m->now[0] != '\0') {
			if (f->n > 1)
				printf("host %s: ", m->host->label);
			printf("%s: back to %s\n", why, m->now);
			buf_printf(&line, "failed %s (back to %s)", id, m->now);
		} else
			buf_printf(&line, "failed %s", id);
		record_push(m->host, m->site, line.ptr);
	}
	buf_release(&line);
}

/* Where push builds an ssg site folder: in its cache, beside its own
 * output (relative to the site folder). */
#define PUSH_BUILD_DIR	".ssg-cache/push"

/*
 * The site's nginx sends a page's .gz beside it as it is (gzip_static);
 * without one it compresses the page again for every reader, at about
 * twice the CPU per request (deploy bench shows it). Said, not refused.
 */
static void
precompress_note(const char *tree, const char *site)
{
	struct buf p = BUF_INIT;
	struct stat sb;

	buf_printf(&p, "%s/index.html", tree);
	if (stat(p.ptr, &sb) == 0) {
		buf_adds(&p, ".gz");
		if (stat(p.ptr, &sb) == -1)
			fprintf(stderr, "deploy push: note: %s has no "
			    "precompressed pages (index.html.gz): nginx will "
			    "compress each page per request; build it with "
			    "precompress_assets: true\n", site);
	}
	buf_release(&p);
}

int
cmd_push(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct fleet f;
	struct job job;
	const struct spec_site *site;
	struct buf msg = BUF_INIT, line = BUF_INIT;
	char id[RELEASE_ID_MAX];
	char *repo = NULL, *builtin = NULL, *capsule = NULL;
	const char *tree;
#ifdef HAVE_LIBSSG
	struct build_stats bst;
#endif
	size_t i, bad;
	long long first = 0, last = 0;
	int rc = 1;

	PARSE("push", 1, "nakiMC");
	if (o.npos != 1)
		return dc_usage_of("push", EXIT_USAGE);
	d = diag_new();
	if ((s = fleet_start(&o, &f, d)) == NULL)
		return dc_report(d, 1);
	if (o.canary != NULL && fleet_member(&f, o.canary) == NULL) {
		diag_error(d, o.file, 0, "--canary %s: no such host has site %s",
		    o.canary, o.pos[0]);
		goto out;
	}
	site = f.m[0].site;
	tree = site->source;
	if (!site->source_built && !o.no_build) {
#ifdef HAVE_LIBSSG
		struct build_opts bo;
		/* served, each compressible file is best sent as it is
		 * (gzip_static): on unless site.yaml says otherwise */
		static const char *const defaults[] = {
			"precompress_assets=true", NULL };
		/* built beside the site's own output, not over it: an
		 * `ssg build` between two pushes (precompression off) would
		 * otherwise drop every .gz and .br, and each push compress
		 * the whole site again */
		static const char *const set[] = {
			"gemini_output_dir=" PUSH_BUILD_DIR "/capsule", NULL };

		/* An ssg site: build it first; its output is the release. */
		memset(&bo, 0, sizeof(bo));
		bo.site_dir = site->source;
		bo.defaults = defaults;
		bo.set = set;
		bo.output_dir = PUSH_BUILD_DIR "/output";
		bo.themes_builtin = builtin = theme_builtin_dir(self_path[0] ?
		    self_path : argv[0]);
		if (ssg_build(&bo, &bst, d) == -1)
			goto out;
		printf("built %s: %zu posts, %zu pages, %zu files written\n",
		    bst.output, bst.posts, bst.pages, bst.written);
		tree = bst.output;
		if (site->gemini && bst.capsule[0] == '\0') {
			diag_error(d, s->file, site->gemini_line, "site %s: "
			    "gemini: the site's site.yaml does not set "
			    "gemini: true, so it has no capsule", site->name);
			goto out;
		}
		if (site->gemini)
			capsule = xstrdup(bst.capsule);
#else
		diag_error(d, s->file, site->source_line, "source %s is an ssg "
		    "site folder and this deploy was built without libssg: "
		    "build it (ssg build) and point source at the output, or "
		    "push it as it is with --no-build", site->source);
		goto out;
#endif
	}
	/* A built tree: ssg writes the capsule beside the HTML folder. */
	if (site->gemini && capsule == NULL)
		capsule = path_join(tree, "../capsule");
	precompress_note(tree, site->name);
	repo = repo_dir(s, site);
	release_message(&msg, site->source, VERSION);
	if (release_commit_capsule(repo, tree, capsule, msg.ptr, id, d) == -1)
		goto out;
	printf("release %s\n", id);
	memset(&job, 0, sizeof(job));
	job.o = &o;
	job.repo = repo;
	job.id = id;
	the_job = &job;

	/* Phase 1: every host stages; nobody switches unless all did. */
	bad = fleet_each(&f, 1, step_stage);
	print_hosts(&f);
	if (bad > 0) {
		for (i = 0; i < f.n; i++)
			if (f.m[i].failed)
				printf("host %s: not staged\n",
				    f.m[i].host->label);
		printf("nothing switched: %zu of %zu host%s could not stage "
		    "%s\n", bad, f.n, f.n == 1 ? "" : "s", id);
		goto out;
	}
	if (f.n > 1)
		printf("staged on %zu hosts\n", f.n);
	release_test_pause("between-phases");

	/* Phase 2: switch (the canary alone first), then check each host. */
	if (o.canary != NULL) {
		struct fleet_member *c = fleet_member(&f, o.canary);

		if (step_switch(&f, c) == -1 || step_settle(&f, c) == -1) {
			c->failed = 1;
			print_hosts(&f);
			put_back(&f, "canary failed", id);
			goto out;
		}
		print_hosts(&f);
	}
	bad = fleet_each(&f, 1, step_switch);
	bad += fleet_each(&f, 1, step_settle);
	print_hosts(&f);
	for (i = 0; i < f.n; i++) {
		if (!f.m[i].switched)
			continue;
		if (first == 0 || f.m[i].switched_ms < first)
			first = f.m[i].switched_ms;
		if (f.m[i].switched_ms > last)
			last = f.m[i].switched_ms;
	}
	if (bad > 0) {
		put_back(&f, "health check failed", id);
		goto out;
	}
	if (f.n > 1)
		printf("switched %zu hosts within %lld ms\n", f.n, last - first);
	if (fleet_each(&f, 1, step_prune) > 0) {
		print_hosts(&f);
		goto out;
	}
	print_hosts(&f);
	buf_printf(&line, "ok %s", id);
	for (i = 0; i < f.n; i++)
		record_push(f.m[i].host, f.m[i].site, line.ptr);
	rc = 0;
out:
	if (f.m != NULL && fleet_close(&f, d) == -1)
		rc = 1;
	free(repo);
	free(builtin);
	free(capsule);
	buf_release(&msg);
	buf_release(&line);
	spec_free(s);
	return dc_report(d, rc);
}

/* rollback, one host: the release before its current one (or the one
 * named) is verified and switched to. */
static int
step_rollback(struct fleet *f, struct fleet_member *m)
{
	if (fleet_open_member(f, m) == -1 ||
	    release_rollback(m->t, the_job->id, m->now, m->d) == -1)
		return -1;
	return 0;
}

static int
step_settle_now(struct fleet *f, struct fleet_member *m)
{
	(void)f;
	return settle(m->host, m->site, m->now, the_job->o, &m->out, m->d);
}

/* The release to roll back to on one host, into m->prev. */
static int
step_before(struct fleet *f, struct fleet_member *m)
{
	struct release_info *list = NULL;
	size_t n = 0, i, k;

	if (fleet_open_member(f, m) == -1 ||
	    release_list(m->t, &list, &n, m->d) == -1)
		return -1;
	/* as the host's agent picks it: the one that served before when
	 * it is older (the list is oldest first), else the newest older */
	for (i = 0; i < n && !list[i].current; i++)
		;
	for (k = 0; k < i && !list[k].previous; k++)
		;
	if (k < i)
		snprintf(m->prev, sizeof(m->prev), "%s", list[k].id);
	else if (i < n && i > 0)
		snprintf(m->prev, sizeof(m->prev), "%s", list[i - 1].id);
	free(list);
	transport_close(m->t, m->d);
	m->t = NULL;
	if (m->prev[0] == '\0') {
		diag_error(m->d, NULL, 0, "no release before the current one");
		return -1;
	}
	return 0;
}

int
cmd_rollback(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct fleet f;
	struct job job;
	size_t i;
	int rc = 1;

	PARSE("rollback", 2, "akiM");
	if (o.npos < 1)
		return dc_usage_of("rollback", EXIT_USAGE);
	d = diag_new();
	memset(&job, 0, sizeof(job));
	job.o = &o;
	job.id = o.npos > 1 ? o.pos[1] : NULL;
	the_job = &job;
	if ((s = fleet_start(&o, &f, d)) == NULL)
		return dc_report(d, 1);
	/* Without an id, every host must agree on the release to go back to:
	 * a fleet never ends a rollback serving two versions. */
	if (job.id == NULL && f.n > 1) {
		if (fleet_each(&f, 0, step_before) > 0)
			goto out;
		for (i = 1; i < f.n; i++)
			if (strcmp(f.m[i].prev, f.m[0].prev) != 0) {
				diag_error(d, o.file, 0, "the hosts' previous "
				    "releases differ (%s on %s, %s on %s): name "
				    "the release to roll back to", f.m[0].prev,
				    f.m[0].host->label, f.m[i].prev,
				    f.m[i].host->label);
				goto out;
			}
		job.id = f.m[0].prev;
	}
	if (fleet_each(&f, 0, step_rollback) > 0) {
		print_hosts(&f);
		goto out;
	}
	rc = fleet_each(&f, 0, step_settle_now) == 0 ? 0 : 1;
	print_hosts(&f);
	for (i = 0; i < f.n; i++) {
		struct buf line = BUF_INIT;

		if (f.n > 1)
			printf("host %s: ", f.m[i].host->label);
		printf("current: %s\n", f.m[i].now);
		buf_printf(&line, "rollback %s %s", rc == 0 ? "ok" : "failed",
		    f.m[i].now);
		record_push(f.m[i].host, f.m[i].site, line.ptr);
		buf_release(&line);
	}
out:
	if (f.m != NULL && fleet_close(&f, d) == -1)
		rc = 1;
	spec_free(s);
	return dc_report(d, rc);
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
		buf_printf(&m->out, "%s  %s%s%s\n", list[i].id, when,
		    list[i].current ? "  current" : "",
		    list[i].previous ? "  previous" : "");
		if (list[i].current)
			snprintf(m->now, sizeof(m->now), "%s", list[i].id);
	}
	if (n == 0)
		buf_printf(&m->out, "no releases\n");
	free(list);
	return 0;
}

int
cmd_releases(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct fleet f;
	size_t i;
	int rc = 1;

	PARSE("releases", 1, "kiM");
	if (o.npos != 1)
		return dc_usage_of("releases", EXIT_USAGE);
	d = diag_new();
	if ((s = fleet_start(&o, &f, d)) == NULL)
		return dc_report(d, 1);
	if (fleet_each(&f, 0, step_list) > 0) {
		print_hosts(&f);
		goto out;
	}
	print_hosts(&f);
	rc = 0;
	/* Drift: hosts of one site serving different releases. */
	for (i = 1; i < f.n; i++)
		if (strcmp(f.m[i].now, f.m[0].now) != 0) {
			diag_error(d, o.file, 0, "drift: site %s is at %s on %s "
			    "but at %s on %s", o.pos[0], f.m[0].now[0] ?
			    f.m[0].now : "nothing", f.m[0].host->label,
			    f.m[i].now[0] ? f.m[i].now : "nothing",
			    f.m[i].host->label);
			rc = 1;
		}
out:
	if (f.m != NULL && fleet_close(&f, d) == -1)
		rc = 1;
	spec_free(s);
	return dc_report(d, rc);
}

/* status, one host: the release it serves now, into m->now. */
static int
step_current(struct fleet *f, struct fleet_member *m)
{
	struct release_info *list = NULL;
	size_t n = 0, i;

	if (fleet_open_member(f, m) == -1 ||
	    release_list(m->t, &list, &n, m->d) == -1)
		return -1;
	for (i = 0; i < n; i++)
		if (list[i].current)
			snprintf(m->now, sizeof(m->now), "%s", list[i].id);
	free(list);
	return 0;
}

int
dc_fleet_status(const struct opts *o, const struct spec *s, const char *name,
    struct diag *d)
{
	struct fleet f;
	size_t i;
	int rc = 0;

	if (fleet_init(&f, s, name, d) == -1)
		return -1;
	fleet_setup(&f, o);
	fleet_each(&f, 0, step_current);
	for (i = 0; i < f.n; i++) {
		printf("%-12s host %s: ", name, f.m[i].host->label);
		if (f.m[i].failed)
			printf("unreachable\n");
		else
			printf("current %s\n", f.m[i].now[0] ? f.m[i].now :
			    "none (nothing pushed)");
		if (f.m[i].failed)
			rc = -1;
		else if (strcmp(f.m[i].now, f.m[0].now) != 0 && rc == 0)
			rc = 1;
	}
	if (rc == 1)
		diag_error(d, o->file, 0, "drift: the hosts of site %s serve "
		    "different releases", name);
	if (fleet_close(&f, d) == -1)
		rc = -1;
	return rc;
}
