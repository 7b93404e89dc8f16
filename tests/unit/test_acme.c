/*
 * The nginx proxy's ACME certificates: when one is due, the placeholder
 * apply makes before the first issuance, and the renewal schedule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acme.h"
#include "buf.h"
#include "diag.h"
#include "fsutil.h"
#include "spec.h"

static int passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond)							\
		passed++;						\
	else {								\
		failed++;						\
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);	\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
	}								\
} while (0)

static const char yaml[] =
    "name: ac\n"
    "platform: linux-netns\n"
    "network: {bridge: ac0, subnet: 10.231.9.0/24, proxy: 10.231.9.2}\n"
    "proxy: {kind: nginx, tls: acme, email: a@a.test}\n"
    "releases: {root: /srv/ac}\n"
    "sites:\n"
    "  - {name: a, domains: [a.test], source: /,\n"
    "     redirects: [\"www.a.test -> a.test\"]}\n";

static void
test_due(const struct spec *s)
{
	const struct spec_site *a = &s->sites[0];
	struct acme_cert c;
	time_t t0 = 1700000000, life = 90 * 86400;

	memset(&c, 0, sizeof(c));
	c.not_before = t0;
	c.not_after = t0 + life;
	snprintf(c.names, sizeof(c.names), "a.test www.a.test");
	CHECK(!acme_due(a, &c, t0 + 59 * 86400), "due after 59 of 90 days");
	CHECK(acme_due(a, &c, t0 + 60 * 86400), "not due after 60 of 90 days");
	CHECK(acme_due(a, &c, t0 + life + 1), "not due once expired");
	snprintf(c.names, sizeof(c.names), "a.test");
	CHECK(acme_due(a, &c, t0), "a redirect name missing: not due");
	snprintf(c.names, sizeof(c.names), "xa.test www.a.test");
	CHECK(acme_due(a, &c, t0), "a name matched inside another");
	snprintf(c.names, sizeof(c.names), "www.a.test a.test");
	c.placeholder = 1;
	CHECK(acme_due(a, &c, t0), "a placeholder is not due");
}

static void
test_placeholder(const struct spec *s, const char *dir)
{
	struct diag *d = diag_new();
	struct acme_cert c;
	char *crt = acme_live_path(dir, "a", "pem");
	struct buf web = BUF_INIT, text = BUF_INIT;

	CHECK(acme_prepare(s, dir, d) == 0, "prepare failed");
	CHECK(fs_read(crt, &text) == 0 &&
	    strstr(text.ptr, "BEGIN CERTIFICATE") != NULL &&
	    strstr(text.ptr, "PRIVATE KEY-----") != NULL,
	    "no placeholder with its key");
	CHECK(acme_cert_read(crt, &c) == 0 && c.placeholder &&
	    c.not_after > time(NULL), "the placeholder is not read as one");
	CHECK(acme_due(&s->sites[0], &c, time(NULL)), "placeholder not due");
	buf_printf(&web, "%s/webroot/.well-known/acme-challenge", dir);
	CHECK(fs_is_dir(web.ptr), "no challenge folder");
	diag_free(d);
	free(crt);
	buf_release(&web);
	buf_release(&text);
}

static void
test_schedule(const struct spec *s)
{
	struct buf t = BUF_INIT, p = BUF_INIT;

	acme_schedule_text(s, "/usr/local/bin/deploy", &t);
	CHECK(strstr(t.ptr, " 3,15 * * * root /usr/local/bin/deploy renew "
	    "--due -c ") != NULL, "schedule line:\n%s", t.ptr);
	acme_schedule_path(s, &p);
	CHECK(strcmp(p.ptr, "/etc/cron.d/deploy-ac") == 0, "path %s", p.ptr);
	buf_release(&t);
	buf_release(&p);
}

int
main(void)
{
	char tmp[] = "/tmp/test_acme.XXXXXX";
	struct diag *d = diag_new();
	struct spec *s = spec_parse("deploy.yaml", yaml, sizeof(yaml) - 1, d);
	struct buf dir = BUF_INIT;

	unsetenv("DEPLOY_CRON_DIR");
	CHECK(s != NULL && acme_hosted(s), "nginx with tls acme refused");
	if (s != NULL && mkdtemp(tmp) != NULL) {
		buf_printf(&dir, "%s/acme", tmp);
		test_due(s);
		test_placeholder(s, dir.ptr);
		test_schedule(s);
		fs_remove_tree(tmp);
	}
	spec_free(s);
	diag_free(d);
	buf_release(&dir);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
