/*
 * fbplan: the FreeBSD drivers against recorded host outputs.
 *
 *   fbplan [-d | -s SITE] [-c DIR] [-k DIR] SPEC OBSERVED
 *   fbplan -a SPEC OBSERVED
 *
 * Observes the host from the recorded outputs in OBSERVED, builds the
 * plan (apply; -d destroy all; -s destroy one site) and prints the sh
 * script `deploy plan` shows, or "nothing to do". -c writes every jail's
 * config and pf.conf into DIR (for nginx -t and caddy validate); -k writes
 * them under the names the driver reads them back by, to make a host
 * state where nothing differs. -a prints the proxy's own CA as the driver
 * reads it on the host (Caddy's tls internal root), and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "freebsd.h"
#include "plan.h"
#include "spec.h"

static int
put(const char *dir, const char *name, const char *text)
{
	struct buf p = BUF_INIT;
	FILE *fp;
	int rc = -1;

	buf_printf(&p, "%s/%s", dir, name);
	if ((fp = fopen(p.ptr, "w")) != NULL) {
		rc = fputs(text, fp) == EOF ? -1 : 0;
		if (fclose(fp) == EOF)
			rc = -1;
	}
	if (rc == -1)
		perror(p.ptr);
	buf_release(&p);
	return rc;
}

/* Every jail's config (and pf.conf) into dir, by jail or by replay key. */
static int
dump(struct driver *drv, const char *dir, int bykey, struct diag *d)
{
	const struct spec *s = drv->spec;
	struct fb_driver *fd = (struct fb_driver *)drv;
	struct buf text = BUF_INIT, name = BUF_INIT;
	char *path = NULL, *argv[3];
	size_t i;
	int rc = 0;

	/* the sites, the proxy, then the Gemini jail when there is one */
	for (i = 0; i <= s->nsites + (spec_gemini_site(s) != NULL) && rc == 0;
	    i++) {
		const char *jail = i < s->nsites ? s->sites[i].name :
		    i == s->nsites ? "proxy" : "gemini";

		buf_clear(&text);
		buf_clear(&name);
		if (drv->ops->config(drv, jail, &text, &path, d) == -1)
			rc = -1;
		else if (bykey) {
			argv[0] = "cat";
			argv[1] = path;
			argv[2] = NULL;
			fb_replay_key(argv, &name);
		} else
			buf_printf(&name, "%s.conf", jail);
		if (rc == 0)
			rc = put(dir, name.ptr, text.ptr);
		free(path);
		path = NULL;
	}
	buf_clear(&text);
	buf_clear(&name);
	fb_pf_conf(s, fd->ext_if, s->host == HOST_SSH && s->ssh_port ?
	    s->ssh_port : 22, fd->fl->pf_anchors, &text);
	buf_adds(&name, bykey ? "cat__etc_pf.conf" : "pf.conf");
	if (rc == 0)
		rc = put(dir, name.ptr, text.ptr);
	buf_release(&text);
	buf_release(&name);
	return rc;
}

int
main(int argc, char **argv)
{
	struct diag *d = diag_new();
	struct spec *s = NULL;
	struct driver *drv = NULL;
	struct observed obs;
	struct plan p;
	struct buf out = BUF_INIT;
	enum plan_mode mode = PLAN_APPLY;
	const char *site = NULL, *confdir = NULL, *keydir = NULL;
	int c, rc = 1, ca = 0;

	memset(&obs, 0, sizeof(obs));
	memset(&p, 0, sizeof(p));
	while ((c = getopt(argc, argv, "ads:c:k:")) != -1) {
		switch (c) {
		case 'a':
			ca = 1;
			break;
		case 'd':
			mode = PLAN_DESTROY_ALL;
			break;
		case 's':
			mode = PLAN_DESTROY_SITE;
			site = optarg;
			break;
		case 'c':
			confdir = optarg;
			break;
		case 'k':
			keydir = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2)
		goto usage;
	if ((s = spec_load(argv[optind], d)) == NULL ||
	    (drv = driver_open(s, d)) == NULL)
		goto out;
	fb_driver_replay(drv, argv[optind + 1]);
	if (ca) {
		if (drv->ops->proxy_ca(drv, &out, d) == 0) {
			fputs(out.ptr, stdout);
			rc = 0;
		}
		goto out;
	}
	if (drv->ops->observe(drv, &obs, d) == -1 ||
	    plan_build(&p, drv, &obs, mode, site, d) == -1)
		goto out;
	if ((confdir != NULL && dump(drv, confdir, 0, d) == -1) ||
	    (keydir != NULL && dump(drv, keydir, 1, d) == -1))
		goto out;
	if (p.n == 0)
		printf("nothing to do\n");
	else if (freebsd_plan_script(drv, &p, &out, d) == -1)
		goto out;
	fputs(out.ptr, stdout);
	rc = 0;
out:
	diag_print(d, 0, stderr, 0);
	buf_release(&out);
	plan_release(&p);
	observed_release(&obs);
	driver_free(drv);
	spec_free(s);
	diag_free(d);
	return rc;
usage:
	fprintf(stderr, "usage: fbplan [-d | -s site] [-c dir] [-k dir] "
	    "spec observed\n");
	return 2;
}
