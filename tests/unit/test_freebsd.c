/*
 * The FreeBSD pieces: parsers on recorded outputs of bastille list, jls,
 * pfctl, ifconfig and route; pf.conf shape; sh quoting of commands.
 * Run from the top of the tree (reads tests/deploy/freebsd/samples/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "freebsd.h"
#include "spec.h"
#include "tap.h"

#define SAMPLES "tests/deploy/freebsd/samples/"

static char *
slurp(const char *name)
{
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;
	FILE *fp = fopen(name, "r");

	if (fp == NULL) {
		perror(name);
		return buf_detach(&b, NULL);
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	return buf_detach(&b, NULL);
}

static void
test_bastille_list(void)
{
	struct fb_jails js = { NULL, 0 };
	const struct fb_jail *j;
	char *t = slurp(SAMPLES "bastille-list-1.0.txt");

	IS_INT(fb_parse_bastille_list(t, &js), 0, "1.0 list parses");
	IS_INT(js.n, 4, "1.0 list: four jails");
	j = fb_jails_find(&js, "deploy-proxy");
	OK(j != NULL && strcmp(j->ip, "10.17.0.2") == 0 && j->up,
	    "proxy up at 10.17.0.2");
	j = fb_jails_find(&js, "deploy-docs");
	OK(j != NULL && !j->up && strcmp(j->ip, "10.17.0.11") == 0,
	    "stopped jail is Down with its address");
	j = fb_jails_find(&js, "other");
	OK(j != NULL && strcmp(j->ip, "192.168.5.9") == 0, "other jail");
	OK(fb_jails_find(&js, "14.3-RELEASE-p2") == NULL, "no column mix-up");
	fb_jails_release(&js);
	free(t);

	t = slurp(SAMPLES "bastille-list-0.14.txt");
	IS_INT(fb_parse_bastille_list(t, &js), 0, "0.x list parses");
	IS_INT(js.n, 2, "0.x list: two jails");
	j = fb_jails_find(&js, "deploy-blog");
	OK(j != NULL && strcmp(j->ip, "10.17.0.10") == 0 && j->up &&
	    strcmp(j->path, "/usr/local/bastille/jails/deploy-blog/root") == 0,
	    "0.x: address and path");
	fb_jails_release(&js);
	free(t);

	IS_INT(fb_parse_bastille_list("bastille: command not found\n", &js),
	    -1, "no header is an error");
	IS_INT(js.n, 0, "nothing parsed without a header");
	IS_INT(fb_parse_bastille_list(" JID  Name  Boot  Prio  State  Type  "
	    "IP Address  Published Ports  Release  Tags\n", &js), 0,
	    "header only: no jails");
	IS_INT(js.n, 0, "header only: zero jails");
}

static void
test_jls(void)
{
	struct fb_jails js = { NULL, 0 };
	const struct fb_jail *j;
	char *t = slurp(SAMPLES "jls.txt");

	IS_INT(fb_parse_jls(t, &js), 0, "jls parses");
	IS_INT(js.n, 3, "three jails");
	j = fb_jails_find(&js, "deploy-blog");
	OK(j != NULL && strcmp(j->ip, "10.17.0.10") == 0,
	    "first of several addresses");
	j = fb_jails_find(&js, "db");
	OK(j != NULL && strcmp(j->ip, "") == 0 && strcmp(j->path, "/jails/db")
	    == 0, "no address shown as -");
	fb_jails_release(&js);
	free(t);
	IS_INT(fb_parse_jls("", &js), 0, "no jails running");
	IS_INT(js.n, 0, "empty jls");
	IS_INT(fb_parse_jls("JID IP Address Hostname Path\n", &js), -1,
	    "default jls format is refused");
	fb_jails_release(&js);
}

static void
test_pfctl(void)
{
	struct fb_rules r = { NULL, 0 }, n = { NULL, 0 };
	char *t = slurp(SAMPLES "pfctl-sr-v.txt"), *u = slurp(SAMPLES
	    "pfctl-sn.txt");
	long block, ssh;

	fb_parse_pfctl(t, &r);
	IS_INT(r.n, 9, "nine rules, statistics lines dropped");
	IS_STR(r.n ? r.v[0] : "", "scrub in on vtnet0 all fragment reassemble",
	    "rule numbers dropped");
	block = fb_rules_find(&r, "block return in all", NULL);
	ssh = fb_rules_find(&r, "pass in quick ", "on vtnet0 ", "port = ssh",
	    "flags any", NULL);
	IS_INT(block, 1, "block rule found");
	IS_INT(ssh, 6, "ssh rule found");
	IS_INT(fb_rules_find(&r, "pass in quick ", "port = http", NULL), -1,
	    "no such rule");
	fb_parse_pfctl(u, &n);
	IS_INT(n.n, 4, "nat rules");
	OK(fb_rules_find(&n, "nat ", "on vtnet0 ", "10.17.0.0/24", NULL) == 0,
	    "nat of the subnet");
	OK(fb_rules_find(&n, "rdr pass ", "port = https", "-> 10.17.0.2 ",
	    NULL) == 2, "rdr of https to the proxy");
	fb_rules_release(&r);
	fb_rules_release(&n);
	free(t);
	free(u);
}

static void
test_small(void)
{
	struct buf b = BUF_INIT;
	char *t = slurp(SAMPLES "route-get-default.txt");

	IS_INT(fb_parse_route(t, &b), 0, "route parses");
	IS_STR(b.ptr, "vtnet0", "external interface");
	IS_INT(fb_parse_route("route: route has not been found\n", &b), -1,
	    "no default route");
	free(t);
	t = slurp(SAMPLES "ifconfig-bastille0.txt");
	IS_INT(fb_ifconfig_has(t, "10.17.0.1", 24), 1, "gateway address");
	IS_INT(fb_ifconfig_has(t, "10.17.0.1", 16), 0, "wrong prefix");
	IS_INT(fb_ifconfig_has(t, "10.17.0.10", 32), 1, "jail alias");
	IS_INT(fb_ifconfig_has(t, "10.17.0.3", 32), 0, "absent address");
	free(t);
	IS_INT(fb_parse_version("14.3-RELEASE-p2\n", &b), 0, "version");
	IS_STR(b.ptr, "14.3-RELEASE", "patch level dropped");
	IS_INT(fb_parse_version("15.0-STABLE\n", &b), 0, "stable");
	IS_STR(b.ptr, "15.0-STABLE", "stable kept");
	IS_INT(fb_parse_version("freebsd-version: not found\n", &b), -1,
	    "not a version");
	buf_release(&b);
}

static void
test_script(void)
{
	struct fb_script sc = { NULL, 0, 0 };
	struct buf b = BUF_INIT;
	struct diag *d = diag_new();

	fb_cmd(&sc, "bastille", "cmd", "deploy-blog", "echo", "it's $HOME",
	    "", NULL);
	fb_cmd(&sc, "bastille", "bootstrap", "14.3-RELEASE", NULL);
	fb_guard(&sc, "test", "-d", "/usr/local/bastille/releases/14.3-RELEASE",
	    NULL);
	fb_write_file(&sc, "/etc/pf.conf.new", "a\nb 'c' $d\n");
	fb_cmd(&sc, "bastille", "start", "www-blog", NULL);
	fb_guard(&sc, "jls", "-j", "www-blog", NULL);
	fb_cmd(&sc, "pfctl", "-e", NULL);
	fb_may_fail(&sc);
	IS_INT(fb_script_sh(&sc, &b, d), 0, "script renders");
	IS_STR(b.ptr,
	    "bastille cmd deploy-blog echo 'it'\\''s $HOME' ''\n"
	    "test -d /usr/local/bastille/releases/14.3-RELEASE"
	    " || bastille bootstrap 14.3-RELEASE\n"
	    "cat > /etc/pf.conf.new <<'DEPLOY_EOF'\na\nb 'c' $d\nDEPLOY_EOF\n"
	    "jls -j www-blog >/dev/null 2>&1 || bastille start www-blog\n"
	    "pfctl -e || true\n", "script text");
	buf_clear(&b);
	fb_write_file(&sc, "/x", "DEPLOY_EOF\n");
	IS_INT(fb_script_sh(&sc, &b, d), -1, "delimiter in text refused");
	fb_script_release(&sc);
	fb_write_file(&sc, "/x", "no newline");
	IS_INT(fb_script_sh(&sc, &b, d), -1, "text without newline refused");
	fb_script_release(&sc);
	buf_clear(&b);
	{
		char *argv[] = { "cat", "/usr/local/etc/nginx/nginx.conf",
		    NULL };

		fb_replay_key(argv, &b);
		IS_STR(b.ptr, "cat__usr_local_etc_nginx_nginx.conf",
		    "replay key");
	}
	buf_release(&b);
	diag_free(d);
}

static void
test_pf_conf(void)
{
	static const char yaml[] =
	    "name: www\nplatform: freebsd-bastille\n"
	    "host: ssh://root@host.example:2222\n"
	    "network: {bridge: bastille0, subnet: 10.17.0.0/24, "
	    "proxy: 10.17.0.2, ports: ['80 -> 80', '443 -> 443', "
	    "'198.51.100.7:8443 -> 443']}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/deploy}\n"
	    "sites:\n  - {name: blog, domains: [blog.test], source: /tmp}\n";
	struct diag *d = diag_new();
	struct spec *s = spec_parse("pf.yaml", yaml, sizeof(yaml) - 1, d);
	struct buf b = BUF_INIT;
	const char *order[] = { "ext_if=\"vtnet0\"", "set skip on lo",
	    "scrub in", "nat on $ext_if from $jail_net to any -> ($ext_if:0)",
	    "rdr pass on $ext_if inet proto tcp from any to ($ext_if) port 80 "
	    "-> $proxy port 80",
	    "rdr pass on $ext_if inet proto tcp from any to ($ext_if) port 443 "
	    "-> $proxy port 443",
	    "rdr pass on $ext_if inet proto tcp from any to 198.51.100.7 port "
	    "8443 -> $proxy port 443",
	    "rdr-anchor \"rdr/*\"", "block in all", "anchor \"bastille/*\"",
	    "pass out quick keep state",
	    "pass in quick on $ext_if inet proto tcp from any to ($ext_if) "
	    "port 2222 flags any keep state", NULL };
	const char *at, *prev;
	size_t i;

	OK(s != NULL, "spec parses");
	if (s == NULL) {
		diag_print(d, 0, stderr, 0);
		diag_free(d);
		return;
	}
	fb_pf_conf(s, "vtnet0", 2222, 1, &b);
	prev = b.ptr;
	for (i = 0; order[i] != NULL; i++) {
		at = strstr(prev, order[i]);
		OK(at != NULL, "pf.conf has, in order: %s", order[i]);
		if (at != NULL)
			prev = at;
	}
	OK(strstr(b.ptr, "from <jails>") == NULL, "NAT not by <jails>");
	OK(strstr(b.ptr, "jail_net=\"10.17.0.0/24\"") != NULL, "subnet macro");
	buf_clear(&b);
	fb_pf_conf(s, "em0", 22, 0, &b);
	OK(strstr(b.ptr, "anchor") == NULL, "no anchors without Bastille");
	OK(strstr(b.ptr, "port 22 flags any") != NULL, "default ssh port");
	buf_release(&b);
	spec_free(s);
	diag_free(d);
}

/* The apply path without ssh: host local runs each line with sh -c. */
static void
test_exec_local(void)
{
	static const char yaml[] =
	    "name: www\nplatform: freebsd-jail\n"
	    "network: {bridge: bastille0, subnet: 10.17.0.0/24, "
	    "proxy: 10.17.0.2}\n"
	    "proxy: {kind: caddy, tls: internal}\n"
	    "releases: {root: /srv/deploy}\n"
	    "sites:\n  - {name: blog, domains: [blog.test], source: /tmp}\n";
	struct diag *d = diag_new();
	struct spec *s = spec_parse("x.yaml", yaml, sizeof(yaml) - 1, d);
	struct fb_host *h;
	struct fb_script sc = { NULL, 0, 0 };
	char dir[] = "/tmp/fbexec.XXXXXX", path[64], *got;
	struct buf b = BUF_INIT;

	if (s == NULL || mkdtemp(dir) == NULL) {
		OK(0, "setup");
		return;
	}
	h = fb_host_new(s);
	snprintf(path, sizeof(path), "%s/sub/it's.conf", dir);
	fb_write_file(&sc, path, "line $HOME 'q'\n");
	fb_cmd(&sc, "test", "-d", "/nonexistent", NULL);
	fb_may_fail(&sc);
	IS_INT(fb_host_exec(h, &sc, d), 0, "script runs");
	got = slurp(path);
	IS_STR(got, "line $HOME 'q'\n", "file written byte for byte");
	free(got);
	fb_script_release(&sc);
	fb_cmd(&sc, "false", NULL);
	fb_cmd(&sc, "touch", path, NULL);
	snprintf(path, sizeof(path), "%s/not-made", dir);
	fb_cmd(&sc, "touch", path, NULL);
	IS_INT(fb_host_exec(h, &sc, d), -1, "a failure stops the script");
	OK(access(path, F_OK) == -1, "nothing after the failure ran");
	OK(diag_count(d, DIAG_ERROR) == 1 && strstr(diag_message(d, 0),
	    "false: exit 1") != NULL, "the failing command is named");
	fb_script_release(&sc);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	IS_INT(system(path), 0, "cleanup");
	fb_host_free(h);
	buf_release(&b);
	spec_free(s);
	diag_free(d);
}

int
main(void)
{
	test_bastille_list();
	test_jls();
	test_pfctl();
	test_small();
	test_script();
	test_pf_conf();
	test_exec_local();
	return tap_done();
}
