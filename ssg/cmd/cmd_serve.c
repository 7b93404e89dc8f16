/*
 * ssg serve: build, serve the output on a local address, and rebuild when a
 * source changes; open pages reload themselves.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "build.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "serve.h"
#include "theme.h"
#include "watch.h"

static const char serve_usage[] =
    "usage: ssg serve [-C DIR] [--host ADDR] [-p PORT] [--drafts]\n"
    "                 [--no-build] [build options]\n"
    "\n"
    "Builds the site with site_url set to the local address, serves the\n"
    "output folder, and rebuilds when posts, pages, drafts, static,\n"
    "templates, themes or site.yaml change; open pages reload by\n"
    "themselves. A failed build is shown on the pages and here, and the\n"
    "last good pages stay served. Stops on Ctrl-C.\n"
    "\n"
    "      --host ADDR      address to listen on (default 127.0.0.1)\n"
    "  -p, --port PORT      port (default 8000)\n"
    "      --drafts         include drafts\n"
    "      --no-build       serve the output folder as it is (no watching)\n"
    "      --build-mode ram|normal\n"
    "                       accepted as BSSG takes it; ssg has one build\n"
    "                       mode (incremental, on disk)\n"
    "  -h, --help           this help\n"
    "\n"
    "SSG_WATCH=poll checks for changes by polling instead of inotify.\n";

static volatile sig_atomic_t stop_serving;

static void
on_signal(int sig)
{
	(void)sig;
	stop_serving = 1;
}

/*
 * A rebuild after a change. Strict, so that a bad source leaves the last
 * good output alone; the problems go to the terminal and the pages.
 */
static void
rebuild(struct cli *cli, struct server *srv, const struct build_opts *base,
    int first)
{
	struct build_opts o = *base;
	struct build_stats st;
	struct diag *d = diag_new();
	struct buf err = BUF_INIT;
	const char *m;
	size_t i;
	int rc;

	if (!first)
		o.strict = 1;
	o.progress = NULL;
	memset(&st, 0, sizeof(st));
	rc = ssg_build(&o, &st, d);
	cli_print_diag(cli, d, 0);
	if (rc == 0) {
		if (!cli->quiet)
			cmd_print_summary(cli, &st, first ? "built" : "rebuilt");
		server_notify(srv, NULL);
	} else {
		for (i = 0; (m = diag_message(d, i)) != NULL; i++)
			buf_printf(&err, "%s\n", m);
		if (err.len == 0)
			buf_adds(&err, "the build failed\n");
		cli_error(cli, first ? "the build had problems; fix them and "
		    "save: the site is rebuilt" : "the build failed; still "
		    "serving the last good pages");
		server_notify(srv, err.ptr);
	}
	fflush(stdout);
	buf_release(&err);
	diag_free(d);
}

static void
watch_sources(struct watch *w, const char *site, const struct site_config *c)
{
	const char *dirs[6];
	char *p;
	size_t i;

	dirs[0] = c->posts_dir;
	dirs[1] = c->pages_dir;
	dirs[2] = c->drafts_dir;
	dirs[3] = c->static_dir;
	dirs[4] = c->templates_dir;
	dirs[5] = c->themes_dir;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		p = path_join(site, dirs[i]);
		watch_add(w, p);
		free(p);
	}
	p = path_join(site, "site.yaml");
	watch_add(w, p);
	free(p);
}

int
cmd_serve(struct cli *cli, int argc, char **argv)
{
	struct build_args a;
	struct site_config c;
	struct server *srv = NULL;
	struct watch *w = NULL;
	struct diag *d;
	struct sigaction sa;
	sigset_t mask, old;
	char url[300], *out, *cfg, *builtin = NULL;
	int rc;

	if ((rc = cmd_parse_build_args(cli, argc, argv, &a, serve_usage, 1)) != 0)
		return rc == 1 ? 0 : rc;
	if (strfit(url, sizeof(url), "http://%s:%d", a.host, a.port) == -1) {
		cli_error(cli, "--host: '%s' is too long", a.host);
		return 2;
	}
	d = diag_new();
	cfg = path_join(cli->site_dir, "site.yaml");
	config_init(&c);
	config_load(&c, cfg, 1, d);
	if (a.no_build)
		cli_print_diag(cli, d, 0);
	out = path_join(cli->site_dir, a.o.output_dir ? a.o.output_dir :
	    c.output_dir);
	free(cfg);
	diag_free(d);

	/* listen first: a port in use is known before any work */
	d = diag_new();
	/* the server's threads leave SIGINT and SIGTERM to this one */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &mask, &old);
	if (fs_mkdirs(out) == -1)
		diag_error(d, out, 0, "cannot create the output folder");
	else
		srv = server_start(out, a.host, a.port, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	cli_print_diag(cli, d, 0);
	diag_free(d);
	if (srv == NULL) {
		rc = 1;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);

	if (!a.no_build) {
		server_set_live(srv, 1);
		if (a.o.site_url == NULL)
			a.o.site_url = url;
		/* watch before building: a save during the build counts */
		d = diag_new();
		w = watch_new(d);
		cli_print_diag(cli, d, 0);
		diag_free(d);
		watch_sources(w, cli->site_dir, &c);
		builtin = theme_builtin_dir(cli->argv0);
		a.o.themes_builtin = builtin;
		rebuild(cli, srv, &a.o, 1);
	}
	printf("Serving %s at %s/ (Ctrl-C to stop)\n", out, url);
	if (w != NULL && cli->verbose)
		printf("watching for changes (%s)\n", watch_native(w) ?
		    "inotify" : "polling");
	fflush(stdout);
	while (!stop_serving) {
		if (w == NULL) {
			poll(NULL, 0, 500);	/* a signal may reach another thread */
			continue;
		}
		if (watch_wait(w, 500, 100) == 1 && !stop_serving) {
			if (!cli->quiet)
				printf("change seen: rebuilding\n");
			rebuild(cli, srv, &a.o, 0);
		}
	}
	server_stop(srv);
	if (!cli->quiet)
		printf("\nStopped.\n");
	rc = 0;
out:
	watch_free(w);
	config_release(&c);
	free(builtin);
	free(out);
	return rc;
}
