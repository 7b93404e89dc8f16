/*
 * FreeBSD: the nginx proxy's ACME certificates (acme.h). lego (package
 * lego, port security/lego) runs on the host and writes into the proxy
 * jail's ACME folder, which the jail sees at FB_JAIL_STATE/acme; a
 * renewal script written by the plan (checked with sh -n like the plan
 * itself) obtains what is missing or due, and a cron(8) entry runs it
 * twice a day. The proxy reads its certificate at each handshake, so
 * nothing is reloaded.
 */
#include <stdlib.h>
#include <string.h>

#include "acme.h"
#include "escape.h"
#include "freebsd.h"

/* Host path of the renewal script. */
void
fb_acme_script_path(const struct spec *s, struct buf *out)
{
	buf_printf(out, "%s/acme-renew.sh", s->state);
}

static void
word(struct buf *out, const char *s)
{
	esc_shell(out, s, strlen(s));
}

void
fb_acme_script(const struct spec *s, const char *dir, struct buf *out)
{
	const char *server = s->proxy.acme_ca ? s->proxy.acme_ca :
	    "https://acme-v02.api.letsencrypt.org/directory";
	size_t i, j;

	buf_printf(out,
	    "#!/bin/sh\n"
	    "# Certificate renewal of %s, written by deploy apply: do not "
	    "edit.\n"
	    "# Each site's certificate is renewed at 2/3 of its lifetime, or "
	    "when it is\n"
	    "# missing or lacks a name; with \"now\", every one. The proxy "
	    "reads it at\n"
	    "# each handshake: nothing is reloaded.\n"
	    "set -u\n"
	    "acme=", s->name);
	word(out, dir);
	buf_adds(out, "\nserver=");
	word(out, server);
	buf_adds(out, "\nemail=");
	word(out, s->proxy.email ? s->proxy.email : "");
	buf_adds(out, "\nowner=");
	word(out, strcmp(s->user, "www-data") == 0 ? "www" : s->user);
	buf_addc(out, '\n');
	if (s->proxy.acme_ca_root != NULL) {
		buf_adds(out, "LEGO_CA_CERTIFICATES=");
		word(out, s->proxy.acme_ca_root);
		buf_adds(out, "\nexport LEGO_CA_CERTIFICATES\n");
	}
	buf_adds(out,
	    "force=${1:-}\n"
	    "rc=0\n"
	    "\n"
	    "epoch() {\t# epoch FIELD PEM: notBefore or notAfter, in seconds\n"
	    "\td=$(openssl x509 -noout \"-$2\" -in \"$1\" | sed 's/^[^=]*=//')\n"
	    "\tTZ=UTC date -j -f '%b %e %T %Y GMT' \"$d\" +%s\n"
	    "}\n"
	    "\n"
	    "due() {\t# due PEM NAME...: true when PEM must be renewed\n"
	    "\tpem=$1\n"
	    "\tshift\n"
	    "\t[ -s \"$pem\" ] || return 0\n"
	    "\topenssl x509 -noout -issuer -in \"$pem\" |\n"
	    "\t    grep -q 'deploy placeholder' && return 0\n"
	    "\tsans=\"$(openssl x509 -noout -ext subjectAltName -in \"$pem\" |\n"
	    "\t    tr -d ' \\n'),\"\n"
	    "\tfor n in \"$@\"; do\n"
	    "\t\tcase $sans in *\"DNS:$n,\"*) ;; *) return 0 ;; esac\n"
	    "\tdone\n"
	    "\tstart=$(epoch \"$pem\" startdate) || return 0\n"
	    "\tend=$(epoch \"$pem\" enddate) || return 0\n"
	    "\t[ \"$(date +%s)\" -ge $((start + (end - start) * 2 / 3)) ]\n"
	    "}\n"
	    "\n"
	    "renew() {\t# renew SITE NAME...: lego, then chain and key in one "
	    "file\n"
	    "\tsite=$1\n"
	    "\tshift\n"
	    "\tpem=$acme/live/$site.pem\n"
	    "\t[ \"$force\" = now ] || due \"$pem\" \"$@\" || return 0\n"
	    "\tfirst=$1\n"
	    "\targs=\"\"\n"
	    "\tfor n in \"$@\"; do args=\"$args -d $n\"; done\n"
	    "\twhen=$(date -u +%Y-%m-%dT%H:%M:%SZ)\n"
	    "\t# shellcheck disable=SC2086 # names are checked domain names\n"
	    "\tif ! out=$(lego --accept-tos --path \"$acme/lego\" --server "
	    "\"$server\" \\\n"
	    "\t    ${email:+--email \"$email\"} --http --http.webroot "
	    "\"$acme/webroot\" \\\n"
	    "\t    $args run 2>&1); then\n"
	    "\t\twhy=$(printf '%s\\n' \"$out\" | sed '/^$/d' | tail -n 1 |\n"
	    "\t\t    sed 's|^[0-9]*/[0-9]*/[0-9]* [0-9:]* ||')\n"
	    "\t\techo \"$when failed: $why\" >\"$acme/attempt/$site\"\n"
	    "\t\tkept=\"the proxy keeps the one it has\"\n"
	    "\t\techo \"site $site: no certificate from $server: $why; $kept\" >&2\n"
	    "\t\trc=1\n"
	    "\t\treturn 0\n"
	    "\tfi\n"
	    "\tcrt=$acme/lego/certificates/$first\n"
	    "\tif ! { cat \"$crt.crt\"; echo; cat \"$crt.key\"; } >\"$pem.tmp\" ||\n"
	    "\t    ! chmod 400 \"$pem.tmp\" || ! chown \"$owner\" \"$pem.tmp\" ||\n"
	    "\t    ! mv \"$pem.tmp\" \"$pem\"; then\n"
	    "\t\trc=1\n"
	    "\t\treturn 0\n"
	    "\tfi\n"
	    "\tserial=$(openssl x509 -noout -serial -in \"$pem\" | "
	    "sed 's/^serial=//')\n"
	    "\techo \"$when ok, serial $serial\" >\"$acme/attempt/$site\"\n"
	    "\techo \"certificate $site: $*, serial $serial\"\n"
	    "}\n"
	    "\n");
	for (i = 0; i < s->nsites; i++) {
		const struct spec_site *site = &s->sites[i];

		buf_adds(out, "renew ");
		word(out, site->name);
		for (j = 0; j < site->ndomains; j++) {
			buf_addc(out, ' ');
			word(out, site->domains[j]);
		}
		for (j = 0; j < site->nredirects; j++) {
			buf_addc(out, ' ');
			word(out, site->redirects[j].from);
		}
		buf_addc(out, '\n');
	}
	buf_adds(out, "exit \"$rc\"\n");
}

void
fb_caddy_renew_path(const struct spec *s, struct buf *out)
{
	buf_printf(out, "%s/caddy-renew.sh", s->state);
}

void
fb_caddy_renew_script(const struct spec *s, const char *root,
    struct buf *out)
{
	struct buf path = BUF_INIT;
	size_t i, j;

	buf_printf(out,
	    "#!/bin/sh\n"
	    "# Forced certificate renewal of %s's Caddy proxy, written by "
	    "deploy apply:\n"
	    "# do not edit. Caddy renews by itself what is due; this makes it "
	    "renew\n"
	    "# every certificate now. Through Caddy's admin socket it loads "
	    "the running\n"
	    "# config with every automation policy due (renewal_window_ratio "
	    "1), which\n"
	    "# Caddy renews in the background while serving the certificates "
	    "it has,\n"
	    "# waits until each name is served a new serial (at most 120 s), "
	    "then loads\n"
	    "# the proxy's Caddyfile back. Each load closes Caddy's idle "
	    "keep-alive\n"
	    "# connections, as any reload does.\n"
	    "set -u\n"
	    "sock=", s->name);
	buf_printf(&path, "%s" FB_CADDY_ADMIN, root);
	word(out, path.ptr);
	buf_adds(out, "\nconf=");
	buf_clear(&path);
	buf_printf(&path, "%s" FB_CADDY_DIR "/Caddyfile", root);
	word(out, path.ptr);
	buf_adds(out, "\naddr=");
	word(out, s->net.proxy_str);
	buf_adds(out, "\nserver=");
	word(out, s->proxy.acme_ca ? s->proxy.acme_ca :
	    "Caddy's default ACME servers");
	buf_adds(out, "\nnames=\"");
	for (i = 0; i < s->nsites; i++) {
		const struct spec_site *site = &s->sites[i];

		/* checked domain names: no quoting needed inside "" */
		for (j = 0; j < site->ndomains; j++)
			buf_printf(out, "%s%s", i + j ? " " : "",
			    site->domains[j]);
		for (j = 0; j < site->nredirects; j++)
			buf_printf(out, " %s", site->redirects[j].from);
	}
	buf_adds(out, "\"\n"
	    "pol=/config/apps/tls/automation/policies\n"
	    "\n"
	    "api() {\t# api METHOD PATH [curl options]: one admin request\n"
	    "\tm=$1\n"
	    "\tp=$2\n"
	    "\tshift 2\n"
	    "\tcurl -sS -f --unix-socket \"$sock\" -X \"$m\" \"$@\" "
	    "\"http://localhost$p\"\n"
	    "}\n"
	    "\n"
	    "serial() {\t# serial NAME: the serial of what the proxy serves "
	    "for NAME\n"
	    "\techo | openssl s_client -connect \"$addr:443\" -servername "
	    "\"$1\" 2>/dev/null |\n"
	    "\t    openssl x509 -noout -serial 2>/dev/null\n"
	    "}\n"
	    "\n"
	    "old=\"\"\n"
	    "for n in $names; do old=\"$old $n=$(serial \"$n\")\"; done\n"
	    "have=$(api GET \"$pol\") || exit 1\n"
	    "due=$(printf '%s\\n' \"$have\" |\n"
	    "    sed 's/\"subjects\":/\"renewal_window_ratio\":1,"
	    "\"subjects\":/g')\n"
	    "case $due in\n"
	    "*renewal_window_ratio*) ;;\n"
	    "*)\techo \"no automation policy names a site in Caddy's config\" "
	    ">&2\n"
	    "\texit 1 ;;\n"
	    "esac\n"
	    "rc=1\n"
	    "if api PATCH \"$pol\" -H 'Content-Type: application/json' \\\n"
	    "    -H 'Cache-Control: must-revalidate' --data-binary \"$due\" "
	    ">/dev/null; then\n"
	    "\ti=0\n"
	    "\twhile [ \"$i\" -lt 120 ]; do\n"
	    "\t\tleft=0\n"
	    "\t\tfor n in $names; do\n"
	    "\t\t\tcase \"$old \" in *\" $n=$(serial \"$n\") \"*) left=1 ;; "
	    "esac\n"
	    "\t\tdone\n"
	    "\t\t[ \"$left\" -eq 0 ] && { rc=0; break; }\n"
	    "\t\ti=$((i + 1))\n"
	    "\t\tsleep 1\n"
	    "\tdone\n"
	    "fi\n"
	    "api POST /load -H 'Content-Type: text/caddyfile' \\\n"
	    "    -H 'Cache-Control: must-revalidate' --data-binary \"@$conf\" "
	    ">/dev/null || rc=1\n"
	    "for n in $names; do echo \"certificate $n: $(serial \"$n\")\"; "
	    "done\n"
	    "[ \"$rc\" -eq 0 ] || echo \"no new certificate from $server "
	    "within 120 s; the proxy keeps the one it has: see Caddy's log\" "
	    ">&2\n"
	    "exit \"$rc\"\n");
	buf_release(&path);
}

/* Caddy with tls acme: the forced-renewal script, which the operator
 * runs (Caddy renews what is due by itself), and curl, which it uses. */
static void
caddy_commands(struct fb_driver *fd, const struct action *a,
    struct fb_script *sc)
{
	const struct spec *s = fd->pub.spec;
	struct buf root = BUF_INIT, script = BUF_INIT, text = BUF_INIT;

	fb_caddy_renew_path(s, &script);
	if (a->kind == ACT_CONFIG_WRITE) {
		fd->fl->jail_root(fd, "proxy", &root);
		fb_cmd(sc, "pkg", "install", "-y", "curl", NULL);
		fb_caddy_renew_script(s, root.ptr, &text);
		fb_write_file(sc, script.ptr, text.ptr);
		fb_cmd(sc, "chmod", "700", script.ptr, NULL);
	} else if (a->kind == ACT_JAIL_DESTROY)
		fb_cmd(sc, "rm", "-f", script.ptr, NULL);
	buf_release(&root);
	buf_release(&script);
	buf_release(&text);
}

void
fb_acme_commands(struct fb_driver *fd, const struct action *a,
    struct fb_script *sc)
{
	const struct spec *s = fd->pub.spec;
	struct buf dir = BUF_INIT, text = BUF_INIT, script = BUF_INIT;
	struct buf sub = BUF_INIT, cron = BUF_INIT;
	static const char *const subs[] = { "/webroot/.well-known/acme-challenge",
	    "/lego", "/live", "/attempt", NULL };
	size_t i;

	if (strcmp(a->target, "proxy") != 0)
		return;
	if (s->proxy.kind == PROXY_CADDY && s->proxy.tls == TLS_ACME) {
		caddy_commands(fd, a, sc);
		return;
	}
	if (!acme_hosted(s))
		return;
	fd->fl->jail_root(fd, "proxy", &dir);
	buf_adds(&dir, FB_JAIL_STATE ACME_SUBDIR);
	fb_acme_script_path(s, &script);
	acme_schedule_path(s, &cron);
	switch (a->kind) {
	case ACT_CONFIG_WRITE:
		/* the client, its folders, the script and its schedule */
		fb_cmd(sc, "pkg", "install", "-y", "lego", NULL);
		for (i = 0; subs[i] != NULL; i++) {
			buf_clear(&sub);
			buf_printf(&sub, "%s%s", dir.ptr, subs[i]);
			fb_cmd(sc, "mkdir", "-p", sub.ptr, NULL);
		}
		fb_cmd(sc, "chmod", "711", dir.ptr, NULL);
		/* the script runs on the host: the jail's folder from there */
		fb_acme_script(s, dir.ptr, &text);
		fb_write_file(sc, script.ptr, text.ptr);
		fb_cmd(sc, "chmod", "700", script.ptr, NULL);
		buf_clear(&text);
		acme_cron_text(s, script.ptr, &text);
		fb_write_file(sc, cron.ptr, text.ptr);
		break;
	case ACT_SERVICE_START:
	case ACT_SERVICE_RELOAD:
		/* nginx answers the challenges now: what is missing or due */
		fb_cmd(sc, script.ptr, NULL);
		break;
	case ACT_JAIL_DESTROY:
		fb_cmd(sc, "rm", "-f", cron.ptr, script.ptr, NULL);
		break;
	default:
		break;
	}
	buf_release(&dir);
	buf_release(&text);
	buf_release(&script);
	buf_release(&sub);
	buf_release(&cron);
}
