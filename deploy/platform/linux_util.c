/*
 * Shared by the linux-netns driver: running programs, names of jails,
 * their addresses and folders, small file helpers.
 */
#define _GNU_SOURCE

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confgen.h"
#include "fsutil.h"
#include "linux_int.h"
#include "mem.h"

int
lx_is_proxy(const char *jail)
{
	return strcmp(jail, "proxy") == 0;
}

const char *
lx_prefix(const struct spec *s)
{
	return s->prefix != NULL ? s->prefix : s->name;
}

int
lx_is_old(const char *jail)
{
	return strncmp(jail, LX_OLD, sizeof(LX_OLD) - 1) == 0;
}

void
lx_ns_name(struct buf *b, const struct spec *s, const char *jail)
{
	if (lx_is_old(jail))
		buf_printf(b, "%s-%s", s->name, jail + sizeof(LX_OLD) - 1);
	else
		buf_printf(b, "%s-%s", lx_prefix(s), jail);
}

int
lx_is_gemini(const char *jail)
{
	return strcmp(jail, "gemini") == 0;
}

int
lx_is_site(const char *jail)
{
	return !lx_is_proxy(jail) && !lx_is_gemini(jail);
}

uint32_t
lx_jail_addr(const struct spec *s, const char *jail)
{
	const struct spec_site *site;

	if (lx_is_old(jail))
		jail += sizeof(LX_OLD) - 1;
	if (lx_is_proxy(jail))
		return s->net.proxy;
	if (lx_is_gemini(jail))
		return s->net.gemini;
	site = spec_site(s, jail);
	return site ? site->addr : 0;
}

/* Host end of the veth pair: bridge name and the host part in hex. */
void
lx_veth_name(struct buf *b, const struct spec *s, uint32_t addr)
{
	buf_printf(b, "%s-%x", s->net.bridge, addr - s->net.net);
}

/*
 * MAC addresses follow the IPv4 address (locally administered): a jail
 * made again answers with the same MAC, so no neighbour cache on the
 * bridge keeps pointing at a vanished interface.
 */
void
lx_mac_of(char out[18], uint32_t a)
{
	xsnprintf(out, 18, "02:de:%02x:%02x:%02x:%02x", a >> 24,
	    (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

void
lx_jail_dir(struct buf *b, const struct spec *s, const char *jail)
{
	if (lx_is_proxy(jail))
		buf_printf(b, "%s/proxy", s->state);
	else if (lx_is_gemini(jail))
		buf_printf(b, "%s/gemini", s->state);
	else
		buf_printf(b, "%s/sites/%s", s->state, jail);
}

void
lx_table_name(struct buf *b, const struct spec *s)
{
	const char *p;

	buf_adds(b, "deploy_");
	for (p = lx_prefix(s); *p != '\0'; p++)
		buf_addc(b, *p == '-' ? '_' : *p);
}

int
lx_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int
lx_read_text(const char *path, struct buf *out)
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

/* Writes path atomically (fs_write_file). 0 or -1. */
int
lx_write_text(const char *path, const char *text, mode_t mode, struct diag *d)
{
	if (fs_write_file(path, text, strlen(text), mode, (uid_t)-1,
	    (gid_t)-1) == -1) {
		return diag_error(d, path, 0, "%s", strerror(errno));
	}
	return 0;
}

int
lx_mkdirs(const char *path, mode_t mode, struct diag *d)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return diag_error(d, path, 0, "path too long");
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
	if (mkdir(tmp, mode) == -1 && errno != EEXIST)
		return diag_error(d, tmp, 0, "mkdir: %s", strerror(errno));
	return 0;
}

/* state/{logs,tmp,run} of a jail; the proxy's is private (Caddy's CA key). */
int
lx_jail_dirs(const struct spec *s, const char *jail, struct diag *d)
{
	struct buf b = BUF_INIT;
	int rc = 0;

	lx_jail_dir(&b, s, jail);
	if (lx_mkdirs(b.ptr, lx_is_proxy(jail) ? 0700 : 0755, d) == -1)
		rc = -1;
	buf_adds(&b, "/logs");
	if (rc == 0 && lx_mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	buf_truncate(&b, b.len - 5);
	buf_adds(&b, "/tmp");
	if (rc == 0 && lx_mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	buf_truncate(&b, b.len - 4);
	buf_adds(&b, "/run");
	if (rc == 0 && lx_mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	/* Mount point of a site's own root (see site_root). */
	buf_truncate(&b, b.len - 4);
	buf_adds(&b, "/jail");
	if (rc == 0 && !lx_is_proxy(jail) && lx_mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	/* A site's socket, which the proxy connects to (confgen.h). */
	buf_truncate(&b, b.len - 5);
	buf_adds(&b, "/" CONFGEN_SOCK_DIR);
	if (rc == 0 && lx_is_site(jail) && lx_mkdirs(b.ptr, 0755, d) == -1)
		rc = -1;
	/* molly-brown runs as the user and writes its own logs. */
	if (rc == 0 && lx_is_gemini(jail)) {
		struct passwd *pw = getpwnam(s->user);

		buf_clear(&b);
		lx_jail_dir(&b, s, jail);
		buf_adds(&b, "/logs");
		if (pw == NULL || chown(b.ptr, pw->pw_uid, pw->pw_gid) == -1) {
			diag_error(d, b.ptr, 0, "chown to user %s: %s", s->user,
			    pw == NULL ? "no such user" : strerror(errno));
			rc = -1;
		}
	}
	buf_release(&b);
	return rc;
}
