/*
 * deploy: puts built sites on a jail host. Only this file exits.
 */
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "agent.h"
#include "bench.h"
#include "buf.h"
#ifdef HAVE_LIBSSG
#include "build.h"
#endif
#include "diag.h"
#include "driver.h"
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

#define VERSION "0.1"

#define EXIT_USAGE 2

struct cmd {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*usage;
	const char	*help;
};

static const struct cmd *find_cmd(const char *);
static int usage_of(const char *name, int rc);

/* Common options: -c FILE (deploy.yaml), -f, -h; the rest positional. */
struct opts {
	const char	*file;
	int		 force;
	int		 quick;
	int		 json;
	const char	*expect;
	const char	*cacert;
	const char	*out;
	const char	*compare;
	int		 no_build;
	const char	*known_hosts;
	const char	*identity;
	const char	*platform;	/* overrides deploy.yaml's */
	char		*pos[4];
	int		 npos;
};

static int
parse_opts(const char *cmd, int argc, char **argv, struct opts *o, int maxpos,
    const char *allowed)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->file = "deploy.yaml";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage_of(cmd, 0);
			return 1;
		}
		if ((strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) &&
		    i + 1 < argc)
			o->file = argv[++i];
		else if (strchr(allowed, 'f') && (strcmp(a, "-f") == 0 ||
		    strcmp(a, "--force") == 0))
			o->force = 1;
		else if (strchr(allowed, 'q') && strcmp(a, "--quick") == 0)
			o->quick = 1;
		else if (strchr(allowed, 'j') && strcmp(a, "--json") == 0)
			o->json = 1;
		else if (strchr(allowed, 'e') && strcmp(a, "--expect") == 0 &&
		    i + 1 < argc)
			o->expect = argv[++i];
		else if (strchr(allowed, 'a') && strcmp(a, "--cacert") == 0 &&
		    i + 1 < argc)
			o->cacert = argv[++i];
		else if (strchr(allowed, 'o') && strcmp(a, "--out") == 0 &&
		    i + 1 < argc)
			o->out = argv[++i];
		else if (strchr(allowed, 'p') && strcmp(a, "--compare") == 0 &&
		    i + 1 < argc)
			o->compare = argv[++i];
		else if (strchr(allowed, 'n') && strcmp(a, "--no-build") == 0)
			o->no_build = 1;
		else if (strchr(allowed, 'k') && strcmp(a, "--known-hosts") ==
		    0 && i + 1 < argc)
			o->known_hosts = argv[++i];
		else if (strchr(allowed, 'i') && strcmp(a, "--identity") == 0 &&
		    i + 1 < argc)
			o->identity = argv[++i];
		else if (strchr(allowed, 'P') && strcmp(a, "--platform") == 0 &&
		    i + 1 < argc)
			o->platform = argv[++i];
		else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "deploy %s: unknown option %s\n", cmd, a);
			usage_of(cmd, EXIT_USAGE);
			return -1;
		} else if (o->npos < maxpos)
			o->pos[o->npos++] = argv[i];
		else {
			fprintf(stderr, "deploy %s: too many arguments\n", cmd);
			usage_of(cmd, EXIT_USAGE);
			return -1;
		}
	}
	return 0;
}

#define PARSE(cmd, maxpos, allowed)					\
	do {								\
		int r_ = parse_opts(cmd, argc, argv, &o, maxpos, allowed); \
		if (r_ == 1)						\
			return 0;					\
		if (r_ == -1)						\
			return EXIT_USAGE;				\
	} while (0)

static int
report(struct diag *d, int rc)
{
	diag_print(d, 0, stderr, isatty(2));
	diag_free(d);
	return rc;
}

/* Loads and checks the spec (also against the host when host is set). */
static struct spec *
load(const struct opts *o, struct diag *d, int host)
{
	struct spec *s = spec_load(o->file, d);

	if (s != NULL) {
		s->ssh_known_hosts = o->known_hosts;
		s->ssh_identity = o->identity;
	}

	if (s != NULL && host && s->host == HOST_LOCAL &&
	    spec_check_host(s, d) == -1) {
		spec_free(s);
		return NULL;
	}
	return s;
}

/* The site named by the first operand, or NULL after saying so. */
static const struct spec_site *
named_site(const struct spec *s, const struct opts *o, struct diag *d)
{
	const struct spec_site *site = spec_site(s, o->pos[0]);

	if (site == NULL)
		diag_error(d, o->file, 0, "unknown site '%s'", o->pos[0]);
	return site;
}

static int
cmd_check(int argc, char **argv)
{
	struct opts o;
	struct diag *d = diag_new();
	struct spec *s;

	PARSE("check", 0, "");
	if ((s = load(&o, d, 1)) == NULL)
		return report(d, 1);
	printf("%s: ok (%zu site%s, platform %s)\n", o.file, s->nsites,
	    s->nsites == 1 ? "" : "s", s->platform == PLATFORM_LINUX_NETNS ?
	    "linux-netns" : s->platform == PLATFORM_FREEBSD_BASTILLE ?
	    "freebsd-bastille" : "freebsd-jail");
	spec_free(s);
	return report(d, 0);
}

/* Observe, plan; then print (plan) or carry out (apply). */
/* --platform: the same spec on another kind of host. */
static int
set_platform(struct spec *s, const char *name, struct diag *d)
{
	if (strcmp(name, "linux-netns") == 0)
		s->platform = PLATFORM_LINUX_NETNS;
	else if (strcmp(name, "freebsd-bastille") == 0)
		s->platform = PLATFORM_FREEBSD_BASTILLE;
	else if (strcmp(name, "freebsd-jail") == 0)
		s->platform = PLATFORM_FREEBSD_JAIL;
	else {
		diag_error(d, "--platform", 0, "unknown platform '%s' (linux-netns, "
		    "freebsd-bastille or freebsd-jail)", name);
		return -1;
	}
	return 0;
}

static int
plan_and_maybe_apply(const char *cmd, const struct opts *o, int apply,
    enum plan_mode mode, const char *site)
{
	struct diag *d = diag_new();
	struct spec *s;
	struct driver *drv = NULL;
	struct observed obs;
	struct plan p;
	int rc = 1;

	memset(&obs, 0, sizeof(obs));
	memset(&p, 0, sizeof(p));
	/* Removing needs no host check: the subnet is ours already. */
	if ((s = load(o, d, mode == PLAN_APPLY)) == NULL)
		return report(d, 1);
	if (site != NULL && spec_site(s, site) == NULL) {
		diag_error(d, o->file, 0, "unknown site '%s'", site);
		goto out;
	}
	if (o->platform != NULL && set_platform(s, o->platform, d) == -1)
		goto out;
	if ((drv = driver_open(s, d)) == NULL)
		goto out;
	if (drv->ops->observe(drv, &obs, d) == -1 ||
	    plan_build(&p, drv, &obs, mode, site, d) == -1)
		goto out;
	if (p.n == 0) {
		printf("nothing to do\n");
		rc = 0;
		goto out;
	}
	if (!apply && s->platform != PLATFORM_LINUX_NETNS) {
		/* FreeBSD: the exact script apply would run, to read first */
		struct buf script = BUF_INIT;

		if (freebsd_plan_script(drv, &p, &script, d) == 0) {
			fputs(script.ptr, stdout);
			rc = 0;
		}
		buf_release(&script);
		goto out;
	}
	if (!apply) {
		printf("%zu action%s:\n", p.n, p.n == 1 ? "" : "s");
		plan_print(&p, stdout);
		rc = 0;
		goto out;
	}
	if (mode != PLAN_APPLY && !o->force) {
		char line[16];

		printf("%s will do:\n", cmd);
		plan_print(&p, stdout);
		printf("This removes the jails%s and their releases. "
		    "Continue? [y/N] ", site ? " of the site" : "");
		fflush(stdout);
		if (fgets(line, sizeof(line), stdin) == NULL ||
		    (line[0] != 'y' && line[0] != 'Y')) {
			printf("nothing changed\n");
			rc = 1;
			goto out;
		}
	}
	if (plan_apply(&p, drv, stdout, d) == 0) {
		printf("done: %zu action%s\n", p.n, p.n == 1 ? "" : "s");
		rc = 0;
	}
out:
	plan_release(&p);
	observed_release(&obs);
	driver_free(drv);
	spec_free(s);
	return report(d, rc);
}

static int
cmd_plan(int argc, char **argv)
{
	struct opts o;

	PARSE("plan", 0, "Pki");
	return plan_and_maybe_apply("plan", &o, 0, PLAN_APPLY, NULL);
}

static int
cmd_apply(int argc, char **argv)
{
	struct opts o;

	PARSE("apply", 0, "ki");
	return plan_and_maybe_apply("apply", &o, 1, PLAN_APPLY, NULL);
}

static int
cmd_destroy(int argc, char **argv)
{
	struct opts o;

	PARSE("destroy", 1, "fki");
	return plan_and_maybe_apply("destroy", &o, 1, o.npos ?
	    PLAN_DESTROY_SITE : PLAN_DESTROY_ALL, o.npos ? o.pos[0] : NULL);
}

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
		snprintf(out, n, "%lds", s);
	else if (s < 7200)
		snprintf(out, n, "%ldm", s / 60);
	else if (s < 172800)
		snprintf(out, n, "%ldh", s / 3600);
	else
		snprintf(out, n, "%ldd", s / 86400);
}

static int
cmd_status(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct driver *drv = NULL;
	struct observed obs;
	size_t i;
	int rc = 1;

	PARSE("status", 1, "aki");
	d = diag_new();
	memset(&obs, 0, sizeof(obs));
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if (o.npos && named_site(s, &o, d) == NULL)
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
		struct health_opts ho = { o.cacert, NULL, 5 };
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
		if (ho.ca == NULL)
			ho.ca = drv->ops->proxy_ca(drv);
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
			printf("%-12s certificate expires %s\n", "", buf);
		}
		diag_free(hd);
		buf_release(&rep);
	}
	rc = 0;
out:
	observed_release(&obs);
	driver_free(drv);
	spec_free(s);
	return report(d, rc);
}

static int
cmd_health(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct driver *drv = NULL;
	size_t i;
	int rc = 0, found = 0;

	PARSE("health", 1, "ea");
	d = diag_new();
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if (o.cacert == NULL && (drv = driver_open(s, d)) == NULL) {
		spec_free(s);
		return report(d, 1);
	}
	for (i = 0; i < s->nsites; i++) {
		struct health_opts ho = { o.cacert, o.expect, 10 };
		struct health_result hr;
		struct buf rep = BUF_INIT;

		if (o.npos && strcmp(o.pos[0], s->sites[i].name) != 0)
			continue;
		found = 1;
		if (ho.ca == NULL)
			ho.ca = drv->ops->proxy_ca(drv);
		if (health_check(s, &s->sites[i], &ho, &hr, &rep, d) == -1)
			rc = 1;
		printf("%s:\n%s", s->sites[i].name, rep.ptr);
		buf_release(&rep);
	}
	if (!found) {
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
		rc = 1;
	}
	driver_free(drv);
	spec_free(s);
	return report(d, rc);
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

static int
cmd_logs(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct driver *drv;
	char *path;

	PARSE("logs", 1, "ki");
	if (o.npos != 1)
		return usage_of("logs", EXIT_USAGE);
	d = diag_new();
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if (strcmp(o.pos[0], "proxy") != 0 && named_site(s, &o, d) == NULL) {
		spec_free(s);
		return report(d, 1);
	}
	if ((drv = driver_open(s, d)) == NULL) {
		spec_free(s);
		return report(d, 1);
	}
	path = drv->ops->log_path(drv, o.pos[0]);
	tail(path, 40);
	if (strstr(path, "error.log") != NULL) {
		strcpy(strstr(path, "error.log"), "access.log");
		tail(path, 40);
	}
	free(path);
	driver_free(drv);
	spec_free(s);
	return report(d, 0);
}

/* ---- releases: push, rollback, releases, agent ---- */

static char self_path[PATH_MAX];

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

static int
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
		return usage_of("push", EXIT_USAGE);
	d = diag_new();
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if ((site = named_site(s, &o, d)) == NULL)
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
	return report(d, rc);
}

static int
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
		return usage_of("rollback", EXIT_USAGE);
	d = diag_new();
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if ((site = named_site(s, &o, d)) == NULL)
		goto out;
	if ((t = open_site(s, site, &o, d)) == NULL ||
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
	return report(d, rc);
}

static int
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
		return usage_of("releases", EXIT_USAGE);
	d = diag_new();
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if ((site = named_site(s, &o, d)) == NULL)
		goto out;
	if ((t = open_site(s, site, &o, d)) == NULL ||
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
	return report(d, rc);
}

static int
cmd_agent_wrap(int argc, char **argv)
{
	return cmd_agent(argc, argv);
}

static int
write_out(const char *path, const struct buf *b, struct diag *d)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL || fwrite(b->ptr, 1, b->len, fp) != b->len) {
		diag_error(d, path, 0, "%s", strerror(errno));
		if (fp != NULL)
			fclose(fp);
		return -1;
	}
	return fclose(fp) == 0 ? 0 : -1;
}

static int
cmd_bench(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct driver *drv = NULL;
	struct bench_opts bo;
	struct bench_result r = { NULL, 0 };
	struct buf b = BUF_INIT, path = BUF_INIT;
	int rc = 1;

	PARSE("bench", 1, "qop");
	d = diag_new();
	if ((s = load(&o, d, 0)) == NULL)
		return report(d, 1);
	if (o.npos && named_site(s, &o, d) == NULL)
		goto out;
	if ((drv = driver_open(s, d)) == NULL)
		goto out;
	bo.quick = o.quick;
	bo.compare = o.compare;
	if (bench_run(drv, o.npos ? o.pos[0] : NULL, &bo, &r, d) == -1 &&
	    r.n == 0)
		goto out;
	bench_table(&r, &b);
	fputs(b.ptr, stdout);
	buf_clear(&b);
	bench_json(&r, &b);
	buf_printf(&path, "%s.json", o.out ? o.out : "bench");
	if (write_out(path.ptr, &b, d) == -1)
		goto out;
	buf_clear(&b);
	bench_svg(&r, &b);
	buf_clear(&path);
	buf_printf(&path, "%s.svg", o.out ? o.out : "bench");
	if (write_out(path.ptr, &b, d) == -1)
		goto out;
	printf("wrote %s.json and %s.svg\n", o.out ? o.out : "bench",
	    o.out ? o.out : "bench");
	rc = diag_count(d, DIAG_ERROR) ? 1 : 0;
out:
	bench_release(&r);
	buf_release(&b);
	buf_release(&path);
	driver_free(drv);
	spec_free(s);
	return report(d, rc);
}

static int cmd_help(int, char **);

static const struct cmd cmds[] = {
	{ "check", cmd_check, "check [-c FILE]",
	  "Read deploy.yaml and check it, also against the host's addresses." },
	{ "plan", cmd_plan, "plan [-c FILE] [--platform NAME] [--known-hosts F] "
	  "[--identity F]",
	  "Print the actions that would bring the host to deploy.yaml; on "
	  "FreeBSD (freebsd-bastille, freebsd-jail) the exact sh script "
	  "apply would run." },
	{ "apply", cmd_apply, "apply [-c FILE] [--known-hosts F] [--identity F]",
	  "Carry the plan out; says \"nothing to do\" when there is none." },
	{ "destroy", cmd_destroy, "destroy [-c FILE] [-f] [--known-hosts F] "
	  "[--identity F] [SITE]",
	  "Remove one site (jail, config, releases) or everything; asks "
	  "unless -f." },
	{ "status", cmd_status, "status [-c FILE] [--cacert FILE] "
	  "[--known-hosts F] [--identity F] [SITE]",
	  "Jails, servers, current release and its age, health, "
	  "certificate expiry." },
	{ "health", cmd_health, "health [-c FILE] [--expect ID] "
	  "[--cacert FILE] [SITE]",
	  "Fetch every domain through the proxy over TLS: 200 and the "
	  "release id." },
	{ "logs", cmd_logs, "logs [-c FILE] [--known-hosts F] [--identity F] "
	  "SITE|proxy",
	  "Show the end of the server logs of a jail." },
	{ "push", cmd_push, "push [-c FILE] [--no-build] [--cacert FILE] "
	  "[--known-hosts F] [--identity F] SITE",
	  "Build the site (an ssg folder; --no-build pushes it as it is), "
	  "commit, send, switch, check health; on failure put the previous "
	  "release back." },
	{ "rollback", cmd_rollback, "rollback [-c FILE] [--cacert FILE] "
	  "SITE [ID]",
	  "Switch back to the release before the current one, or to ID." },
	{ "releases", cmd_releases, "releases [-c FILE] SITE",
	  "List the releases on the host, oldest first." },
	{ "agent", cmd_agent_wrap, "agent --root DIR --site NAME VERB",
	  "Host side of push (started by deploy itself, locally or over "
	  "ssh)." },
	{ "bench", cmd_bench, "bench [-c FILE] [--quick] [--out NAME] "
	  "[--compare OLD.json] [SITE]",
	  "wrk through the proxy and straight at the site jail, and at an "
	  "nginx with the distribution's stock settings serving the same "
	  "release for comparison; writes NAME.json and NAME.svg (NAME: "
	  "bench)." },
	{ "help", cmd_help, "help [COMMAND]", "Describe the commands." },
	{ NULL, NULL, NULL, NULL }
};

static const struct cmd *
find_cmd(const char *name)
{
	size_t i;

	for (i = 0; cmds[i].name != NULL; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

static int
usage_of(const char *name, int rc)
{
	const struct cmd *c = find_cmd(name);
	FILE *fp = rc ? stderr : stdout;

	if (c == NULL)
		return rc;
	fprintf(fp, "usage: deploy %s\n  %s\n", c->usage, c->help);
	return rc;
}

static void
usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: deploy COMMAND [options]\n\ncommands:\n");
	for (i = 0; cmds[i].name != NULL; i++)
		fprintf(fp, "  %-52s\n      %s\n", cmds[i].usage, cmds[i].help);
	fprintf(fp, "\nOptions: -c FILE reads FILE instead of ./deploy.yaml; "
	    "every command takes --help.\n");
}

static int
cmd_help(int argc, char **argv)
{
	if (argc > 1 && find_cmd(argv[1]) != NULL)
		return usage_of(argv[1], 0);
	usage(stdout);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct cmd *c;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if ((c = find_cmd(argv[1])) == NULL) {
		fprintf(stderr, "deploy: unknown command '%s'\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	/* A local push starts this same program as its agent. */
	if (realpath("/proc/self/exe", self_path) == NULL &&
	    realpath(argv[0], self_path) == NULL)
		self_path[0] = '\0';
	if (strcmp(c->name, "agent") == 0) {
		if (argc > 2 && (strcmp(argv[2], "--help") == 0 ||
		    strcmp(argv[2], "-h") == 0))
			return usage_of("agent", 0);
		return c->fn(argc - 1, argv + 1);
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = c->fn(argc - 1, argv + 1);
	curl_global_cleanup();
	return rc;
}
