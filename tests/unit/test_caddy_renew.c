/*
 * A forced renewal with the Caddy proxy: the automation policies that
 * make some names due, and the reason a failed attempt left in the log.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "caddy_renew.h"
#include "tap.h"

static const char acme[] =
    "\"issuers\":[{\"ca\":\"https://ca.test/dir\",\"module\":\"acme\","
    "\"trusted_roots_pem_files\":[\"/r.pem\"]}]";

static void
policies(const char *in, const char *const *names, size_t n, int want_rc,
    const char *want, const char *what)
{
	struct buf out = BUF_INIT, err = BUF_INIT;
	int rc = caddy_policies_due(in, names, n, &out, &err);

	IS_INT(rc, want_rc, what);
	IS_STR(rc == 0 ? out.ptr : err.ptr, want, what);
	buf_release(&out);
	buf_release(&err);
}

static void
test_policies(void)
{
	const char *blog[] = { "www.blog.test", "blog.test" };
	const char *other[] = { "b.test" };
	char in[1024], want[2048];

	/* What Caddy shows for deploy's Caddyfile: one policy, both names. */
	snprintf(in, sizeof(in), "[{\"subjects\":[\"www.blog.test\","
	    "\"blog.test\"],%s}]\n", acme);
	snprintf(want, sizeof(want), "[{\"subjects\":[\"www.blog.test\","
	    "\"blog.test\"],%s,\"renewal_window_ratio\":1}]", acme);
	policies(in, blog, 2, 0, want, "the one policy made due");

	/* Two sites in one policy: split, the other site keeps its own. */
	snprintf(in, sizeof(in), "[ {\"subjects\": [\"a.test\", \"b.test\", "
	    "\"c.test\"], %s, \"renewal_window_ratio\": 0.5} ]", acme);
	snprintf(want, sizeof(want), "[{\"subjects\":[\"a.test\",\"c.test\"],"
	    "%s,\"renewal_window_ratio\":0.5},{\"subjects\":[\"b.test\"],%s,"
	    "\"renewal_window_ratio\":1}]", acme, acme);
	policies(in, other, 1, 0, want, "a shared policy is split");

	/* Policies without the names, or without subjects, are copied. */
	snprintf(in, sizeof(in), "[{\"subjects\":[\"x.test\"],%s},"
	    "{\"subjects\":[\"b.test\"]},{%s}]", acme, acme);
	snprintf(want, sizeof(want), "[{\"subjects\":[\"x.test\"],%s},"
	    "{\"subjects\":[\"b.test\"],\"renewal_window_ratio\":1},{%s}]",
	    acme, acme);
	policies(in, other, 1, 0, want, "other policies untouched");

	policies("[{\"subjects\":[\"x.test\"]}]", other, 1, -1,
	    "no automation policy of Caddy's names b.test", "a name missing");
	policies("null", other, 1, -1,
	    "Caddy's automation policies are not the JSON expected", "null");
	policies("[{\"subjects\":[\"b.test\"]", other, 1, -1,
	    "Caddy's automation policies are not the JSON expected",
	    "truncated");
	policies("[{\"subjects\":\"b.test\"}]", other, 1, -1,
	    "Caddy's automation policies are not the JSON expected",
	    "subjects not an array");
}

static void
log_error(const char *line, int want_rc, const char *want, const char *what)
{
	const char *names[] = { "www.blog.test", "blog.test" };
	struct buf out = BUF_INIT;

	IS_INT(caddy_log_error(line, names, 2, &out), want_rc, what);
	IS_STR(out.ptr, want, what);
	buf_release(&out);
}

static void
test_log(void)
{
	log_error("{\"level\":\"error\",\"ts\":1.5,\"logger\":\"tls.renew\","
	    "\"msg\":\"could not get certificate from issuer\",\"identifier\":"
	    "\"blog.test\",\"issuer\":\"ca.test-dir\",\"error\":\"dial tcp: "
	    "connect: connection refused (ca=\\\"https://ca.test/dir\\\")\"}\n",
	    1, "dial tcp: connect: connection refused (ca=\"https://ca.test/dir\")",
	    "the reason of a failed renewal");
	log_error("{\"level\":\"info\",\"identifier\":\"blog.test\","
	    "\"error\":\"x\"}", 0, "", "not an error");
	log_error("{\"level\":\"error\",\"identifier\":\"other.test\","
	    "\"error\":\"x\"}", 0, "", "another name");
	log_error("{\"level\":\"error\",\"identifier\":\"blog.test.other\","
	    "\"error\":\"x\"}", 0, "", "a longer name");
	log_error("{\"level\":\"error\",\"msg\":\"will retry\",\"error\":\"x\"}",
	    0, "", "no identifier");
	log_error("not json", 0, "", "not JSON");
}

int
main(void)
{
	test_policies();
	test_log();
	return tap_done();
}
