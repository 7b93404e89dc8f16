/* deploy push, rollback and releases: building, sending and switching
 * releases of a site. */

#include <sys/stat.h>

#include <errno.h>
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

static struct transport *
open_site(const struct spec *s, const struct spec_site *site,
    const struct opts *o, struct diag *d)
{
	struct transport_opts to;

	memset(&to, 0, sizeof(to));
	to.host = s->host_str;
	to.known_hosts = o->known_hosts;
	to.identity = o->identity;
	/* Locally the agent is this very program; remotely, deploy in PATH. */
	to.agent = s->host == HOST_LOCAL && self_path[0] ? self_path : NULL;
	to.root = s->releases.root;
	to.site = site->name;
	return transport_open(&to, d);
}

/* The spec, the site the command names and a session with the host;
 * NULL once the problem is told (*s may be loaded all the same). */
static struct transport *
open_named(const struct opts *o, struct spec **s,
    const struct spec_site **site, struct diag *d)
{
	if ((*s = dc_load(o, d, 0)) == NULL ||
	    (*site = dc_named_site(*s, o, d)) == NULL)
		return NULL;
	return open_site(*s, *site, o, d);
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

int
cmd_push(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	const struct spec_site *site;
	struct transport *t = NULL;
	struct buf msg = BUF_INIT, rep = BUF_INIT, line = BUF_INIT;
	char id[RELEASE_ID_MAX], prev[RELEASE_ID_MAX], now[RELEASE_ID_MAX];
	char *repo = NULL, *builtin = NULL;
	const char *tree;
#ifdef HAVE_LIBSSG
	struct build_stats bst;
#endif
	unsigned long long sent, recv;
	size_t pruned;
	int rc = 1;

	PARSE("push", 1, "naki");
	if (o.npos != 1)
		return dc_usage_of("push", EXIT_USAGE);
	d = diag_new();
	if ((s = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	if ((site = dc_named_site(s, &o, d)) == NULL)
		goto out;
	tree = site->source;
	if (!site->source_built && !o.no_build) {
#ifdef HAVE_LIBSSG
		struct build_opts bo;

		/* An ssg site: build it first; its output is the release. */
		memset(&bo, 0, sizeof(bo));
		bo.site_dir = site->source;
		bo.themes_builtin = builtin = theme_builtin_dir(self_path[0] ?
		    self_path : argv[0]);
		if (ssg_build(&bo, &bst, d) == -1)
			goto out;
		printf("built %s: %zu posts, %zu pages, %zu files written\n",
		    bst.output, bst.posts, bst.pages, bst.written);
		tree = bst.output;
#else
		diag_error(d, s->file, site->source_line, "source %s is an ssg "
		    "site folder and this deploy was built without libssg: "
		    "build it (ssg build) and point source at the output, or "
		    "push it as it is with --no-build", site->source);
		goto out;
#endif
	}
	repo = repo_dir(s, site);
	release_message(&msg, site->source, VERSION);
	if (release_commit(repo, tree, msg.ptr, id, d) == -1)
		goto out;
	printf("release %s\n", id);
	if ((t = open_site(s, site, &o, d)) == NULL ||
	    release_send(t, repo, id, d) == -1)
		goto out;
	transport_bytes(t, &sent, &recv);
	printf("sent %llu bytes to %s\n", sent, transport_name(t));
	if (release_activate(t, id, prev, d) == -1)
		goto out;
	if (settle(s, site, id, &o, &rep, d) == -1) {
		fputs(rep.ptr, stdout);
		if (prev[0] != '\0' && release_rollback(t, prev, now, d) == 0) {
			settle(s, site, now, &o, &rep, d);
			printf("health check failed: back to %s\n", now);
			buf_printf(&line, "failed %s (back to %s)", id, now);
		} else
			buf_printf(&line, "failed %s", id);
		record_push(s, site, line.ptr);
		goto out;
	}
	fputs(rep.ptr, stdout);
	if (release_prune(t, s->releases.keep, &pruned, d) == -1)
		goto out;
	printf("live: %s%s%s (pruned %zu)\n", id, prev[0] ? ", previous " : "",
	    prev, pruned);
	buf_printf(&line, "ok %s", id);
	record_push(s, site, line.ptr);
	rc = 0;
out:
	if (transport_close(t, d) == -1)
		rc = 1;
	free(repo);
	free(builtin);
	buf_release(&msg);
	buf_release(&rep);
	buf_release(&line);
	spec_free(s);
	return dc_report(d, rc);
}

int
cmd_rollback(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	const struct spec_site *site;
	struct transport *t = NULL;
	struct buf rep = BUF_INIT, line = BUF_INIT;
	char now[RELEASE_ID_MAX];
	int rc = 1;

	PARSE("rollback", 2, "aki");
	if (o.npos < 1)
		return dc_usage_of("rollback", EXIT_USAGE);
	d = diag_new();
	if ((t = open_named(&o, &s, &site, d)) == NULL ||
	    release_rollback(t, o.npos > 1 ? o.pos[1] : NULL, now, d) == -1)
		goto out;
	rc = settle(s, site, now, &o, &rep, d) == 0 ? 0 : 1;
	fputs(rep.ptr, stdout);
	printf("current: %s\n", now);
	buf_printf(&line, "rollback %s %s", rc == 0 ? "ok" : "failed", now);
	record_push(s, site, line.ptr);
out:
	if (transport_close(t, d) == -1)
		rc = 1;
	buf_release(&rep);
	buf_release(&line);
	spec_free(s);
	return dc_report(d, rc);
}

int
cmd_releases(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	const struct spec_site *site;
	struct transport *t = NULL;
	struct release_info *list = NULL;
	size_t n = 0, i;
	int rc = 1;

	PARSE("releases", 1, "ki");
	if (o.npos != 1)
		return dc_usage_of("releases", EXIT_USAGE);
	d = diag_new();
	if ((t = open_named(&o, &s, &site, d)) == NULL ||
	    release_list(t, &list, &n, d) == -1)
		goto out;
	for (i = 0; i < n; i++) {
		char when[32];
		time_t tt = (time_t)list[i].time;
		struct tm tm;

		gmtime_r(&tt, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		printf("%s  %s%s%s\n", list[i].id, when,
		    list[i].current ? "  current" : "",
		    list[i].previous ? "  previous" : "");
	}
	if (n == 0)
		printf("no releases\n");
	rc = 0;
out:
	if (transport_close(t, d) == -1)
		rc = 1;
	free(list);
	spec_free(s);
	return dc_report(d, rc);
}
