/*
 * linux-netns: a jail is a network namespace joined to a bridge by a veth
 * pair, with an nftables table of its own; a site's nginx also gets a
 * private mount namespace that shows its web root read-only and hides the
 * other sites. The host's ports reach the proxy by nftables DNAT.
 * Programs are started with argument arrays, never through a shell.
 */
#define _GNU_SOURCE

#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "confgen.h"
#include "driver.h"
#include "mem.h"

#define NETNS_DIR	"/run/netns"
#define JAIL_TABLE	"deploy_jail"

struct ldrv {
	struct driver	 pub;
	char		*ca;		/* Caddy's root certificate */
};

static const struct driver_ops linux_ops;

/* Runs argv, output captured into out (may be NULL). Exit status or -1. */
static int
run(char *const argv[], struct buf *out)
{
	int fds[2], st;
	pid_t pid;
	char chunk[4096];
	ssize_t n;

	if (pipe(fds) == -1)
		return -1;
	if ((pid = fork()) == -1) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0 ||
	    (n == -1 && errno == EINTR))
		if (n > 0 && out != NULL)
			buf_add(out, chunk, (size_t)n);
	close(fds[0]);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs argv; on failure records the command and its output. 0 or -1. */
static int
must(struct diag *d, char *const argv[])
{
	struct buf out = BUF_INIT, cmd = BUF_INIT;
	size_t i;
	int rc;

	rc = run(argv, &out);
	if (rc != 0) {
		for (i = 0; argv[i] != NULL; i++)
			buf_printf(&cmd, "%s%s", i ? " " : "", argv[i]);
		while (out.len > 0 && out.ptr[out.len - 1] == '\n')
			buf_truncate(&out, out.len - 1);
		diag_error(d, NULL, 0, "%s: exit %d%s%s", cmd.ptr, rc,
		    out.len ? ": " : "", out.ptr);
	}
	buf_release(&out);
	buf_release(&cmd);
	return rc == 0 ? 0 : -1;
}

#define MUST(d, ...) must((d), (char *const[]){ __VA_ARGS__, NULL })
#define QUIET(...) run((char *const[]){ __VA_ARGS__, NULL }, NULL)

static int
is_proxy(const char *jail)
{
	return strcmp(jail, "proxy") == 0;
}

static void
ns_name(struct buf *b, const struct spec *s, const char *jail)
{
	buf_printf(b, "%s-%s", s->name, jail);
}

static uint32_t
jail_addr(const struct spec *s, const char *jail)
{
	const struct spec_site *site;

	if (is_proxy(jail))
		return s->net.proxy;
	site = spec_site(s, jail);
	return site ? site->addr : 0;
}

/* Host end of the veth pair: bridge name and the host part in hex. */
static void
veth_name(struct buf *b, const struct spec *s, uint32_t addr)
{
	buf_printf(b, "%s-%x", s->net.bridge, addr - s->net.net);
}

/*
 * MAC addresses follow the IPv4 address (locally administered): a jail
 * made again answers with the same MAC, so no neighbour cache on the
 * bridge keeps pointing at a vanished interface.
 */
static void
mac_of(char out[18], uint32_t a)
{
	snprintf(out, 18, "02:de:%02x:%02x:%02x:%02x", a >> 24,
	    (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

static void
jail_dir(struct buf *b, const struct spec *s, const char *jail)
{
	if (is_proxy(jail))
		buf_printf(b, "%s/proxy", s->state);
	else
		buf_printf(b, "%s/sites/%s", s->state, jail);
}

static void
table_name(struct buf *b, const struct spec *s)
{
	const char *p;

	buf_adds(b, "deploy_");
	for (p = s->name; *p != '\0'; p++)
		buf_addc(b, *p == '-' ? '_' : *p);
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int
read_text(const char *path, struct buf *out)
{
	char chunk[8192];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Writes path atomically (temp file, fsync, rename). 0 or -1. */
static int
write_text(const char *path, const char *text, mode_t mode, struct diag *d)
{
	struct buf tmp = BUF_INIT;
	size_t len = strlen(text), off = 0;
	ssize_t n;
	int fd, rc = -1;

	buf_printf(&tmp, "%s.new", path);
	fd = open(tmp.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd == -1) {
		diag_error(d, tmp.ptr, 0, "%s", strerror(errno));
		goto out;
	}
	while (off < len) {
		if ((n = write(fd, text + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			diag_error(d, tmp.ptr, 0, "write: %s", strerror(errno));
			close(fd);
			goto out;
		}
		off += (size_t)n;
	}
	if (fsync(fd) == -1 || close(fd) == -1) {
		diag_error(d, tmp.ptr, 0, "%s", strerror(errno));
		goto out;
	}
	if (rename(tmp.ptr, path) == -1) {
		diag_error(d, path, 0, "rename: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc == -1)
		unlink(tmp.ptr);
	buf_release(&tmp);
	return rc;
}

static int
mkdirs(const char *path, mode_t mode, struct diag *d)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp)) {
		diag_error(d, path, 0, "path too long");
		return -1;
	}
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) == -1 && errno != EEXIST) {
			diag_error(d, tmp, 0, "mkdir: %s", strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(tmp, mode) == -1 && errno != EEXIST) {
		diag_error(d, tmp, 0, "mkdir: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* state/{logs,tmp,run} of a jail; the proxy's is private (Caddy's CA key). */
static int
jail_dirs(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	jail_dir(&b, s, jail);
	if (mkdirs(b.ptr, is_proxy(jail) ? 0700 : 0755, d) == -1)
		rc = -1;
	buf_adds(&b, "/logs");
	if (rc == 0 && mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	buf_truncate(&b, b.len - 5);
	buf_adds(&b, "/tmp");
	if (rc == 0 && mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	buf_truncate(&b, b.len - 4);
	buf_adds(&b, "/run");
	if (rc == 0 && mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	/* Mount point of a site's own root (see site_root). */
	buf_truncate(&b, b.len - 4);
	buf_adds(&b, "/jail");
	if (rc == 0 && !is_proxy(jail) && mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	buf_release(&b);
	return rc;
}

/* ---- rule sets ---- */

static void
jail_rules(struct buf *b, const struct spec *s, const char *jail)
{
	buf_printf(b,
	    "table inet " JAIL_TABLE " {\n"
	    "\tchain input {\n"
	    "\t\ttype filter hook input priority 0; policy drop;\n"
	    "\t\tiif \"lo\" accept\n"
	    "\t\tct state established,related accept\n");
	if (is_proxy(jail))
		buf_adds(b, "\t\ttcp dport { 80, 443 } accept\n");
	else
		buf_printf(b, "\t\tip saddr %s tcp dport 80 accept\n",
		    s->net.proxy_str);
	buf_adds(b,
	    "\t}\n"
	    "\tchain output {\n"
	    "\t\ttype filter hook output priority 0; policy drop;\n"
	    "\t\toif \"lo\" accept\n"
	    "\t\tct state established,related accept\n");
	if (is_proxy(jail)) {
		/* The subnet, not the site list: adding a site then needs
		 * no new rules; each site admits only the proxy anyway. */
		buf_printf(b, "\t\tip daddr %s tcp dport 80 accept\n",
		    s->net.subnet_str);
		/* ACME needs the certificate authority; nothing else goes
		 * out of the subnet. */
		if (s->proxy.tls == TLS_ACME)
			buf_printf(b, "\t\tip daddr != %s accept\n",
			    s->net.subnet_str);
	}
	buf_adds(b, "\t}\n}\n");
}

static int
port_is_loopback(const struct spec_port *p)
{
	return p->addr != NULL && strncmp(p->addr, "127.", 4) == 0;
}

static int
needs_forwarding(const struct spec *s)
{
	size_t i;

	if (s->proxy.tls == TLS_ACME)
		return 1;
	for (i = 0; i < s->net.nports; i++)
		if (!port_is_loopback(&s->net.ports[i]))
			return 1;
	return 0;
}

static void
host_rules(struct buf *b, const struct spec *s)
{
	struct buf t = BUF_INIT;
	size_t i;
	int pass;

	table_name(&t, s);
	buf_printf(b, "table ip %s {\n", t.ptr);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 0)
			buf_adds(b, "\tchain output {\n\t\ttype nat hook output "
			    "priority -100; policy accept;\n");
		else
			buf_adds(b, "\tchain prerouting {\n\t\ttype nat hook "
			    "prerouting priority -100; policy accept;\n");
		for (i = 0; i < s->net.nports; i++) {
			const struct spec_port *p = &s->net.ports[i];

			/* Loopback addresses never arrive from outside. */
			if (pass == 1 && port_is_loopback(p))
				continue;
			if (p->addr != NULL)
				buf_printf(b, "\t\tip daddr %s", p->addr);
			else
				buf_adds(b, "\t\tfib daddr type local");
			buf_printf(b, " tcp dport %d dnat to %s:%d\n", p->port,
			    s->net.proxy_str, p->to);
		}
		buf_adds(b, "\t}\n");
	}
	buf_printf(b,
	    "\tchain postrouting {\n"
	    "\t\ttype nat hook postrouting priority 100; policy accept;\n"
	    "\t\toifname \"%s\" ip saddr 127.0.0.0/8 masquerade\n",
	    s->net.bridge);
	if (s->proxy.tls == TLS_ACME)
		buf_printf(b, "\t\tip saddr %s oifname != \"%s\" masquerade\n",
		    s->net.proxy_str, s->net.bridge);
	buf_printf(b,
	    "\t}\n"
	    "\tchain forward {\n"
	    "\t\ttype filter hook forward priority 0; policy accept;\n"
	    "\t\tiifname \"%s\" ip saddr != %s oifname != \"%s\" drop\n"
	    "\t}\n"
	    "}\n", s->net.bridge, s->net.proxy_str, s->net.bridge);
	buf_release(&t);
}

/* What a jail was created with; compared on observe. */
static void
jail_descriptor(struct buf *b, const struct spec *s, const char *jail)
{
	struct buf ns = BUF_INIT, veth = BUF_INIT;
	uint32_t a = jail_addr(s, jail);
	char as[16];

	ns_name(&ns, s, jail);
	veth_name(&veth, s, a);
	spec_ntoa(a, as);
	buf_printf(b, "netns %s\nveth %s\nbridge %s\naddress %s/%d\n"
	    "route %s\n", ns.ptr, veth.ptr, s->net.bridge, as, s->net.prefix,
	    is_proxy(jail) && s->proxy.tls == TLS_ACME ? s->net.gateway_str :
	    "none");
	jail_rules(b, s, jail);
	buf_release(&ns);
	buf_release(&veth);
}

static void
firewall_descriptor(struct buf *b, const struct spec *s)
{
	buf_printf(b, "forwarding %d\n", needs_forwarding(s));
	host_rules(b, s);
}

/* ---- processes ---- */

static ino_t
netns_inode(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_ino : 0;
}

/*
 * The server's pid when it is alive and inside the jail's namespace; a
 * stale pid file never makes us signal an unrelated process.
 */
static pid_t
pid_in_jail(const struct spec *s, const char *jail, const char *pidfile)
{
	struct buf path = BUF_INIT, text = BUF_INIT, ns = BUF_INIT;
	pid_t pid = 0;
	long v;
	char *end;
	ino_t want;

	jail_dir(&path, s, jail);
	buf_printf(&path, "/%s", pidfile);
	if (read_text(path.ptr, &text) == -1)
		goto out;
	v = strtol(text.ptr, &end, 10);
	if (v <= 1 || v > INT_MAX || (*end != '\n' && *end != '\0'))
		goto out;
	if (kill((pid_t)v, 0) == -1)
		goto out;
	buf_printf(&ns, NETNS_DIR "/");
	ns_name(&ns, s, jail);
	want = netns_inode(ns.ptr);
	buf_clear(&path);
	buf_printf(&path, "/proc/%ld/ns/net", v);
	if (want != 0 && netns_inode(path.ptr) == want)
		pid = (pid_t)v;
out:
	buf_release(&path);
	buf_release(&text);
	buf_release(&ns);
	return pid;
}

static pid_t
server_pid(const struct spec *s, const char *jail)
{
	return pid_in_jail(s, jail, is_proxy(jail) &&
	    s->proxy.kind == PROXY_CADDY ? "run/caddy.pid" : "run/nginx.pid");
}

static int
enter_netns(const struct spec *s, const char *jail)
{
	struct buf ns = BUF_INIT;
	int fd, rc;

	buf_printf(&ns, NETNS_DIR "/");
	ns_name(&ns, s, jail);
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
 * The root a site's nginx sees: the system's programs and libraries and
 * the few files nginx reads, read-only; its own releases read-only; its
 * own logs, temp files and pid writable; nothing else of the host (no
 * other site, no proxy key, no /root, no /home). Called in the child,
 * inside a private mount namespace.
 */
static int
site_root(const struct spec *s, const char *site, const char *newroot)
{
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
	jail_dir(&p, s, site);
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
 * (and, for a site, a private mount namespace), then a grandchild execs
 * the server so it is not our child; nginx daemonizes itself, Caddy is
 * given a session of its own with output to its log.
 */
static int
start_server(const struct spec *s, const char *jail, char *const argv[],
    const char *logfile, char *const envp[], struct diag *d)
{
	struct buf root = BUF_INIT, sdir = BUF_INIT;
	int fds[2], st, err = 0;
	pid_t pid;
	ssize_t n;
	const struct spec_site *site = is_proxy(jail) ? NULL :
	    spec_site(s, jail);

	if (site != NULL) {
		buf_printf(&root, "%s/%s", s->releases.root, site->name);
		jail_dir(&sdir, s, jail);
	}
	if (pipe2(fds, O_CLOEXEC) == -1) {
		diag_error(d, NULL, 0, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = fork()) == -1) {
		diag_error(d, NULL, 0, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null, out;

		close(fds[0]);
		if (enter_netns(s, jail) == -1) {
			err = errno;
			goto fail;
		}
		if (site != NULL) {
			buf_adds(&sdir, "/jail");
			if (unshare(CLONE_NEWNS) == -1 ||
			    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE,
			    NULL) == -1 ||
			    site_root(s, jail, sdir.ptr) == -1) {
				err = errno;
				goto fail;
			}
		}
		if ((pid = fork()) == -1) {
			err = errno;
			goto fail;
		}
		if (pid > 0)
			_exit(0);
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
		if (server_pid(s, jail) > 0)
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static size_t
discard(char *p, size_t size, size_t n, void *u)
{
	(void)p;
	(void)u;
	return size * n;
}

/* One request to Caddy's admin socket. HTTP status, or -1. */
static long
caddy_admin(const struct spec *s, const char *method, const char *path,
    const char *body, struct diag *d)
{
	struct buf sock = BUF_INIT, url = BUF_INIT;
	struct curl_slist *h = NULL;
	CURL *c;
	CURLcode cc;
	long code = -1;

	jail_dir(&sock, s, "proxy");
	buf_adds(&sock, "/admin.sock");
	buf_printf(&url, "http://localhost%s", path);
	if ((c = curl_easy_init()) == NULL)
		goto out;
	curl_easy_setopt(c, CURLOPT_UNIX_SOCKET_PATH, sock.ptr);
	curl_easy_setopt(c, CURLOPT_URL, url.ptr);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L);
	if (body != NULL) {
		h = curl_slist_append(h, "Content-Type: text/caddyfile");
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	}
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
	return code;
}

static char **
caddy_env(const struct spec *s)
{
	static char *env[5];
	static struct buf b[3] = { BUF_INIT, BUF_INIT, BUF_INIT };
	struct buf dir = BUF_INIT;

	jail_dir(&dir, s, "proxy");
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

static int
conf_path(struct buf *b, const struct spec *s, const char *jail)
{
	jail_dir(b, s, jail);
	buf_adds(b, is_proxy(jail) && s->proxy.kind == PROXY_CADDY ?
	    "/Caddyfile" : "/nginx.conf");
	return 0;
}

static int
start(struct ldrv *ld, const char *jail, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	struct buf dir = BUF_INIT, conf = BUF_INIT, elog = BUF_INIT;
	struct buf pid = BUF_INIT, log = BUF_INIT;
	int rc = -1, i;

	if (server_pid(s, jail) > 0)
		return 0;
	jail_dir(&dir, s, jail);
	conf_path(&conf, s, jail);
	if (jail_dirs(s, jail, d) == -1)
		goto out;
	if (is_proxy(jail) && s->proxy.kind == PROXY_CADDY) {
		char *argv[] = { "caddy", "run", "--adapter", "caddyfile",
		    "--config", conf.ptr, "--pidfile", NULL, NULL };

		buf_printf(&pid, "%s/run/caddy.pid", dir.ptr);
		buf_printf(&log, "%s/logs/caddy.log", dir.ptr);
		argv[7] = pid.ptr;
		unlink(pid.ptr);
		if (start_server(s, jail, argv, log.ptr, caddy_env(s),
		    d) == -1)
			goto out;
		if (wait_running(s, jail, 150) == -1) {
			diag_error(d, log.ptr, 0, "caddy did not start in jail "
			    "%s; see this log", jail);
			goto out;
		}
		/* Up once the admin socket answers. */
		for (i = 0; i < 100; i++) {
			struct timespec ts = { 0, 100000000 };

			if (caddy_admin(s, "GET", "/config/", NULL, NULL) == 200)
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
		if (start_server(s, jail, argv, NULL, NULL, d) == -1)
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

static int
stop(struct ldrv *ld, const char *jail, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	struct timespec ts = { 0, 100000000 };
	pid_t pid = server_pid(s, jail);
	int i;

	if (pid <= 0)
		return 0;
	/* nginx: graceful stop on QUIT; Caddy stops on TERM. */
	kill(pid, is_proxy(jail) && s->proxy.kind == PROXY_CADDY ? SIGTERM :
	    SIGQUIT);
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
	read_text(path.ptr, &text);
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

static int
reload(struct ldrv *ld, const char *jail, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	struct buf conf = BUF_INIT, text = BUF_INIT;
	pid_t pid;
	long code;
	int rc = -1, i;

	if (is_proxy(jail) && s->proxy.kind == PROXY_CADDY) {
		conf_path(&conf, s, jail);
		if (read_text(conf.ptr, &text) == -1) {
			diag_error(d, conf.ptr, 0, "%s", strerror(errno));
			goto out;
		}
		/* POST /load blocks until the new config runs, or keeps the
		 * old one when it fails. */
		code = caddy_admin(s, "POST", "/load", text.ptr, d);
		if (code != 200) {
			if (code != -1)
				diag_error(d, conf.ptr, 0, "caddy refused the "
				    "config (HTTP %ld)", code);
			goto out;
		}
		rc = 0;
		goto out;
	}
	if ((pid = server_pid(s, jail)) <= 0) {
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
	buf_release(&conf);
	buf_release(&text);
	return rc;
}

/* ---- observe ---- */

static enum obj_state
observe_network(const struct spec *s)
{
	struct ifaddrs *ifa, *p;
	struct buf path = BUF_INIT, v = BUF_INIT;
	int found = 0, addr = 0, up = 0;
	enum obj_state st;

	if (if_nametoindex(s->net.bridge) == 0)
		return OBJ_ABSENT;
	if (getifaddrs(&ifa) == 0) {
		for (p = ifa; p != NULL; p = p->ifa_next) {
			if (strcmp(p->ifa_name, s->net.bridge) != 0)
				continue;
			found = 1;
			up = (p->ifa_flags & IFF_UP) != 0;
			if (p->ifa_addr != NULL &&
			    p->ifa_addr->sa_family == AF_INET &&
			    ntohl(((struct sockaddr_in *)(void *)
			    p->ifa_addr)->sin_addr.s_addr) == s->net.gateway)
				addr = 1;
		}
		freeifaddrs(ifa);
	}
	buf_printf(&path, "/proc/sys/net/ipv4/conf/%s/route_localnet",
	    s->net.bridge);
	read_text(path.ptr, &v);
	st = found && addr && up && v.ptr[0] == '1' ? OBJ_OK : OBJ_DIFFERENT;
	buf_release(&path);
	buf_release(&v);
	return st;
}

static void
observe_jail(struct ldrv *ld, struct observed_jail *j)
{
	const struct spec *s = ld->pub.spec;
	struct buf ns = BUF_INIT, path = BUF_INIT, want = BUF_INIT;
	struct buf have = BUF_INIT, veth = BUF_INIT, master = BUF_INIT;
	char link[PATH_MAX];
	ssize_t n;

	buf_printf(&ns, NETNS_DIR "/");
	ns_name(&ns, s, j->name);
	jail_dir(&path, s, j->name);
	j->has_data = exists(path.ptr);
	if (!is_proxy(j->name)) {
		buf_clear(&path);
		buf_printf(&path, "%s/%s", s->releases.root, j->name);
		j->has_data |= exists(path.ptr);
	}
	buf_clear(&path);
	conf_path(&path, s, j->name);
	buf_init(&j->config);
	j->has_config = read_text(path.ptr, &j->config) == 0;
	if (!exists(ns.ptr)) {
		j->jail = OBJ_ABSENT;
		goto out;
	}
	j->jail = OBJ_DIFFERENT;
	j->running = server_pid(s, j->name) > 0;
	if (!j->wanted)
		goto out;
	/* The proxy changed kind: the old server still holds the ports. */
	if (is_proxy(j->name) && pid_in_jail(s, j->name,
	    s->proxy.kind == PROXY_CADDY ? "run/nginx.pid" : "run/caddy.pid") > 0)
		goto out;
	veth_name(&veth, s, jail_addr(s, j->name));
	buf_printf(&master, "/sys/class/net/%s/master", veth.ptr);
	n = readlink(master.ptr, link, sizeof(link) - 1);
	if (n <= 0)
		goto out;
	link[n] = '\0';
	if (strcmp(strrchr(link, '/') ? strrchr(link, '/') + 1 : link,
	    s->net.bridge) != 0)
		goto out;
	buf_clear(&path);
	jail_dir(&path, s, j->name);
	buf_adds(&path, "/jail.applied");
	jail_descriptor(&want, s, j->name);
	if (read_text(path.ptr, &have) == -1 || strcmp(have.ptr, want.ptr) != 0)
		goto out;
	buf_clear(&ns);
	ns_name(&ns, s, j->name);
	if (QUIET("ip", "netns", "exec", ns.ptr, "nft", "list", "table", "inet",
	    JAIL_TABLE) != 0)
		goto out;
	j->jail = OBJ_OK;
out:
	buf_release(&ns);
	buf_release(&path);
	buf_release(&want);
	buf_release(&have);
	buf_release(&veth);
	buf_release(&master);
}

static void
add_jail(struct observed *o, const char *name, int wanted)
{
	struct observed_jail *j;

	o->jails = xrealloc(o->jails, (o->njails + 1) * sizeof(*o->jails));
	j = &o->jails[o->njails++];
	memset(j, 0, sizeof(*j));
	j->name = xstrdup(name);
	j->wanted = wanted;
	buf_init(&j->config);
}

static int
known(const struct observed *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->njails; i++)
		if (strcmp(o->jails[i].name, name) == 0)
			return 1;
	return 0;
}

static int
linux_observe(struct driver *drv, struct observed *o, struct diag *d)
{
	struct ldrv *ld = (struct ldrv *)drv;
	const struct spec *s = drv->spec;
	struct buf t = BUF_INIT, want = BUF_INIT, have = BUF_INIT;
	struct dirent *de;
	DIR *dp;
	size_t i, plen = strlen(s->name);

	(void)d;
	o->network = observe_network(s);
	for (i = 0; i < s->nsites; i++)
		add_jail(o, s->sites[i].name, 1);
	add_jail(o, "proxy", 1);
	/* Jails and site folders left from sites no longer in the spec. */
	if ((dp = opendir(NETNS_DIR)) != NULL) {
		while ((de = readdir(dp)) != NULL)
			if (strncmp(de->d_name, s->name, plen) == 0 &&
			    de->d_name[plen] == '-' &&
			    !known(o, de->d_name + plen + 1))
				add_jail(o, de->d_name + plen + 1, 0);
		closedir(dp);
	}
	buf_printf(&t, "%s/sites", s->state);
	if ((dp = opendir(t.ptr)) != NULL) {
		while ((de = readdir(dp)) != NULL)
			if (de->d_name[0] != '.' && !known(o, de->d_name))
				add_jail(o, de->d_name, 0);
		closedir(dp);
	}
	for (i = 0; i < o->njails; i++)
		observe_jail(ld, &o->jails[i]);

	buf_clear(&t);
	table_name(&t, s);
	o->firewall = OBJ_ABSENT;
	if (QUIET("nft", "list", "table", "ip", t.ptr) == 0) {
		o->firewall = OBJ_DIFFERENT;
		buf_clear(&t);
		buf_printf(&t, "%s/firewall.applied", s->state);
		firewall_descriptor(&want, s);
		if (read_text(t.ptr, &have) == 0 &&
		    strcmp(have.ptr, want.ptr) == 0)
			o->firewall = OBJ_OK;
	}
	buf_release(&t);
	buf_release(&want);
	buf_release(&have);
	return 0;
}

/* ---- configs ---- */

static void
paths_for(const struct spec *s, const char *jail, struct buf *state,
    struct buf *root, struct buf *admin, struct buf *data,
    struct confgen_paths *p)
{
	jail_dir(state, s, jail);
	buf_printf(admin, "%s/admin.sock", state->ptr);
	buf_printf(data, "%s/data", state->ptr);
	if (!is_proxy(jail))
		buf_printf(root, "%s/%s", s->releases.root, jail);
	p->state = state->ptr;
	p->root = root->ptr;
	p->mime_types = "/etc/nginx/mime.types";
	p->admin = admin->ptr;
	p->data = data->ptr;
}

static int
linux_config(struct driver *drv, const char *jail, struct buf *out,
    char **path, struct diag *d)
{
	const struct spec *s = drv->spec;
	struct buf state = BUF_INIT, root = BUF_INIT, admin = BUF_INIT;
	struct buf data = BUF_INIT, cp = BUF_INIT;
	struct confgen_paths p;
	const struct spec_site *site = NULL;
	int rc = 0;

	if (!is_proxy(jail) && (site = spec_site(s, jail)) == NULL) {
		diag_error(d, s->file, 0, "unknown site '%s'", jail);
		return -1;
	}
	paths_for(s, jail, &state, &root, &admin, &data, &p);
	if (site != NULL)
		rc = confgen_site_nginx(out, s, site, &p);
	else if (s->proxy.kind == PROXY_CADDY)
		rc = confgen_caddy(out, s, &p);
	else
		rc = confgen_proxy_nginx(out, s, &p);
	conf_path(&cp, s, jail);
	*path = buf_detach(&cp, NULL);
	buf_release(&state);
	buf_release(&root);
	buf_release(&admin);
	buf_release(&data);
	return rc;
}

/* Checks a config with the server itself before it replaces the old one. */
static int
write_config(struct ldrv *ld, const struct action *a, struct diag *d)
{
	const struct spec *s = ld->pub.spec;
	const char *jail = a->target, *path = a->args[0];
	struct buf tmp = BUF_INIT, dir = BUF_INIT, elog = BUF_INIT;
	struct buf ns = BUF_INIT;
	int rc = -1;

	if (jail_dirs(s, jail, d) == -1)
		goto out;
	jail_dir(&dir, s, jail);
	buf_printf(&tmp, "%s.check", path);
	if (write_text(tmp.ptr, a->payload, 0644, d) == -1)
		goto out;
	ns_name(&ns, s, jail);
	if (is_proxy(jail) && s->proxy.kind == PROXY_CADDY) {
		char *argv[] = { "caddy", "validate", "--adapter", "caddyfile",
		    "--config", tmp.ptr, NULL };
		struct buf outp = BUF_INIT;
		pid_t pid;
		int st, fds[2];

		/* caddy validate with the proxy's own environment. */
		if (pipe(fds) == -1)
			goto out;
		if ((pid = fork()) == 0) {
			dup2(fds[1], 1);
			dup2(fds[1], 2);
			close(fds[0]);
			close(fds[1]);
			execvpe(argv[0], argv, caddy_env(s));
			_exit(127);
		}
		close(fds[1]);
		{
			char chunk[4096];
			ssize_t n;

			while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
				buf_add(&outp, chunk, (size_t)n);
		}
		close(fds[0]);
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			const char *e = strstr(outp.ptr, "Error:");

			diag_error(d, tmp.ptr, 0, "caddy validate: %s",
			    e ? e : outp.ptr);
			buf_release(&outp);
			goto out;
		}
		buf_release(&outp);
	} else {
		buf_printf(&elog, "%s/logs/error.log", dir.ptr);
		if (MUST(d, "ip", "netns", "exec", ns.ptr, "nginx", "-t", "-q",
		    "-p", dir.ptr, "-c", tmp.ptr, "-e", elog.ptr) == -1)
			goto out;
	}
	if (rename(tmp.ptr, path) == -1) {
		diag_error(d, path, 0, "rename: %s", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (rc == -1)
		unlink(tmp.ptr);
	buf_release(&tmp);
	buf_release(&dir);
	buf_release(&elog);
	buf_release(&ns);
	return rc;
}

/* ---- network and jails ---- */

static int
write_sysctl(const char *path, const char *v, struct diag *d)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd == -1 || write(fd, v, strlen(v)) != (ssize_t)strlen(v)) {
		diag_error(d, path, 0, "%s", strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int
network_create(const struct spec *s, struct diag *d)
{
	struct buf cidr = BUF_INIT, path = BUF_INIT;
	char mac[18];
	int rc = -1;

	buf_printf(&cidr, "%s/%d", s->net.gateway_str, s->net.prefix);
	mac_of(mac, s->net.gateway);
	if (if_nametoindex(s->net.bridge) == 0 &&
	    MUST(d, "ip", "link", "add", "name", s->net.bridge, "address",
	    mac, "type", "bridge") == -1)
		goto out;
	if (MUST(d, "ip", "addr", "replace", cidr.ptr, "dev",
	    s->net.bridge) == -1 ||
	    MUST(d, "ip", "link", "set", s->net.bridge, "up") == -1)
		goto out;
	/* DNAT of 127.0.0.1 to the proxy needs loopback sources routed. */
	buf_printf(&path, "/proc/sys/net/ipv4/conf/%s/route_localnet",
	    s->net.bridge);
	if (write_sysctl(path.ptr, "1", d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&cidr);
	buf_release(&path);
	return rc;
}

/* Signals every process whose network namespace is the jail's. */
static int
signal_jail(ino_t ns, int sig)
{
	struct buf path = BUF_INIT;
	struct dirent *de;
	DIR *dp;
	int n = 0;

	if (ns == 0 || (dp = opendir("/proc")) == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		buf_clear(&path);
		buf_printf(&path, "/proc/%s/ns/net", de->d_name);
		if (netns_inode(path.ptr) == ns) {
			kill((pid_t)atol(de->d_name), sig);
			n++;
		}
	}
	closedir(dp);
	buf_release(&path);
	return n;
}

/* Nothing may outlive its jail (a namespace with processes stays). */
static void
empty_jail(const char *nspath)
{
	struct timespec ts = { 0, 100000000 };
	ino_t ns = netns_inode(nspath);
	int i;

	if (signal_jail(ns, SIGTERM) == 0)
		return;
	for (i = 0; i < 50 && signal_jail(ns, 0) > 0; i++)
		nanosleep(&ts, NULL);
	signal_jail(ns, SIGKILL);
}

static int
jail_destroy(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf ns = BUF_INIT, nsp = BUF_INIT, veth = BUF_INIT;
	struct buf applied = BUF_INIT;
	uint32_t a = jail_addr(s, jail);
	int rc = 0;

	ns_name(&ns, s, jail);
	buf_printf(&nsp, NETNS_DIR "/%s", ns.ptr);
	empty_jail(nsp.ptr);
	if (exists(nsp.ptr) && MUST(d, "ip", "netns", "delete", ns.ptr) == -1)
		rc = -1;
	if (a != 0) {
		struct timespec ts = { 0, 50000000 };
		int i;

		/* The pair goes with the namespace, but not at once. */
		veth_name(&veth, s, a);
		for (i = 0; i < 40 && if_nametoindex(veth.ptr) != 0; i++) {
			QUIET("ip", "link", "delete", veth.ptr);
			nanosleep(&ts, NULL);
		}
		if (if_nametoindex(veth.ptr) != 0) {
			diag_error(d, NULL, 0, "interface %s does not go away",
			    veth.ptr);
			rc = -1;
		}
	}
	jail_dir(&applied, s, jail);
	buf_adds(&applied, "/jail.applied");
	unlink(applied.ptr);
	buf_release(&ns);
	buf_release(&nsp);
	buf_release(&veth);
	buf_release(&applied);
	return rc;
}

static int
jail_create(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf ns = BUF_INIT, veth = BUF_INIT, cidr = BUF_INIT;
	struct buf rules = BUF_INIT, path = BUF_INIT, desc = BUF_INIT;
	uint32_t a = jail_addr(s, jail);
	char as[16], mac[18];
	int rc = -1;

	if (a == 0) {
		diag_error(d, s->file, 0, "unknown site '%s'", jail);
		return -1;
	}
	/* Leftovers of an interrupted run go first. */
	if (jail_destroy(s, jail, d) == -1)
		return -1;
	if (jail_dirs(s, jail, d) == -1)
		return -1;
	if (!is_proxy(jail)) {
		buf_printf(&path, "%s/%s", s->releases.root, jail);
		if (mkdirs(path.ptr, 0755, d) == -1)
			goto out;
		buf_clear(&path);
	}
	ns_name(&ns, s, jail);
	veth_name(&veth, s, a);
	spec_ntoa(a, as);
	mac_of(mac, a);
	buf_printf(&cidr, "%s/%d", as, s->net.prefix);
	/* An entry for a jail of an older run would be wrong. */
	QUIET("ip", "neigh", "flush", "to", as, "dev", s->net.bridge);
	if (MUST(d, "ip", "netns", "add", ns.ptr) == -1 ||
	    MUST(d, "ip", "link", "add", veth.ptr, "type", "veth", "peer",
	    "name", "eth0", "address", mac, "netns", ns.ptr) == -1 ||
	    MUST(d, "ip", "link", "set", veth.ptr, "master",
	    s->net.bridge) == -1 ||
	    MUST(d, "ip", "link", "set", veth.ptr, "up") == -1 ||
	    MUST(d, "ip", "-n", ns.ptr, "addr", "add", cidr.ptr, "dev",
	    "eth0") == -1 ||
	    MUST(d, "ip", "-n", ns.ptr, "link", "set", "eth0", "up") == -1 ||
	    MUST(d, "ip", "-n", ns.ptr, "link", "set", "lo", "up") == -1)
		goto out;
	if (is_proxy(jail) && s->proxy.tls == TLS_ACME &&
	    MUST(d, "ip", "-n", ns.ptr, "route", "add", "default", "via",
	    (char *)s->net.gateway_str) == -1)
		goto out;
	jail_rules(&rules, s, jail);
	jail_dir(&path, s, jail);
	buf_adds(&path, "/jail.nft");
	if (write_text(path.ptr, rules.ptr, 0644, d) == -1 ||
	    MUST(d, "ip", "netns", "exec", ns.ptr, "nft", "-f",
	    path.ptr) == -1)
		goto out;
	buf_truncate(&path, path.len - strlen("/jail.nft"));
	buf_adds(&path, "/jail.applied");
	jail_descriptor(&desc, s, jail);
	if (write_text(path.ptr, desc.ptr, 0644, d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&ns);
	buf_release(&veth);
	buf_release(&cidr);
	buf_release(&rules);
	buf_release(&path);
	buf_release(&desc);
	return rc;
}

static int
firewall_load(const struct spec *s, struct diag *d)
{
	struct buf t = BUF_INIT, text = BUF_INIT, path = BUF_INIT;
	struct buf desc = BUF_INIT;
	int rc = -1;

	table_name(&t, s);
	if (mkdirs(s->state, 0755, d) == -1)
		goto out;
	/* Create-then-delete makes the load replace the table at once. */
	buf_printf(&text, "table ip %s\ndelete table ip %s\n", t.ptr, t.ptr);
	host_rules(&text, s);
	buf_printf(&path, "%s/firewall.nft", s->state);
	if (write_text(path.ptr, text.ptr, 0644, d) == -1 ||
	    MUST(d, "nft", "-f", path.ptr) == -1)
		goto out;
	if (needs_forwarding(s) &&
	    write_sysctl("/proc/sys/net/ipv4/ip_forward", "1", d) == -1)
		goto out;
	buf_clear(&path);
	buf_printf(&path, "%s/firewall.applied", s->state);
	firewall_descriptor(&desc, s);
	if (write_text(path.ptr, desc.ptr, 0644, d) == -1)
		goto out;
	rc = 0;
out:
	buf_release(&t);
	buf_release(&text);
	buf_release(&path);
	buf_release(&desc);
	return rc;
}

static int
firewall_remove(const struct spec *s, struct diag *d)
{
	struct buf t = BUF_INIT, path = BUF_INIT;
	int rc = 0;

	table_name(&t, s);
	if (QUIET("nft", "list", "table", "ip", t.ptr) == 0 &&
	    MUST(d, "nft", "delete", "table", "ip", t.ptr) == -1)
		rc = -1;
	buf_printf(&path, "%s/firewall.applied", s->state);
	unlink(path.ptr);
	buf_clear(&path);
	buf_printf(&path, "%s/firewall.nft", s->state);
	unlink(path.ptr);
	buf_release(&t);
	buf_release(&path);
	return rc;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

/* Removes a tree this tool created; refuses anything short. */
static int
remove_tree(const char *path, struct diag *d)
{
	if (strlen(path) < 5 || path[0] != '/' || strstr(path, "/../")) {
		diag_error(d, path, 0, "refusing to remove this path");
		return -1;
	}
	if (!exists(path))
		return 0;
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) == -1) {
		diag_error(d, path, 0, "remove: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int
data_remove(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf p = BUF_INIT;
	int rc = 0;

	jail_dir(&p, s, jail);
	if (remove_tree(p.ptr, d) == -1)
		rc = -1;
	if (!is_proxy(jail)) {
		buf_clear(&p);
		buf_printf(&p, "%s/%s", s->releases.root, jail);
		if (remove_tree(p.ptr, d) == -1)
			rc = -1;
		buf_clear(&p);
		buf_printf(&p, "%s/.deploy/%s", s->releases.root, jail);
		if (remove_tree(p.ptr, d) == -1)
			rc = -1;
		/* Folders left empty by the last site go too. */
		buf_clear(&p);
		buf_printf(&p, "%s/.deploy", s->releases.root);
		rmdir(p.ptr);
		buf_clear(&p);
		buf_printf(&p, "%s/sites", s->state);
		rmdir(p.ptr);
	}
	rmdir(s->releases.root);
	rmdir(s->state);
	buf_release(&p);
	return rc;
}

static int
linux_execute(struct driver *drv, const struct action *a, struct diag *d)
{
	struct ldrv *ld = (struct ldrv *)drv;
	const struct spec *s = drv->spec;

	switch (a->kind) {
	case ACT_NETWORK_CREATE:
		return network_create(s, d);
	case ACT_NETWORK_DESTROY:
		if (if_nametoindex(s->net.bridge) == 0)
			return 0;
		return MUST(d, "ip", "link", "delete", s->net.bridge);
	case ACT_JAIL_CREATE:
		return jail_create(s, a->target, d);
	case ACT_JAIL_DESTROY:
		if (stop(ld, a->target, d) == -1)
			return -1;
		return jail_destroy(s, a->target, d);
	case ACT_CONFIG_WRITE:
		return write_config(ld, a, d);
	case ACT_SERVICE_START:
		return start(ld, a->target, d);
	case ACT_SERVICE_RELOAD:
		return reload(ld, a->target, d);
	case ACT_SERVICE_STOP:
		return stop(ld, a->target, d);
	case ACT_FIREWALL_LOAD:
		return firewall_load(s, d);
	case ACT_FIREWALL_REMOVE:
		return firewall_remove(s, d);
	case ACT_DATA_REMOVE:
		return data_remove(s, a->target, d);
	}
	diag_error(d, NULL, 0, "unknown action");
	return -1;
}

static void
linux_describe(struct driver *drv, const char *jail, struct buf *out)
{
	const struct spec *s = drv->spec;
	struct buf ns = BUF_INIT;
	pid_t pid = server_pid(s, jail);
	char as[16];

	ns_name(&ns, s, jail);
	spec_ntoa(jail_addr(s, jail), as);
	buf_printf(out, "netns %s, address %s, ", ns.ptr, as);
	if (pid > 0)
		buf_printf(out, "%s pid %ld", is_proxy(jail) &&
		    s->proxy.kind == PROXY_CADDY ? "caddy" : "nginx",
		    (long)pid);
	else
		buf_adds(out, "server down");
	buf_release(&ns);
}

static const char *
linux_proxy_ca(struct driver *drv)
{
	struct ldrv *ld = (struct ldrv *)drv;
	struct buf b = BUF_INIT;

	if (drv->spec->proxy.kind != PROXY_CADDY ||
	    drv->spec->proxy.tls != TLS_INTERNAL)
		return NULL;
	if (ld->ca == NULL) {
		jail_dir(&b, drv->spec, "proxy");
		buf_adds(&b, "/data/pki/authorities/local/root.crt");
		ld->ca = buf_detach(&b, NULL);
	}
	return ld->ca;
}

static char *
linux_log_path(struct driver *drv, const char *jail)
{
	struct buf b = BUF_INIT;

	jail_dir(&b, drv->spec, jail);
	if (is_proxy(jail) && drv->spec->proxy.kind == PROXY_CADDY)
		buf_adds(&b, "/logs/caddy.log");
	else
		buf_adds(&b, "/logs/error.log");
	return buf_detach(&b, NULL);
}

static int
linux_enter(struct driver *drv, const char *jail)
{
	return enter_netns(drv->spec, jail);
}

static void
linux_free(struct driver *drv)
{
	struct ldrv *ld = (struct ldrv *)drv;

	free(ld->ca);
	free(ld);
}

static const struct driver_ops linux_ops = {
	.platform = "linux-netns",
	.observe = linux_observe,
	.config = linux_config,
	.execute = linux_execute,
	.describe = linux_describe,
	.proxy_ca = linux_proxy_ca,
	.enter = linux_enter,
	.log_path = linux_log_path,
	.free = linux_free,
};

struct driver *
driver_linux_open(const struct spec *s, struct diag *d)
{
	struct ldrv *ld;

	if (geteuid() != 0) {
		diag_error(d, NULL, 0, "linux-netns needs root (namespaces, "
		    "nftables)");
		return NULL;
	}
	ld = xcalloc(1, sizeof(*ld));
	ld->pub.ops = &linux_ops;
	ld->pub.spec = s;
	return &ld->pub;
}
