/*
 * linux-netns servers: nginx or Caddy started inside a jail's network
 * namespace (a site's nginx also in a private mount namespace that shows
 * only its releases, read-only), stopped, and reloaded.
 */
#define _GNU_SOURCE

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "caddy_renew.h"
#include "confgen.h"
#include "linux_int.h"

/* ---- processes ---- */

ino_t
lx_netns_inode(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_ino : 0;
}

/*
 * The server's pid when it is alive and inside the jail's namespace; a
 * stale pid file never makes us signal an unrelated process.
 */
pid_t
lx_pid_in_jail(const struct spec *s, const char *jail, const char *pidfile)
{
	struct buf path = BUF_INIT, text = BUF_INIT, ns = BUF_INIT;
	pid_t pid = 0;
	long v;
	char *end;
	ino_t want;

	lx_jail_dir(&path, s, jail);
	buf_printf(&path, "/%s", pidfile);
	if (lx_read_text(path.ptr, &text) == -1)
		goto out;
	v = strtol(text.ptr, &end, 10);
	if (v <= 1 || v > INT_MAX || (*end != '\n' && *end != '\0'))
		goto out;
	if (kill((pid_t)v, 0) == -1)
		goto out;
	buf_printf(&ns, NETNS_DIR "/");
	lx_ns_name(&ns, s, jail);
	want = lx_netns_inode(ns.ptr);
	buf_clear(&path);
	buf_printf(&path, "/proc/%ld/ns/net", v);
	if (want != 0 && lx_netns_inode(path.ptr) == want)
		pid = (pid_t)v;
out:
	buf_release(&path);
	buf_release(&text);
	buf_release(&ns);
	return pid;
}

pid_t
lx_server_pid(const struct spec *s, const char *jail)
{
	if (lx_is_gemini(jail))
		return lx_pid_in_jail(s, jail, "run/molly-brown.pid");
	return lx_pid_in_jail(s, jail, lx_is_proxy(jail) &&
	    s->proxy.kind == PROXY_CADDY ? "run/caddy.pid" : "run/nginx.pid");
}

int
lx_enter_netns(const struct spec *s, const char *jail)
{
	struct buf ns = BUF_INIT;
	int fd, rc;

	buf_printf(&ns, NETNS_DIR "/");
	lx_ns_name(&ns, s, jail);
	fd = open(ns.ptr, O_RDONLY | O_CLOEXEC);
	buf_release(&ns);
	if (fd == -1)
		return -1;
	rc = setns(fd, CLONE_NEWNET);
	close(fd);
	return rc;
}

/* mkdir -p inside the jail's new root. */
static int
mkdirs_quiet(const char *path)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -1;
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(tmp, 0755) == -1 && errno != EEXIST ? -1 : 0;
}

/*
 * Mounts host path src at the same path under newroot: a folder or a
 * file, read-only unless rw. A symbolic link is recreated as a link.
 * Missing sources are skipped when optional.
 */
static int
graft(const char *newroot, const char *src, int rw, int optional)
{
	char dst[PATH_MAX], target[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd;

	if (lstat(src, &st) == -1)
		return optional ? 0 : -1;
	if (snprintf(dst, sizeof(dst), "%s%s", newroot, src) >=
	    (int)sizeof(dst))
		return -1;
	if (S_ISLNK(st.st_mode)) {
		if ((n = readlink(src, target, sizeof(target) - 1)) <= 0)
			return -1;
		target[n] = '\0';
		return symlink(target, dst) == -1 && errno != EEXIST ? -1 : 0;
	}
	if (S_ISDIR(st.st_mode)) {
		if (mkdirs_quiet(dst) == -1)
			return -1;
	} else {
		char *slash = strrchr(dst, '/');

		*slash = '\0';
		if (mkdirs_quiet(dst) == -1)
			return -1;
		*slash = '/';
		if ((fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) == -1)
			return -1;
		close(fd);
	}
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) == -1)
		return -1;
	if (!rw && mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY |
	    MS_NOSUID | MS_NODEV, NULL) == -1)
		return -1;
	return 0;
}

/*
 * The root a site's nginx (or the Gemini jail's server) sees: the
 * system's programs and libraries and the few files nginx reads,
 * read-only; its own releases read-only; its own logs, temp files and pid
 * writable; nothing else of the host (no other site, no proxy key, no
 * /root, no /home). Called in the child, inside a private mount namespace.
 */
int
lx_site_root(const struct spec *s, const char *jail, const char *newroot)
{
	const char *site = jail;
	static const char *const sys[] = { "/usr", "/bin", "/sbin", "/lib",
	    "/lib32", "/lib64", "/libx32", NULL };
	static const char *const etc[] = { "/etc/passwd", "/etc/group",
	    "/etc/nsswitch.conf", "/etc/ld.so.cache", "/etc/localtime",
	    "/etc/nginx", NULL };
	static const char *const dev[] = { "/dev/null", "/dev/zero",
	    "/dev/urandom", "/dev/random", NULL };
	struct buf p = BUF_INIT;
	size_t i;
	int rc = -1;

	/* The Gemini jail serves the capsule of its site's releases. */
	if (lx_is_gemini(jail)) {
		if (spec_gemini_site(s) == NULL)
			return -1;
		site = spec_gemini_site(s)->name;
	}
	if (mount("tmpfs", newroot, "tmpfs", MS_NOSUID | MS_NODEV,
	    "mode=0755,size=256k") == -1)
		return -1;
	for (i = 0; sys[i] != NULL; i++)
		if (graft(newroot, sys[i], 0, 1) == -1)
			goto out;
	for (i = 0; etc[i] != NULL; i++)
		if (graft(newroot, etc[i], 0, 1) == -1)
			goto out;
	for (i = 0; dev[i] != NULL; i++)
		if (graft(newroot, dev[i], 1, 1) == -1)
			goto out;
	buf_printf(&p, "%s/%s", s->releases.root, site);
	if (graft(newroot, p.ptr, 0, 0) == -1)
		goto out;
	/* The config is read-only; logs, temp files and the pid are not. */
	buf_clear(&p);
	lx_jail_dir(&p, s, jail);
	if (graft(newroot, p.ptr, 0, 0) == -1)
		goto out;
	buf_adds(&p, "/logs");
	if (graft(newroot, p.ptr, 1, 0) == -1)
		goto out;
	buf_truncate(&p, p.len - 5);
	buf_adds(&p, "/tmp");
	if (graft(newroot, p.ptr, 1, 0) == -1)
		goto out;
	buf_truncate(&p, p.len - 4);
	buf_adds(&p, "/run");
	if (graft(newroot, p.ptr, 1, 0) == -1)
		goto out;
	/* A site's socket for the proxy: the one folder it shares. */
	buf_truncate(&p, p.len - 4);
	buf_adds(&p, "/" CONFGEN_SOCK_DIR);
	if (lx_is_site(jail) && graft(newroot, p.ptr, 1, 0) == -1)
		goto out;
	if (mkdirs_quiet(newroot) == -1 || chdir(newroot) == -1 ||
	    syscall(SYS_pivot_root, ".", ".") == -1 ||
	    umount2(".", MNT_DETACH) == -1 || chdir("/") == -1)
		goto out;
	/* Nothing new appears in the root itself. */
	if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID |
	    MS_NODEV, "mode=0755,size=256k") == -1)
		goto out;
	rc = 0;
out:
	buf_release(&p);
	return rc;
}

/*
 * Starts a server in the jail. The child enters the network namespace
 * (and, for a site or the Gemini jail, a private mount namespace), then a
 * grandchild execs the server so it is not our child; nginx daemonizes
 * itself, Caddy and molly-brown are given a session of their own with
 * output to their log. With pidfile, the child writes the grandchild's
 * pid there (molly-brown keeps none); with pw, the grandchild runs as
 * that user.
 */
static int
start_server(const struct spec *s, const char *jail, char *const argv[],
    const char *logfile, char *const envp[], const char *pidfile,
    const struct passwd *pw, struct diag *d)
{
	struct buf root = BUF_INIT, sdir = BUF_INIT;
	int fds[2], st, err = 0;
	pid_t pid;
	ssize_t n;
	const struct spec_site *site = lx_is_proxy(jail) ? NULL :
	    lx_is_gemini(jail) ? spec_gemini_site(s) : spec_site(s, jail);

	if (site != NULL) {
		buf_printf(&root, "%s/%s", s->releases.root, site->name);
		lx_jail_dir(&sdir, s, jail);
	}
	if (pipe2(fds, O_CLOEXEC) == -1)
		return diag_error(d, NULL, 0, "pipe: %s", strerror(errno));
	if ((pid = fork()) == -1) {
		diag_error(d, NULL, 0, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null, out;

		close(fds[0]);
		if (lx_enter_netns(s, jail) == -1) {
			err = errno;
			goto fail;
		}
		if (site != NULL) {
			buf_adds(&sdir, "/jail");
			if (unshare(CLONE_NEWNS) == -1 ||
			    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
			    NULL) == -1 ||
			    lx_site_root(s, jail, sdir.ptr) == -1) {
				err = errno;
				goto fail;
			}
		}
		if ((pid = fork()) == -1) {
			err = errno;
			goto fail;
		}
		if (pid > 0) {
			if (pidfile != NULL) {
				FILE *fp = fopen(pidfile, "w");

				if (fp == NULL || fprintf(fp, "%ld\n",
				    (long)pid) < 0 || fclose(fp) != 0) {
					err = errno;
					kill(pid, SIGKILL);
					goto fail;
				}
			}
			_exit(0);
		}
		setsid();
		null = open("/dev/null", O_RDWR);
		out = logfile ? open(logfile, O_WRONLY | O_CREAT | O_APPEND,
		    0644) : null;
		if (null >= 0)
			dup2(null, 0);
		if (out >= 0) {
			dup2(out, 1);
			dup2(out, 2);
		}
		if (pw != NULL && (setgroups(0, NULL) == -1 ||
		    setgid(pw->pw_gid) == -1 || setuid(pw->pw_uid) == -1)) {
			err = errno;
			goto fail;
		}
		if (envp != NULL)
			execvpe(argv[0], argv, envp);
		else
			execvp(argv[0], argv);
		err = errno;
fail:
		n = write(fds[1], &err, sizeof(err));
		(void)n;
		_exit(127);
	}
	close(fds[1]);
	n = read(fds[0], &err, sizeof(err));
	close(fds[0]);
	waitpid(pid, &st, 0);
	buf_release(&root);
	buf_release(&sdir);
	if (n == (ssize_t)sizeof(err)) {
		diag_error(d, NULL, 0, "start %s in jail %s: %s", argv[0], jail,
		    strerror(err));
		return -1;
	}
	return 0;
}

/* Waits until the server's pid is seen in its jail. */
static int
wait_running(const struct spec *s, const char *jail, int tenths)
{
	struct timespec ts = { 0, 100000000 };

	while (tenths-- > 0) {
		if (lx_server_pid(s, jail) > 0)
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static size_t
keep(char *p, size_t size, size_t n, void *u)
{
	if (u != NULL)
		buf_add(u, p, size * n);
	return size * n;
}

/*
 * One request to Caddy's admin socket, with body of type ctype when not
 * NULL; force loads a config even when it equals the running one. The
 * reply into reply when not NULL. HTTP status, or -1.
 */
static long
caddy_admin(const struct spec *s, const char *method, const char *path,
    const char *body, const char *ctype, int force, struct buf *reply,
    struct diag *d)
{
	struct buf sock = BUF_INIT, url = BUF_INIT, type = BUF_INIT;
	struct curl_slist *h = NULL;
	CURL *c;
	CURLcode cc;
	long code = -1;

	lx_jail_dir(&sock, s, "proxy");
	buf_adds(&sock, "/admin.sock");
	buf_printf(&url, "http://localhost%s", path);
	if ((c = curl_easy_init()) == NULL)
		goto out;
	curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, sock.ptr);
	curl_easy_setopt(c, CURLOPT_URL, url.ptr);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, keep);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, reply);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
	/* Caddy loads a config equal to the running one only when told. */
	if (force)
		h = curl_slist_append(h, "Cache-Control: must-revalidate");
	if (body != NULL) {
		buf_printf(&type, "Content-Type: %s", ctype);
		h = curl_slist_append(h, type.ptr);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	}
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	cc = curl_easy_perform(c);
	if (cc != CURLE_OK) {
		if (d != NULL)
			diag_error(d, sock.ptr, 0, "caddy admin %s %s: %s",
			    method, path, curl_easy_strerror(cc));
	} else
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_cleanup(c);
out:
	curl_slist_free_all(h);
	buf_release(&sock);
	buf_release(&url);
	buf_release(&type);
	return code;
}

/* The proxy's Caddyfile loaded again, even when it is the running one. */
static int
caddy_load_file(const struct spec *s, int force, struct diag *d)
{
	struct buf conf = BUF_INIT, text = BUF_INIT;
	long code;
	int rc = -1;

	lx_conf_path(&conf, s, "proxy");
	if (lx_read_text(conf.ptr, &text) == -1) {
		diag_error(d, conf.ptr, 0, "%s", strerror(errno));
		goto out;
	}
	/* POST /load blocks until the new config runs, or keeps the old
	 * one when it fails. */
	code = caddy_admin(s, "POST", "/load", text.ptr, "text/caddyfile",
	    force, NULL, d);
	if (code != 200) {
		if (code != -1)
			diag_error(d, conf.ptr, 0, "caddy refused the config "
			    "(HTTP %ld)", code);
		goto out;
	}
	rc = 0;
out:
	buf_release(&conf);
	buf_release(&text);
	return rc;
}

#define POLICIES "/config/apps/tls/automation/policies"

int
lx_caddy_renewal(const struct spec *s, const char *const *names, size_t n,
    struct diag *d)
{
	struct buf have = BUF_INIT, want = BUF_INIT, err = BUF_INIT;
	long code;
	int rc = -1;

	if (n == 0)
		return caddy_load_file(s, 1, d);
	code = caddy_admin(s, "GET", POLICIES, NULL, NULL, 0, &have, d);
	if (code != 200) {
		if (code != -1)
			diag_error(d, NULL, 0, "caddy admin GET %s: HTTP %ld",
			    POLICIES, code);
		goto out;
	}
	if (caddy_policies_due(have.ptr, names, n, &want, &err) == -1) {
		diag_error(d, NULL, 0, "renew: %s", err.ptr);
		goto out;
	}
	/* Forced: after an interrupted renewal this may be the running
	 * config already, and only a new load renews. */
	code = caddy_admin(s, "PATCH", POLICIES, want.ptr, "application/json",
	    1, &err, d);
	if (code != 200) {
		if (code != -1)
			diag_error(d, NULL, 0, "caddy refused the renewal "
			    "config (HTTP %ld): %s", code, err.ptr);
		goto out;
	}
	rc = 0;
out:
	buf_release(&have);
	buf_release(&want);
	buf_release(&err);
	return rc;
}

char **
lx_caddy_env(const struct spec *s)
{
	static char *env[5];
	static struct buf b[3] = { BUF_INIT, BUF_INIT, BUF_INIT };
	struct buf dir = BUF_INIT;

	lx_jail_dir(&dir, s, "proxy");
	buf_clear(&b[0]);
	buf_clear(&b[1]);
	buf_clear(&b[2]);
	buf_printf(&b[0], "HOME=%s", dir.ptr);
	buf_printf(&b[1], "XDG_CONFIG_HOME=%s/config", dir.ptr);
	buf_printf(&b[2], "XDG_DATA_HOME=%s/data", dir.ptr);
	env[0] = b[0].ptr;
	env[1] = b[1].ptr;
	env[2] = b[2].ptr;
	env[3] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
	    "/sbin:/bin";
	env[4] = NULL;
	buf_release(&dir);
	return env;
}

int
lx_conf_path(struct buf *b, const struct spec *s, const char *jail)
{
	lx_jail_dir(b, s, jail);
	buf_adds(b, lx_is_gemini(jail) ? "/molly.conf" : lx_is_proxy(jail) &&
	    s->proxy.kind == PROXY_CADDY ? "/Caddyfile" : "/nginx.conf");
	return 0;
}

/*
 * The Gemini jail's certificate: self-signed for the site's first domain
 * (Gemini clients trust on first use), made once and kept, so clients
 * that pinned it keep trusting the capsule across applies. The key is
 * the server user's, since molly-brown runs as that user.
 */
int
lx_gemini_cert(const struct spec *s, struct diag *d)
{
	const struct spec_site *site = spec_gemini_site(s);
	struct buf dir = BUF_INIT, crt = BUF_INIT, key = BUF_INIT;
	struct buf subj = BUF_INIT, san = BUF_INIT;
	struct passwd *pw;
	int rc = -1;

	if (site == NULL || site->ndomains == 0)
		return diag_error(d, s->file, 0, "no site sets gemini");
	lx_jail_dir(&dir, s, "gemini");
	buf_adds(&dir, "/tls");
	buf_printf(&crt, "%s/cert.pem", dir.ptr);
	buf_printf(&key, "%s/key.pem", dir.ptr);
	if (lx_exists(crt.ptr) && lx_exists(key.ptr)) {
		rc = 0;
		goto out;
	}
	if ((pw = getpwnam(s->user)) == NULL) {
		diag_error(d, s->file, 0, "user %s: no such user", s->user);
		goto out;
	}
	buf_printf(&subj, "/CN=%s", site->domains[0]);
	buf_printf(&san, "subjectAltName=DNS:%s", site->domains[0]);
	if (lx_mkdirs(dir.ptr, 0755, d) == -1 ||
	    MUST(d, "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
	    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "36500",
	    "-subj", subj.ptr, "-addext", san.ptr, "-keyout", key.ptr,
	    "-out", crt.ptr) == -1)
		goto out;
	if (chown(key.ptr, pw->pw_uid, pw->pw_gid) == -1 ||
	    chmod(key.ptr, 0600) == -1 || chmod(crt.ptr, 0644) == -1) {
		diag_error(d, key.ptr, 0, "%s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	buf_release(&dir);
	buf_release(&crt);
	buf_release(&key);
	buf_release(&subj);
	buf_release(&san);
	return rc;
}

int
lx_start(struct ldrv *ld, const char *jail, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	struct buf dir = BUF_INIT, conf = BUF_INIT, elog = BUF_INIT;
	struct buf pid = BUF_INIT, log = BUF_INIT;
	int rc = -1, i;

	if (lx_server_pid(s, jail) > 0)
		return 0;
	lx_jail_dir(&dir, s, jail);
	lx_conf_path(&conf, s, jail);
	if (lx_jail_dirs(s, jail, d) == -1)
		goto out;
	if (lx_is_gemini(jail)) {
		char *argv[] = { "molly-brown", "-c", conf.ptr, NULL };
		struct passwd *pw = getpwnam(s->user);

		if (pw == NULL) {
			diag_error(d, s->file, 0, "user %s: no such user",
			    s->user);
			goto out;
		}
		if (lx_gemini_cert(s, d) == -1)
			goto out;
		buf_printf(&pid, "%s/run/molly-brown.pid", dir.ptr);
		buf_printf(&log, "%s/logs/molly-brown.log", dir.ptr);
		unlink(pid.ptr);
		if (start_server(s, jail, argv, log.ptr, NULL, pid.ptr, pw,
		    d) == -1)
			goto out;
		if (wait_running(s, jail, 50) == -1) {
			diag_error(d, log.ptr, 0, "molly-brown did not start in "
			    "jail %s; see this log", jail);
			goto out;
		}
	} else if (lx_is_proxy(jail) && s->proxy.kind == PROXY_CADDY) {
		char *argv[] = { "caddy", "run", "--adapter", "caddyfile",
		    "--config", conf.ptr, "--pidfile", NULL, NULL };

		buf_printf(&pid, "%s/run/caddy.pid", dir.ptr);
		buf_printf(&log, "%s/logs/caddy.log", dir.ptr);
		argv[7] = pid.ptr;
		unlink(pid.ptr);
		if (start_server(s, jail, argv, log.ptr, lx_caddy_env(s),
		    NULL, NULL, d) == -1)
			goto out;
		if (wait_running(s, jail, 150) == -1) {
			diag_error(d, log.ptr, 0, "caddy did not start in jail "
			    "%s; see this log", jail);
			goto out;
		}
		/* Up once the admin socket answers. */
		for (i = 0; i < 100; i++) {
			struct timespec ts = { 0, 100000000 };

			if (caddy_admin(s, "GET", "/config/", NULL, NULL, 0, NULL,
			    NULL) == 200)
				break;
			nanosleep(&ts, NULL);
		}
		if (i == 100) {
			diag_error(d, log.ptr, 0, "caddy admin socket does not "
			    "answer");
			goto out;
		}
	} else {
		char *argv[] = { "nginx", "-p", dir.ptr, "-c", conf.ptr, "-e",
		    NULL, NULL };

		buf_printf(&elog, "%s/logs/error.log", dir.ptr);
		argv[6] = elog.ptr;
		/* left by an nginx that was killed: its bind would fail */
		if (lx_is_site(jail)) {
			buf_printf(&pid, "%s/" CONFGEN_SOCK, dir.ptr);
			unlink(pid.ptr);
			buf_clear(&pid);
		}
		if (start_server(s, jail, argv, NULL, NULL, NULL, NULL,
		    d) == -1)
			goto out;
		if (wait_running(s, jail, 50) == -1) {
			diag_error(d, elog.ptr, 0, "nginx did not start in jail "
			    "%s; see this log", jail);
			goto out;
		}
	}
	rc = 0;
out:
	buf_release(&dir);
	buf_release(&conf);
	buf_release(&elog);
	buf_release(&pid);
	buf_release(&log);
	return rc;
}

int
lx_stop(struct ldrv *ld, const char *jail, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	struct timespec ts = { 0, 100000000 };
	pid_t pid = lx_server_pid(s, jail);
	int i;

	if (pid <= 0)
		return 0;
	/* nginx: graceful stop on QUIT; Caddy stops on TERM. */
	kill(pid, lx_is_gemini(jail) || (lx_is_proxy(jail) &&
	    s->proxy.kind == PROXY_CADDY) ? SIGTERM : SIGQUIT);
	for (i = 0; i < 100 && kill(pid, 0) == 0; i++)
		nanosleep(&ts, NULL);
	if (kill(pid, 0) == 0) {
		kill(pid, SIGKILL);
		for (i = 0; i < 20 && kill(pid, 0) == 0; i++)
			nanosleep(&ts, NULL);
	}
	if (kill(pid, 0) == 0) {
		diag_error(d, NULL, 0, "jail %s: server %ld does not stop",
		    jail, (long)pid);
		return -1;
	}
	return 0;
}

/* The child pids of pid, as " 12 34 " (spaces around each). */
static void
children(pid_t pid, struct buf *out)
{
	struct buf path = BUF_INIT, text = BUF_INIT;
	char *p;

	buf_printf(&path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	lx_read_text(path.ptr, &text);
	buf_clear(out);
	buf_addc(out, ' ');
	for (p = strtok(text.ptr, " \n"); p != NULL; p = strtok(NULL, " \n"))
		buf_printf(out, "%s ", p);
	buf_release(&path);
	buf_release(&text);
}

static int
new_child(pid_t pid, const char *old)
{
	struct buf now = BUF_INIT, one = BUF_INIT;
	char *p;
	int found = 0;

	children(pid, &now);
	for (p = strtok(now.ptr, " "); p != NULL && !found;
	    p = strtok(NULL, " ")) {
		buf_clear(&one);
		buf_printf(&one, " %s ", p);
		if (strstr(old, one.ptr) == NULL)
			found = 1;
	}
	buf_release(&now);
	buf_release(&one);
	return found;
}

/* Waits until none of the pids in list is alive (or tenths run out). */
static void
old_gone(const char *list, int tenths)
{
	struct timespec ts = { 0, 100000000 };
	const char *p;
	int alive;

	while (tenths-- > 0) {
		alive = 0;
		for (p = list; *p != '\0'; p++)
			if (*p != ' ' && (p == list || p[-1] == ' ') &&
			    kill((pid_t)atol(p), 0) == 0)
				alive = 1;
		if (!alive)
			return;
		nanosleep(&ts, NULL);
	}
}

int
lx_reload(struct ldrv *ld, const char *jail, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	struct buf text = BUF_INIT;
	pid_t pid;
	int rc = -1, i;

	/* molly-brown reads its config once: a new one means a restart. */
	if (lx_is_gemini(jail)) {
		if (lx_stop(ld, jail, d) == -1 || lx_start(ld, jail, d) == -1)
			goto out;
		rc = 0;
		goto out;
	}
	if (lx_is_proxy(jail) && s->proxy.kind == PROXY_CADDY) {
		rc = caddy_load_file(s, 0, d);
		goto out;
	}
	if ((pid = lx_server_pid(s, jail)) <= 0) {
		diag_error(d, NULL, 0, "jail %s: nginx is not running", jail);
		goto out;
	}
	children(pid, &text);
	if (kill(pid, SIGHUP) == -1) {
		diag_error(d, NULL, 0, "jail %s: kill: %s", jail,
		    strerror(errno));
		goto out;
	}
	/* The new config is live once a worker the old set lacks runs. */
	for (i = 0; i < 100; i++) {
		struct timespec ts = { 0, 50000000 };

		if (new_child(pid, text.ptr)) {
			/* Old workers still hold cached files of the last
			 * release: done when they are gone. */
			old_gone(text.ptr, 100);
			rc = 0;
			goto out;
		}
		nanosleep(&ts, NULL);
	}
	diag_error(d, NULL, 0, "jail %s: nginx kept its old configuration; "
	    "see its error.log", jail);
out:
	buf_release(&text);
	return rc;
}
