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
#include "confgen.h"
#ifdef HAVE_LIBSSG
#include "build.h"
#endif
#include "diag.h"
#include "driver.h"
#include "fleet.h"
#include "fsutil.h"
#include "health.h"
#include "mem.h"
#include "plan.h"
#include "release.h"
#include "spec.h"
#ifdef HAVE_LIBSSG
#include "theme.h"
#endif
#include "transport.h"
#include "cmd_int.h"

struct cmd {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*usage;
	const char	*help;
};

static const struct cmd *find_cmd(const char *);

char self_path[PATH_MAX];

/* The value of a count option OPT, LO to HI; -1 after saying so. */
static int
count_arg(const char *cmd, const char *opt, const char *text, int lo, int hi)
{
	char *end;
	long n = strtol(text, &end, 10);

	if (*end != '\0' || n < lo || n > hi) {
		fprintf(stderr, "deploy %s: %s takes %d to %d\n", cmd, opt,
		    lo, hi);
		return -1;
	}
	return (int)n;
}

int
dc_parse_opts(const char *cmd, int argc, char **argv, struct opts *o, int maxpos,
    const char *allowed)
{
	int i;

	memset(o, 0, sizeof(*o));
	/* On a host, for its controller: the controller's file, for messages. */
	o->file = dc_on_host.name != NULL ? dc_on_host.name : "deploy.yaml";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			dc_usage_of(cmd, 0);
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
		else if (strchr(allowed, 's') && strcmp(a, "--seconds") == 0 &&
		    i + 1 < argc) {
			if ((o->seconds = count_arg(cmd, a, argv[++i], 1,
			    BENCH_MAX_SECONDS)) == -1)
				return -1;
		} else if (strchr(allowed, 'x') && strcmp(a, "--proxy-only") == 0)
			o->proxy_only = 1;
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
		else if (strchr(allowed, 'M') && strcmp(a, "--max-parallel") ==
		    0 && i + 1 < argc) {
			if ((o->max_parallel = count_arg(cmd, a, argv[++i], 1,
			    64)) == -1)
				return -1;
		} else if (strchr(allowed, 'C') && strcmp(a, "--canary") == 0 &&
		    i + 1 < argc)
			o->canary = argv[++i];
		else if (strchr(allowed, 'H') && strcmp(a, "--host") == 0 &&
		    i + 1 < argc)
			o->only_host = argv[++i];
		else if (strchr(allowed, 'W') && i + 1 < argc &&
		    (strcmp(a, "--interval") == 0 || strcmp(a, "--fall") == 0 ||
		    strcmp(a, "--rise") == 0 || strcmp(a, "--rounds") == 0)) {
			int v = count_arg(cmd, a, argv[++i], 1,
			    strcmp(a, "--interval") == 0 ? 86400 : 1000000);

			if (v == -1)
				return -1;
			if (strcmp(a, "--interval") == 0)
				o->interval = v;
			else if (strcmp(a, "--fall") == 0)
				o->fall = v;
			else if (strcmp(a, "--rise") == 0)
				o->rise = v;
			else
				o->rounds = v;
		} else if (strchr(allowed, 'D') && strcmp(a, "--due") == 0)
			o->due = 1;
		else if (strchr(allowed, 'R') && strcmp(a, "--from") == 0 &&
		    i + 1 < argc) {
			if (o->nfrom == 16) {
				fprintf(stderr, "deploy %s: --from at most 16 "
				    "times\n", cmd);
				return -1;
			}
			o->from[o->nfrom++] = argv[++i];
		} else if (strchr(allowed, 'R') && strcmp(a, "--against") == 0 &&
		    i + 1 < argc)
			o->against = argv[++i];
		else if (strchr(allowed, 'R') && strcmp(a, "--against-ssh") ==
		    0 && i + 1 < argc)
			o->against_ssh = argv[++i];
		else if (strchr(allowed, 'R') && strcmp(a, "--connections") ==
		    0 && i + 1 < argc)
			o->connections = argv[++i];
		else if (strchr(allowed, 'R') && strcmp(a, "--duration") == 0 &&
		    i + 1 < argc) {
			if ((o->duration = count_arg(cmd, a, argv[++i], 1,
			    BENCH_MAX_SECONDS)) == -1)
				return -1;
		} else if (strchr(allowed, 'R') && strcmp(a, "--rounds") == 0 &&
		    i + 1 < argc) {
			if ((o->rounds = count_arg(cmd, a, argv[++i], 1,
			    9)) == -1)
				return -1;
		} else if (strchr(allowed, 'N') && (strcmp(a, "-n") == 0 ||
		    strcmp(a, "--dry-run") == 0))
			o->dry_run = 1;
		else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "deploy %s: unknown option %s\n", cmd, a);
			dc_usage_of(cmd, EXIT_USAGE);
			return -1;
		} else if (o->npos < maxpos)
			o->pos[o->npos++] = argv[i];
		else {
			fprintf(stderr, "deploy %s: too many arguments\n", cmd);
			dc_usage_of(cmd, EXIT_USAGE);
			return -1;
		}
	}
	return 0;
}

int
dc_report(struct diag *d, int rc)
{
	diag_print(d, 0, stderr, isatty(2));
	diag_free(d);
	return rc;
}

struct spec *
dc_host(const struct spec *s, const struct opts *o)
{
	const char *label = o->only_host ? o->only_host : dc_on_host.label;
	size_t i;

	for (i = 0; label != NULL && i < s->nhosts; i++)
		if (strcmp(s->hosts[i]->label, label) == 0)
			return s->hosts[i];
	return s->hosts[0];
}

/* Loads and checks the spec (also against the host when host is set). */
struct spec *
dc_load(const struct opts *o, struct diag *d, int host)
{
	const char *label = o->only_host ? o->only_host : dc_on_host.label;
	struct spec *s, *h;
	struct diag *scratch = NULL;
	size_t i;

	if (dc_on_host.name != NULL) {
		/* The controller has said what it had to say about the file
		 * (warnings about its sources, say): only errors count here. */
		scratch = diag_new();
		s = spec_parse(dc_on_host.name, dc_on_host.text, dc_on_host.len,
		    scratch);
		if (s == NULL)
			diag_print(scratch, 0, stderr, 0);
		diag_free(scratch);
	} else
		s = spec_load(o->file, d);
	if (s == NULL)
		return NULL;
	for (i = 0; i < s->nhosts; i++) {
		s->hosts[i]->ssh_known_hosts = o->known_hosts;
		s->hosts[i]->ssh_identity = o->identity;
	}
	for (i = 0; label != NULL && i < s->nhosts; i++)
		if (strcmp(s->hosts[i]->label, label) == 0)
			break;
	if (label != NULL && i == s->nhosts) {
		diag_error(d, o->file, 0, "no host named '%s' in hosts", label);
		spec_free(s);
		return NULL;
	}
	h = dc_host(s, o);
	/* The agent runs on the host it was sent to: that is this machine. */
	if (dc_on_host.label != NULL)
		h->host = HOST_LOCAL;
	if (host && h->host == HOST_LOCAL && spec_check_host(h, d) == -1) {
		spec_free(s);
		return NULL;
	}
	return s;
}

/* The site named by the first operand, or NULL after saying so. */
const struct spec_site *
dc_named_site(const struct spec *s, const struct opts *o, struct diag *d)
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
	struct buf note = BUF_INIT;

	PARSE("check", 0, "");
	if ((s = dc_load(&o, d, 1)) == NULL)
		return dc_report(d, 1);
	printf("%s: ok (%zu site%s, platform %s)\n", o.file, s->nsites,
	    s->nsites == 1 ? "" : "s", spec_platform_name(s->platform));
	/* what the sites' nginx serves a push's .br files with */
	confgen_compression_note(s, &note);
	fputs(note.ptr, stdout);
	buf_release(&note);
	spec_free(s);
	return dc_report(d, 0);
}

/* Observe, plan; then print (plan) or carry out (apply). */
/* --platform: the same spec on another kind of host. */
static int
set_platform(struct spec *s, const char *name, struct diag *d)
{
	if (spec_platform_parse(name, &s->platform) == -1) {
		diag_error(d, "--platform", 0, "unknown platform '%s' (linux-netns, "
		    "freebsd-bastille or freebsd-jail)", name);
		return -1;
	}
	return 0;
}

/*
 * A fleet: the command on every host (destroy shows every host's plan and
 * asks once, unless -f), each host's plan and outcome under its name.
 */
static int
plan_on_hosts(const char *cmd, const struct opts *o, const struct spec *s,
    const char *site, struct diag *d)
{
	const char *args[6];
	size_t n = 0;
	char line[16];

	if (o->platform != NULL) {
		args[n++] = "--platform";
		args[n++] = o->platform;
	}
	if (strcmp(cmd, "destroy") == 0) {
		if (!o->force && !o->dry_run) {
			args[n++] = "-n";
			if (site != NULL)
				args[n++] = site;
			args[n] = NULL;
			if (dc_on_hosts(cmd, o, s, site, args, d) != 0) {
				printf("nothing changed\n");
				return 1;
			}
			printf("This removes the jails%s and their releases on "
			    "every host above. Continue? [y/N] ", site ?
			    " of the site" : "");
			fflush(stdout);
			if (fgets(line, sizeof(line), stdin) == NULL ||
			    (line[0] != 'y' && line[0] != 'Y')) {
				printf("nothing changed\n");
				return 1;
			}
			n = 0;
		}
		args[n++] = o->dry_run ? "-n" : "-f";
		/* readers sent elsewhere before the host goes */
		if (!o->dry_run && dc_dns_withdraw(o, s, site, d) == -1) {
			printf("nothing changed\n");
			return 1;
		}
	}
	if (site != NULL)
		args[n++] = site;
	args[n] = NULL;
	return dc_on_hosts(cmd, o, s, site, args, d);
}

static int
plan_and_maybe_apply(const char *cmd, const struct opts *o, int apply,
    enum plan_mode mode, const char *site)
{
	struct diag *d = diag_new();
	struct spec *s, *h;
	struct driver *drv = NULL;
	struct observed obs;
	struct plan p;
	size_t i;
	int rc = 1, acme;

	memset(&obs, 0, sizeof(obs));
	memset(&p, 0, sizeof(p));
	/* Removing needs no host check: the subnet is ours already. A fleet
	 * is checked by each host itself. */
	if ((s = dc_load(o, d, mode == PLAN_APPLY)) == NULL)
		return dc_report(d, 1);
	for (i = 0; o->platform != NULL && i < s->nhosts; i++)
		if (set_platform(s->hosts[i], o->platform, d) == -1)
			goto out;
	if (site != NULL && !spec_fleet_has_site(s, site)) {
		diag_error(d, o->file, 0, "unknown site '%s'", site);
		goto out;
	}
	if (dc_fleet_mode(s, o)) {
		rc = plan_on_hosts(cmd, o, s, site, d);
		goto out;
	}
	h = dc_host(s, o);
	if (site != NULL && spec_site(h, site) == NULL) {
		diag_error(d, o->file, 0, "unknown site '%s'", site);
		goto out;
	}
	if ((drv = driver_open(h, d)) == NULL)
		goto out;
	if (drv->ops->observe(drv, &obs, d) == -1 ||
	    plan_build(&p, drv, &obs, mode, site, d) == -1)
		goto out;
	acme = apply && mode == PLAN_APPLY && dc_acme_here(h);
	/* a placeholder certificate until the first one is issued */
	if (acme && dc_acme_prepare(h, d) == -1)
		goto out;
	/* plan: what apply would do for the certificates too */
	if (p.n == 0 && !apply && mode == PLAN_APPLY && dc_acme_here(h) &&
	    dc_acme_preview(h) > 0) {
		rc = 0;
		goto out;
	}
	if (p.n == 0 && acme) {
		int did;

		if (dc_acme_converge(h, drv, &did, d) == 0) {
			rc = 0;
			if (!did)
				printf("nothing to do\n");
		}
		goto out;
	}
	if (p.n == 0) {
		printf("nothing to do\n");
		rc = 0;
		goto out;
	}
	if (!apply && drv->ops->script != NULL) {
		/* the exact script apply would run, to read first */
		struct buf script = BUF_INIT;

		if (drv->ops->script(drv, &p, &script, d) == 0) {
			fputs(script.ptr, stdout);
			rc = 0;
		}
		buf_release(&script);
		goto out;
	}
	if (!apply) {
		printf("%zu action%s:\n", p.n, p.n == 1 ? "" : "s");
		plan_print(&p, stdout);
		if (mode == PLAN_APPLY && dc_acme_here(h))
			dc_acme_preview(h);
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
	if (mode != PLAN_APPLY && dc_dns_withdraw(o, s, site, d) == -1) {
		printf("nothing changed\n");
		goto out;
	}
	if (plan_apply(&p, drv, stdout, d) == 0) {
		printf("done: %zu action%s\n", p.n, p.n == 1 ? "" : "s");
		rc = 0;
		if (acme) {
			int did;

			if (dc_acme_converge(h, drv, &did, d) == -1)
				rc = 1;
		} else if (mode == PLAN_DESTROY_ALL && dc_acme_here(h) &&
		    dc_acme_remove(h, d) == -1)
			rc = 1;
	}
out:
	/* the records follow the hosts that now pass their check */
	if (apply && mode == PLAN_APPLY && s->dns != NULL &&
	    dc_dns(o, s, site, 1, d) != 0)
		rc = 1;
	plan_release(&p);
	observed_release(&obs);
	driver_free(drv);
	spec_free(s);
	return dc_report(d, rc);
}

static int
cmd_plan(int argc, char **argv)
{
	struct opts o;

	PARSE("plan", 0, "PkiHM");
	return plan_and_maybe_apply("plan", &o, 0, PLAN_APPLY, NULL);
}

static int
cmd_apply(int argc, char **argv)
{
	struct opts o;

	PARSE("apply", 0, "akiHM");
	return plan_and_maybe_apply("apply", &o, 1, PLAN_APPLY, NULL);
}

static int
cmd_destroy(int argc, char **argv)
{
	struct opts o;

	PARSE("destroy", 1, "fkiHMN");
	return plan_and_maybe_apply("destroy", &o, !o.dry_run, o.npos ?
	    PLAN_DESTROY_SITE : PLAN_DESTROY_ALL, o.npos ? o.pos[0] : NULL);
}

/* The host's side: of push (the release protocol), or of a command its
 * controller runs on every host (--spec). */
static int
cmd_agent_wrap(int argc, char **argv)
{
	const struct cmd *c;
	int rc;

	if (argc < 2 || strcmp(argv[1], "--spec") != 0)
		return cmd_agent(argc, argv);
	if ((rc = dc_agent_spec(argc, argv)) != -1)
		return rc;
	c = find_cmd(argv[5]);
	if (c == NULL || (strcmp(c->name, "plan") != 0 &&
	    strcmp(c->name, "apply") != 0 && strcmp(c->name, "destroy") != 0 &&
	    strcmp(c->name, "status") != 0 && strcmp(c->name, "logs") != 0 &&
	    strcmp(c->name, "bench") != 0 &&
	    strcmp(c->name, "proxy-ca") != 0)) {
		fprintf(stderr, "deploy agent: '%s' is not run for a "
		    "controller\n", argv[5]);
		return EXIT_USAGE;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = c->fn(argc - 5, argv + 5);
	curl_global_cleanup();
	free(dc_on_host.text);
	return rc;
}

int
dc_write_report(const char *path, const struct buf *b, struct diag *d)
{
	if (fs_write_atomic(path, b->ptr, b->len) == -1)
		return diag_error(d, path, 0, "cannot write: %s",
		    strerror(errno));
	return 0;
}

/* The fleet's total run: every host's rows, and the host of each. */
struct total {
	struct bench_result	 r;
	const char		**host;
};

static void
got_total(struct fleet_member *m, void *arg)
{
	struct total *t = arg;
	size_t i, from = t->r.n;

	bench_read(&t->r, m->out.ptr);
	t->host = xrealloc(t->host, (t->r.n + 1) * sizeof(*t->host));
	for (i = from; i < t->r.n; i++)
		t->host[i] = m->host->label;
}

/*
 * bench on a fleet: each host's full bench in turn, so that hosts on one
 * machine or one link do not bend each other's figures; then every host
 * loaded at once through its proxy, and the sum. Each host runs wrk
 * against itself: one client could not load a fleet, it would measure
 * the client.
 */
static int
bench_fleet(const struct opts *o, const struct spec *s, struct diag *d)
{
	const char *args[10], *targs[8];
	struct bench_opts bo = { o->quick, o->seconds, 0, NULL };
	char secs[16];
	struct total each = { { NULL, 0, 0, 0 }, NULL };
	struct buf out = BUF_INIT;
	double sum = 0, worst = 0;
	long errors = 0;
	size_t i, n = 0, t = 0;
	int rc;

	buf_printf(&out, "%s-{host}", o->out ? o->out : "bench");
	args[n++] = "--out";
	args[n++] = out.ptr;
	targs[t++] = "--proxy-only";
	targs[t++] = "--json";
	if (o->proxy_only)
		args[n++] = "--proxy-only";
	if (o->quick)
		args[n++] = targs[t++] = "--quick";
	if (o->seconds) {
		xsnprintf(secs, sizeof(secs), "%d", o->seconds);
		args[n++] = targs[t++] = "--seconds";
		args[n++] = targs[t++] = secs;
	}
	if (o->npos)
		args[n++] = targs[t++] = o->pos[0];
	args[n] = targs[t] = NULL;
	rc = dc_on_hosts_with("bench", o, s, o->npos ? o->pos[0] : NULL, args,
	    1, NULL, NULL, d);
	printf("\nevery host at once, through its proxy over HTTPS "
	    "(50 connections each, %d s):\n", bench_seconds(&bo));
	if (dc_on_hosts_with("bench", o, s, o->npos ? o->pos[0] : NULL, targs,
	    64, got_total, &each, d) != 0)
		rc = 1;
	printf("%-10s %-12s %9s %8s %7s\n", "site", "host", "req/s", "p99 ms",
	    "errors");
	for (i = 0; i < each.r.n; i++) {
		const struct bench_row *w = &each.r.rows[i];

		printf("%-10s %-12s %9.0f %8.2f %7ld\n", w->site, each.host[i],
		    w->m.rps, w->m.p99_ms, w->m.errors);
		sum += w->m.rps;
		errors += w->m.errors;
		if (w->m.p99_ms > worst)
			worst = w->m.p99_ms;
	}
	printf("%-10s %-12s %9.0f %8.2f %7ld\n", "total",
	    each.r.n ? "all hosts" : "none", sum, worst, errors);
	fflush(stdout);
	bench_release(&each.r);
	free(each.host);
	buf_release(&out);
	return rc;
}

static int
cmd_bench(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s, *full;
	struct driver *drv = NULL;
	struct bench_opts bo;
	struct bench_result r = { NULL, 0, 0, 0 };
	struct buf b = BUF_INIT, path = BUF_INIT;
	int rc = 1;

	PARSE("bench", 1, "qsopjxHMkiR");
	d = diag_new();
	if (o.nfrom > 0)
		return dc_report(d, dc_bench_from(&o, d));
	if (o.against != NULL || o.connections != NULL || o.rounds ||
	    o.duration) {
		diag_error(d, NULL, 0, "--against, --connections, --rounds and "
		    "--duration go with --from");
		return dc_report(d, EXIT_USAGE);
	}
	if ((full = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	if (o.npos && !spec_fleet_has_site(full, o.pos[0])) {
		diag_error(d, o.file, 0, "unknown site '%s'", o.pos[0]);
		spec_free(full);
		return dc_report(d, 1);
	}
	if (dc_fleet_mode(full, &o)) {
		rc = bench_fleet(&o, full, d);
		spec_free(full);
		return dc_report(d, rc);
	}
	s = dc_host(full, &o);
	if (o.npos && dc_named_site(s, &o, d) == NULL)
		goto out;
	if ((drv = driver_open(s, d)) == NULL)
		goto out;
	bo.quick = o.quick;
	bo.seconds = o.seconds;
	bo.proxy_only = o.proxy_only;
	bo.compare = o.compare;
	if (bench_run(drv, o.npos ? o.pos[0] : NULL, &bo, &r, d) == -1 &&
	    r.n == 0)
		goto out;
	if (o.json) {
		/* for a script, or a fleet's controller: no files */
		bench_json(&r, &b);
		fputs(b.ptr, stdout);
		rc = diag_count(d, DIAG_ERROR) ? 1 : 0;
		goto out;
	}
	bench_table(&r, &b);
	fputs(b.ptr, stdout);
	buf_clear(&b);
	bench_json(&r, &b);
	buf_printf(&path, "%s.json", o.out ? o.out : "bench");
	if (dc_write_report(path.ptr, &b, d) == -1)
		goto out;
	buf_clear(&b);
	bench_svg(&r, &b);
	buf_clear(&path);
	buf_printf(&path, "%s.svg", o.out ? o.out : "bench");
	if (dc_write_report(path.ptr, &b, d) == -1)
		goto out;
	printf("wrote %s.json and %s.svg\n", o.out ? o.out : "bench",
	    o.out ? o.out : "bench");
	rc = diag_count(d, DIAG_ERROR) ? 1 : 0;
out:
	bench_release(&r);
	buf_release(&b);
	buf_release(&path);
	driver_free(drv);
	spec_free(full);
	return dc_report(d, rc);
}

/*
 * The proxy's own CA certificate (Caddy's tls internal root) of the host
 * it runs for, as PEM: a controller's checks ask the host's agent for it,
 * and a user may add it to a browser. Nothing when the proxy's
 * certificates chain to another CA.
 */
static int
cmd_proxy_ca(int argc, char **argv)
{
	struct opts o;
	struct diag *d;
	struct spec *s;
	struct driver *drv;
	struct buf pem = BUF_INIT;
	int rc = 1;

	PARSE("proxy-ca", 0, "H");
	d = diag_new();
	if ((s = dc_load(&o, d, 0)) == NULL)
		return dc_report(d, 1);
	if ((drv = driver_open(dc_host(s, &o), d)) != NULL &&
	    drv->ops->proxy_ca(drv, &pem, d) == 0) {
		fwrite(pem.ptr, 1, pem.len, stdout);
		rc = 0;
	}
	buf_release(&pem);
	driver_free(drv);
	spec_free(s);
	return dc_report(d, rc);
}

static int cmd_help(int, char **);

static const struct cmd cmds[] = {
	{ "check", cmd_check, "check [-c FILE]",
	  "Read deploy.yaml and check it, also against the host's addresses." },
	{ "plan", cmd_plan, "plan [-c FILE] [--platform NAME] [--host NAME] "
	  "[--max-parallel N] [--known-hosts F] [--identity F]",
	  "Print the actions that would bring the host to deploy.yaml; on "
	  "FreeBSD (freebsd-bastille, freebsd-jail) the exact sh script "
	  "apply would run; on a fleet, every host's, under its name." },
	{ "apply", cmd_apply, "apply [-c FILE] [--cacert FILE] [--host NAME] "
	  "[--max-parallel N] [--known-hosts F] [--identity F]",
	  "Carry the plan out; says \"nothing to do\" when there is none; "
	  "on a fleet, on every host, exit 1 if any failed. With dns:, then "
	  "publishes each domain's records: the hosts that pass their check." },
	{ "destroy", cmd_destroy, "destroy [-c FILE] [-f | -n] [--host NAME] "
	  "[--max-parallel N] [--known-hosts F] [--identity F] [SITE]",
	  "Remove one site (jail, config, releases) or everything, on every "
	  "host; asks unless -f; -n only prints what it would do." },
	{ "status", cmd_status, "status [-c FILE] [--cacert FILE] [--host NAME] "
	  "[--max-parallel N] [--known-hosts F] [--identity F] [SITE]",
	  "Jails, servers, current release and its age, health, "
	  "certificate expiry; on a fleet, each host's under its name, then "
	  "each host's current release, exit 1 on drift. With dns:, per "
	  "domain what the server answers and what deploy expects, exit 1 "
	  "on a difference." },
	{ "renew", cmd_renew, "renew [-c FILE] [--due] [--host NAME] [SITE]",
	  "Proxy with tls acme: get a new certificate for every site "
	  "(or SITE) now, served from the proxy's next handshake (Caddy: "
	  "renewed by Caddy, then its own config loaded back); --due (nginx): "
	  "only those past 2/3 of their lifetime, as the renewal schedule "
	  "does." },
	{ "health", cmd_health, "health [-c FILE] [--expect ID] "
	  "[--cacert FILE] [--host NAME] [--max-parallel N] "
	  "[--known-hosts F] [--identity F] [SITE]",
	  "Fetch every domain through the proxy over TLS: 200 and the "
	  "release id; on a fleet, through every host's proxy." },
	{ "logs", cmd_logs, "logs [-c FILE] [--host NAME] [--max-parallel N] "
	  "[--known-hosts F] [--identity F] SITE|proxy",
	  "Show the end of the server logs of a jail, on every host." },
	{ "push", cmd_push, "push [-c FILE] [--no-build] [--cacert FILE] "
	  "[--known-hosts F] [--identity F] [--max-parallel N] "
	  "[--canary HOST] SITE",
	  "Build the site (an ssg folder; --no-build pushes it as it is), "
	  "commit, stage on every host, then switch all and check health; "
	  "on failure put every host back on its previous release." },
	{ "rollback", cmd_rollback, "rollback [-c FILE] [--cacert FILE] "
	  "[--known-hosts F] [--identity F] [--max-parallel N] SITE [ID]",
	  "Switch back to an older release: the one that served before the "
	  "current one (releases marks it previous), else the newest older "
	  "one; or to ID; on every host of the site." },
	{ "watch", cmd_watch, "watch [-c FILE] [--interval S] [--fall N] "
	  "[--rise N] [--rounds N] [--cacert FILE] [--max-parallel N] "
	  "[--known-hosts F] [--identity F] [SITE]",
	  "With dns: in deploy.yaml, in the foreground: check every host of "
	  "every site (or SITE) each S seconds (10), withdraw a host's records "
	  "after N failed checks in a row (3), put them back after N passed "
	  "(2), never withdraw a domain's last healthy host; one line per "
	  "change; DNS errors are said and retried. --rounds N stops after N "
	  "rounds." },
	{ "releases", cmd_releases, "releases [-c FILE] [--known-hosts F] "
	  "[--identity F] SITE",
	  "List the releases on every host, oldest first; exit 1 on drift "
	  "(hosts serving different releases)." },
	{ "agent", cmd_agent_wrap, "agent --root DIR --site NAME VERB | "
	  "agent --spec FILE --host NAME COMMAND [ARGS]",
	  "Host side of push, and of plan, apply, destroy, status and logs "
	  "on a fleet (started by deploy itself, locally or over ssh)." },
	{ "bench", cmd_bench, "bench [-c FILE] [--quick] [--seconds N] "
	  "[--proxy-only] "
	  "[--out NAME] [--json] [--compare OLD.json] [--host NAME] "
	  "[--known-hosts F] [--identity F] [--from LABEL=ssh://USER@HOST ...] "
	  "[--against URL [--against-ssh ssh://USER@HOST]] "
	  "[--connections N,N,...] [--duration S] [--rounds N] [SITE]",
	  "wrk through the proxy and straight at the site jail, and at an "
	  "nginx with the distribution's stock settings serving the same "
	  "release for comparison (each run 5 s, --quick 3, --seconds N); writes NAME.json and NAME.svg (NAME: "
	  "bench; --json prints the JSON instead). On a fleet, each host in "
	  "turn (NAME-HOST.json on that host), then every host at once "
	  "through its proxy, and the total. With --from LABEL=ssh://USER@HOST"
	  "[:PORT] (repeatable): the load is made on those machines, all at "
	  "once, along --connections (default 10,100,1000, shared out among "
	  "them), --duration s (default 5) a run, --rounds (default 3), "
	  "alternately against --against URL (the old server; "
	  "--against-ssh ssh://USER@HOST reads its listen queue); writes "
	  "NAME.json and NAME.html, names what made requests fail." },
	{ "proxy-ca", cmd_proxy_ca, "proxy-ca [-c FILE] [--host NAME]",
	  "Print the CA certificate the proxy signs with when it is its own "
	  "(proxy: caddy with tls: internal), run on the host; push and "
	  "health trust it by themselves." },
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

int
dc_usage_of(const char *name, int rc)
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
		return dc_usage_of(argv[1], 0);
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
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("deploy %s (ISC license)\n", SSG_VERSION);
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
			return dc_usage_of("agent", 0);
		return c->fn(argc - 1, argv + 1);
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = c->fn(argc - 1, argv + 1);
	curl_global_cleanup();
	return rc;
}
