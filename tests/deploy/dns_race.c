/*
 * Another deploy's view of a domain's records, for tests/deploy/dns.sh:
 * replaces the A/AAAA records of NAME with WANT on the condition that
 * they are HAD (comma-separated lists, "-" for none), through the dns:
 * of deploy.yaml. Exit 0 when the server took the update, 1 (with its
 * reason on stderr) when not.
 *
 * usage: dns_race DEPLOY.YAML NAME HAD WANT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dns.h"
#include "spec.h"

static int
list(const char *text, struct dns_addrs *out)
{
	char buf[1024], *p, *save = NULL;

	memset(out, 0, sizeof(*out));
	if (strcmp(text, "-") == 0)
		return 0;
	if (snprintf(buf, sizeof(buf), "%s", text) >= (int)sizeof(buf))
		return -1;
	for (p = strtok_r(buf, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save))
		if (dns_addrs_add(out, p) == -1)
			return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct diag *d = diag_new();
	struct dns_addrs had, want;
	struct spec *s;
	int rc = 1;

	if (argc != 5 || list(argv[3], &had) == -1 ||
	    list(argv[4], &want) == -1) {
		fprintf(stderr, "usage: dns_race DEPLOY.YAML NAME HAD WANT\n");
		return 2;
	}
	if ((s = spec_load(argv[1], d)) != NULL && s->dns != NULL &&
	    dns_replace(s->dns, argv[2], &had, &want, d) == 0)
		rc = 0;
	diag_print(d, 0, stderr, 0);
	diag_free(d);
	spec_free(s);
	return rc;
}
