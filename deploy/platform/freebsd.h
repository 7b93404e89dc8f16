#ifndef DEPLOY_FREEBSD_H
#define DEPLOY_FREEBSD_H

#include <stddef.h>

#include "buf.h"
#include "confgen.h"
#include "diag.h"
#include "driver.h"
#include "plan.h"
#include "spec.h"

/*
 * What the two FreeBSD drivers (freebsd-bastille, freebsd-jail) share:
 * host commands as argument arrays that print as POSIX sh and run over
 * ssh, pf.conf and rc.conf lines generated from the spec, and parsers for
 * the output of `bastille list`, `jls` and `pfctl -sr`.
 */

/* ---- host commands ---- */

struct fb_cmd {
	char		**argv;		/* NULL-terminated */
	char		**guard;	/* run argv only when this fails, or NULL */
	char		*input;		/* written to stdin (a here-document) */
	char		*out_file;	/* stdout to this file, or NULL */
	int		 may_fail;	/* failure is expected: `|| true` */
};

struct fb_script {
	struct fb_cmd	*v;
	size_t		 n, cap;
};

/* Appends one command; the words end with NULL and are copied. */
void	fb_cmd(struct fb_script *sc, const char *w0, ...);
/* The same, with text for its standard input. */
void	fb_cmd_input(struct fb_script *sc, const char *input, const char *w0,
	    ...);
/* Turns the last command into "guard || command" (words end with NULL). */
void	fb_guard(struct fb_script *sc, const char *w0, ...);
/* Marks the last command as allowed to fail. */
void	fb_may_fail(struct fb_script *sc);
void	fb_script_release(struct fb_script *sc);

/* One command as a line of sh, every word quoted, without its input. */
void	fb_cmd_line(const struct fb_cmd *c, struct buf *out);
/* A whole script: lines, inputs as quoted here-documents. 0, or -1 when
 * an input does not end with a newline or holds the delimiter. */
int	fb_script_sh(const struct fb_script *sc, struct buf *out,
	    struct diag *d);

/*
 * Runs commands on the spec's host: through ssh (batch mode, strict host
 * key checking, argument array; the remote line quoted with esc_shell),
 * or locally with sh -c for host local. With a replay folder, commands are
 * answered from recorded outputs instead: the file named by fb_replay_key
 * holds the output, a missing file means the command failed.
 */
struct fb_host;

struct fb_host *fb_host_new(const struct spec *s);
void	fb_host_replay(struct fb_host *h, const char *dir);
/* Stdout into out (cleared); the exit status, or -1 with a diagnostic when
 * the command could not be run at all. */
int	fb_host_run(struct fb_host *h, const struct fb_cmd *c, struct buf *out,
	    struct diag *d);
/* Runs a script in order, stopping at the first failure. 0 or -1. In
 * replay mode nothing runs and the script is appended to the host's
 * journal instead (fb_host_journal). */
int	fb_host_exec(struct fb_host *h, const struct fb_script *sc,
	    struct diag *d);
/* Runs one command given as words (ending with NULL), for what it prints:
 * stdout into out (cleared); its status, 0 when it worked. */
int	fb_host_ask(struct fb_host *h, struct buf *out, struct diag *d,
	    const char *w0, ...);
const char *fb_host_journal(const struct fb_host *h);
void	fb_host_free(struct fb_host *h);
/* File name of a recorded output: the words joined by '_', every byte
 * outside [A-Za-z0-9.-] as '_'. */
void	fb_replay_key(char *const argv[], struct buf *out);

/* ---- what the drivers share ---- */

/* In-jail paths: the same on both drivers. */
#define FB_JAIL_STATE	"/var/deploy"
#define FB_JAIL_ROOT	"/usr/local/www/site"
#define FB_NGINX_DIR	"/usr/local/etc/nginx"
#define FB_CADDY_DIR	"/usr/local/etc/caddy"
#define FB_CADDY_ADMIN	"/var/run/caddy/caddy.sock"
#define FB_CADDY_DATA	"/var/db/caddy/data/caddy"
#define FB_PF_CONF	"/etc/pf.conf"
#define FB_GMID_CONF	"/usr/local/etc/gmid.conf"
#define FB_JAIL_TLS	FB_JAIL_STATE "/tls"
/* A site's socket folder, written by its jail (confgen.h), and where the
 * proxy jail sees every site's, read-only. */
#define FB_JAIL_SOCK	FB_JAIL_STATE "/" CONFGEN_SOCK_DIR
#define FB_JAIL_SOCKS	FB_JAIL_STATE "/sites"

struct fb_driver;

/* The part that differs between Bastille and jail.conf. */
struct fb_flavour {
	const char	*platform;
	/* Host path of the jail's root folder (appended to out). */
	void	(*jail_root)(const struct fb_driver *, const char *jail,
		    struct buf *out);
	/* Observes jails: sets jail and running of every entry in o, adds
	 * strays (fb_observed_add). 0 or -1. */
	int	(*observe_jails)(struct fb_driver *, struct observed *o,
		    struct diag *d);
	/* Commands for one action, appended to sc. 0 or -1. */
	int	(*commands)(struct fb_driver *, const struct action *a,
		    struct fb_script *sc, struct diag *d);
	/* Bastille's anchors in pf.conf (rdr-anchor, anchor). */
	int	 pf_anchors;
};

struct fb_driver {
	struct driver	 pub;
	const struct fb_flavour *fl;
	struct fb_host	*host;
	char		*release;	/* FreeBSD release of the jails */
	char		*ext_if;	/* the host's external interface */
	char		*arch;		/* download folder: amd64, arm64/aarch64 */
	int		 pf_ready;	/* NAT in place: jails can fetch packages */
};

/* Opens a FreeBSD driver of the given flavour (called by the drivers). */
struct driver *fb_driver_open(const struct spec *s, const struct fb_flavour *fl,
	    const struct driver_ops *ops, struct diag *d);
/* Answers from recorded outputs in dir from now on (tests, dry runs). */
void	fb_driver_replay(struct driver *drv, const char *dir);

/*
 * The POSIX sh script that apply would run for p, with a header naming
 * the spec: what `deploy plan` shows for the FreeBSD platforms. 0 or -1.
 */
int	freebsd_plan_script(struct driver *drv, const struct plan *p,
	    struct buf *out, struct diag *d);

/*
 * Restarts the Gemini jail's gmid, which opens the capsule folder when it
 * starts: after a switch it serves the new current. 0 or -1.
 */
int	freebsd_gemini_restart(struct driver *drv, struct diag *d);
/* after_switch: gmid restarted when the site has a capsule. */
int	fb_after_switch(struct driver *drv, const struct spec_site *site,
	    struct diag *d);

/* Host name of a jail: "<spec name>-<jail>". */
void	fb_jail_name(const struct spec *s, const char *jail, struct buf *out);
/* "nginx", "caddy", or "gmid" for the Gemini jail. */
const char *fb_server(const struct spec *s, const char *jail);
/* The jail's address: a site's, the proxy's or the Gemini jail's. */
const char *fb_jail_addr(const struct spec *s, const char *jail);
/* The site whose releases the jail shows at FB_JAIL_ROOT (a site's own,
 * the Gemini site's for "gemini"), or NULL for the proxy. */
const char *fb_site_of(const struct spec *s, const char *jail);
/*
 * The Gemini jail's certificate, self-signed for the site's first domain:
 * made on the host in state/jails/gemini/tls (the folder is mounted
 * read-only at FB_JAIL_TLS), only when it is not there yet, so a jail
 * made again keeps the certificate its readers pinned.
 */
void	fb_gemini_cert(const struct spec *s, struct fb_script *sc);
/* That folder on the host, appended to out. */
void	fb_gemini_tls_dir(const struct spec *s, struct buf *out);
/*
 * The host folder of the sites' sockets (state/socks, the proxy's
 * FB_JAIL_SOCKS), or with site the one a site's jail writes its socket in
 * (state/socks/SITE/sock, its FB_JAIL_SOCK): appended to out.
 */
void	fb_socks_dir(const struct spec *s, const char *site, struct buf *out);
/* In-jail path of the jail's server config. */
const char *fb_conf_file(const struct spec *s, const char *jail);
/* The user nginx runs as: spec user, www for Debian's default. */
const char *fb_user(const struct spec *s);

/* Generated configs (shared ops of both drivers). */
int	fb_config(struct driver *drv, const char *jail, struct buf *out,
	    char **path, struct diag *d);
int	fb_observe(struct driver *drv, struct observed *o, struct diag *d);
int	fb_execute(struct driver *drv, const struct action *a, struct diag *d);
void	fb_describe(struct driver *drv, const char *jail, struct buf *out);
int	fb_proxy_ca(struct driver *drv, struct buf *pem, struct diag *d);
int	fb_enter(struct driver *drv, const char *jail);
char	*fb_log_path(struct driver *drv, const char *jail);
void	fb_free(struct driver *drv);
void	fb_observed_add(struct observed *o, const char *name, int wanted);

/* Network: cloned lo1 renamed to the spec's bridge, gateway address. */
void	fb_network_create(const struct spec *s, struct fb_script *sc);
void	fb_network_destroy(const struct spec *s, struct fb_script *sc);
/* Config file placed by the caller at tmp inside the jail, checked by the
 * server, then moved over the live one: the validate step as argv. */
void	fb_check_argv(const struct spec *s, const char *jail, const char *tmp,
	    const char *argv[8]);
/* Writes text to a host file through the script (mkdir -p of its folder,
 * then cat > path, the text as a here-document). */
void	fb_write_file(struct fb_script *sc, const char *path, const char *text);

/* Folders holding the files the proxy reads from the host: the nginx
 * proxy's certificates, a private ACME root (malloc'd, at most
 * max): mounted read-only at the same path in the proxy jail. */
size_t	fb_cert_dirs(const struct spec *s, char *dirs[], size_t max);

/* fb_acme.c: nginx with tls acme (acme.h). The commands a proxy action
 * adds: client, folders, renewal script and cron entry with its config;
 * the script run once nginx is up; both removed with the jail. With
 * Caddy and tls acme: the forced-renewal script, removed with the jail. */
void	fb_acme_commands(struct fb_driver *fd, const struct action *a,
	    struct fb_script *sc);
/* The renewal script for the ACME folder dir (host path), and where it
 * lives on the host. */
void	fb_acme_script(const struct spec *s, const char *dir, struct buf *out);
void	fb_acme_script_path(const struct spec *s, struct buf *out);
/* Caddy with tls acme: the script that forces a renewal now, for the
 * proxy jail whose root is root (host path), and where it lives on the
 * host; apply writes it, destroy removes it. */
void	fb_caddy_renew_script(const struct spec *s, const char *root,
	    struct buf *out);
void	fb_caddy_renew_path(const struct spec *s, struct buf *out);

/* Implemented by driver_bastille.c and driver_jail.c. */
struct driver *driver_bastille_open(const struct spec *s, struct diag *d);
struct driver *driver_jail_open(const struct spec *s, struct diag *d);

/* ---- pf ---- */

/*
 * pf.conf for the spec: NAT of the jails' subnet out of ext_if (never by
 * the <jails> table, which Bastille leaves empty for on-link addresses),
 * rdr of the spec's ports to the proxy, the host's SSH port kept open
 * (flags any, so a session open before pf starts survives), the rest of
 * the inbound traffic blocked. anchors adds Bastille's rdr-anchor and
 * anchor lines (`bastille rdr` needs them).
 */
void	fb_pf_conf(const struct spec *s, const char *ext_if, int ssh_port,
	    int anchors, struct buf *out);
void	fb_pf_load(struct fb_script *sc, const char *text);

/* ---- parsers ---- */

struct fb_jail {
	char		*name;
	char		*ip;		/* first IPv4 address, or "" */
	char		*path;		/* jls only, or "" */
	int		 up;		/* bastille list: State Up; jls: 1 */
};

struct fb_jails {
	struct fb_jail	*v;
	size_t		 n;
};

/* `bastille list` (1.x: JID Name Boot Prio State Type IP Address ...;
 * 0.x: JID IP Address Hostname Path). 0, or -1 without a known header. */
int	fb_parse_bastille_list(const char *text, struct fb_jails *out);
/* `jls name ip4.addr path`: one jail per line. 0 or -1. */
int	fb_parse_jls(const char *text, struct fb_jails *out);
const struct fb_jail *fb_jails_find(const struct fb_jails *js,
	    const char *name);
void	fb_jails_release(struct fb_jails *js);

/* `pfctl -sr` / `pfctl -sn`: one rule a line, "@N" numbers and the
 * indented statistics lines of -v dropped. */
struct fb_rules {
	char		**v;
	size_t		 n;
};
void	fb_parse_pfctl(const char *text, struct fb_rules *out);
void	fb_rules_release(struct fb_rules *r);
/* Index of the first rule starting with prefix and containing every
 * further string (NULL-terminated), or -1. */
long	fb_rules_find(const struct fb_rules *r, const char *prefix, ...);

/* `ifconfig NAME`: 1 when it carries inet addr with the given prefix. */
int	fb_ifconfig_has(const char *text, const char *addr, int prefix);
/* `route -n get default`: the interface into out. 0 or -1. */
int	fb_parse_route(const char *text, struct buf *out);
/* `freebsd-version -u` (14.3-RELEASE-p2) into out as 14.3-RELEASE. */
int	fb_parse_version(const char *text, struct buf *out);

#endif
