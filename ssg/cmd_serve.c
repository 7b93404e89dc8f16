/* ssg serve: build, then serve the output on a local address. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "cli.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "fsutil.h"
#include "mem.h"
#include "serve.h"

static const char serve_usage[] =
    "usage: ssg serve [-C DIR] [--host ADDR] [-p PORT] [--drafts]\n"
    "                 [--no-build] [build options]\n"
    "\n"
    "Builds the site with site_url set to the local address, then serves\n"
    "the output folder until interrupted (Ctrl-C).\n"
    "\n"
    "      --host ADDR      address to listen on (default 127.0.0.1)\n"
    "  -p, --port PORT      port (default 8000)\n"
    "      --no-build       serve the output folder as it is\n"
    "  -h, --help           this help\n";

static volatile sig_atomic_t stop_serving;

static void
on_signal(int sig)
{
	(void)sig;
	stop_serving = 1;
}

int
cmd_serve(struct cli *cli, int argc, char **argv)
{
	struct build_args a;
	struct build_stats st;
	struct server *srv;
	struct diag *d;
	struct sigaction sa;
	char url[300], *out;
	int rc;

	if ((rc = cmd_parse_build_args(cli, argc, argv, &a, serve_usage, 1)) != 0)
		return rc == 1 ? 0 : rc;
	snprintf(url, sizeof(url), "http://%s:%d", a.host, a.port);
	if (!a.no_build) {
		if (a.o.site_url == NULL)
			a.o.site_url = url;
		if (cmd_run_build(cli, &a.o, &st) != 0 && st.outputs == 0)
			return 1;
		out = xstrdup(st.output);
	} else {
		struct site_config c;
		struct diag *cd = diag_new();
		char *cfg = path_join(cli->site_dir, "site.yaml");

		config_init(&c);
		config_load(&c, cfg, 1, cd);
		cli_print_diag(cli, cd, 0);
		out = path_join(cli->site_dir, a.o.output_dir ? a.o.output_dir :
		    c.output_dir);
		config_release(&c);
		diag_free(cd);
		free(cfg);
	}
	d = diag_new();
	srv = server_start(out, a.host, a.port, d);
	cli_print_diag(cli, d, 0);
	diag_free(d);
	if (srv == NULL) {
		free(out);
		return 1;
	}
	printf("Serving %s at %s/ (Ctrl-C to stop)\n", out, url);
	fflush(stdout);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop_serving)
		pause();
	server_stop(srv);
	free(out);
	if (!cli->quiet)
		printf("\nStopped.\n");
	return 0;
}
