/* A command on every host of the fleet (plan, apply, destroy, status,
 * logs), and the host's side of it: the same program, run there. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd_int.h"
#include "diag.h"
#include "driver.h"
#include "engine.h"
#include "fleet.h"
#include "host.h"
#include "spec.h"

struct on_host dc_on_host;

int
dc_agent_spec(int argc, char **argv)
{
	struct buf text = BUF_INIT;
	char chunk[8192];
	size_t n;

	/* argv: agent --spec NAME --host LABEL COMMAND [ARGS] */
	if (argc < 6 || strcmp(argv[1], "--spec") != 0 ||
	    strcmp(argv[3], "--host") != 0) {
		fprintf(stderr, "usage: deploy agent --spec NAME --host LABEL "
		    "COMMAND [ARGS]\n");
		return EXIT_USAGE;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		buf_add(&text, chunk, n);
	dc_on_host.name = argv[2];
	dc_on_host.label = argv[4];
	dc_on_host.len = text.len;
	dc_on_host.text = buf_detach(&text, NULL);
	return -1;	/* main runs COMMAND with argv + 5 */
}

int
dc_fleet_mode(const struct spec *s, const struct opts *o)
{
	if (dc_on_host.label != NULL)
		return 0;
	if (o->only_host != NULL)
		return driver_needs_agent(dc_host(s, o));
	return s->nhosts > 1 || driver_needs_agent(s);
}

int
dc_fleet_open(struct fleet *f, const struct opts *o, const struct spec *s,
    const char *site, struct diag *d)
{
	if (fleet_init_hosts(f, s, site, o->only_host, d) == -1)
		return -1;
	if (host_spec(f, o->file, d) == -1) {
		fleet_close(f, d);
		return -1;
	}
	f->known_hosts = o->known_hosts;
	f->identity = o->identity;
	f->self = self_path[0] ? self_path : "deploy";
	if (o->max_parallel > 0)
		f->max_parallel = o->max_parallel;
	return 0;
}

/* Prints each host's output under its name, then which hosts failed. */
static void
print_hosts(const char *cmd, struct fleet *f, size_t bad)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		struct fleet_member *m = &f->m[i];

		if (f->n > 1)
			printf("%s=== host %s (%s) ===\n", i ? "\n" : "",
			    m->host->label, m->host->host_str);
		fputs(m->out.ptr, stdout);
		if (m->out.len > 0 && m->out.ptr[m->out.len - 1] != '\n')
			putchar('\n');
	}
	if (f->n > 1) {
		printf("\n%s on %zu hosts: %zu ok", cmd, f->n, f->n - bad);
		if (bad > 0) {
			printf(", %zu failed (", bad);
			for (i = 0; i < f->n; i++)
				if (f->m[i].failed)
					printf("%s%s", f->m[i].host->label,
					    --bad ? ", " : ")");
		}
		printf("\n");
	}
	fflush(stdout);
}

int
dc_on_hosts(const char *cmd, const struct opts *o, const struct spec *s,
    const char *site, const char *const *args, struct diag *d)
{
	return dc_on_hosts_with(cmd, o, s, site, args, 0, NULL, NULL, d);
}

int
dc_on_hosts_with(const char *cmd, const struct opts *o, const struct spec *s,
    const char *site, const char *const *args, int parallel,
    void (*got)(struct fleet_member *, void *), void *arg, struct diag *d)
{
	struct fleet f;
	size_t i, bad;
	int rc;

	if (dc_fleet_open(&f, o, s, site, d) == -1)
		return 1;
	if (parallel > 0)
		f.max_parallel = parallel;
	bad = engine_command(&f, cmd, args);
	if (got == NULL)
		print_hosts(cmd, &f, bad);
	else
		for (i = 0; i < f.n; i++)
			got(&f.m[i], arg);
	rc = bad > 0 ? 1 : 0;
	fleet_close(&f, d);
	return rc;
}
