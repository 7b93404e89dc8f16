#include "fsutil.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "mem.h"

#ifndef MAP_POPULATE
#define MAP_POPULATE	0	/* FreeBSD: faulted in as it is read */
#endif

int
fs_map(const char *path, const char **ptr, size_t *len)
{
	struct stat st;
	void *m;
	int fd, saved;

	*ptr = NULL;
	*len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		goto fail;
	}
	if (st.st_size > 0) {
		/* populated now: one call instead of a fault per few pages */
		m = mmap(NULL, (size_t)st.st_size, PROT_READ,
		    MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (m == MAP_FAILED)
			goto fail;
		*ptr = m;
		*len = (size_t)st.st_size;
	}
	close(fd);
	return 0;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

void
fs_unmap(const char *ptr, size_t len)
{
	if (ptr != NULL)
		munmap((void *)(uintptr_t)ptr, len);
}

/*
 * Appends what fd holds to out; st is its fstat. A regular file is read
 * straight into the buffer, size known; with sized set, the read stops
 * at that size and the caller checks, by a second fstat, that the file
 * did not grow (one read instead of three for a source).
 */
static int
read_fd(int fd, const struct stat *st, struct buf *out, int sized)
{
	char chunk[65536];
	ssize_t n = 1;
	size_t want;

	if (S_ISREG(st->st_mode) && st->st_size > 0) {
		buf_grow(out, (size_t)st->st_size);
		want = out->len + (size_t)st->st_size;
		while (out->len < want &&
		    (n = read(fd, out->ptr + out->len, want - out->len)) != 0) {
			if (n == -1) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			out->len += (size_t)n;
		}
		out->ptr[out->len] = '\0';
		if (n == 0 || sized)
			return 0;
	}
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n == 0)
			return 0;
		if (n == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf_add(out, chunk, (size_t)n);
	}
}

/* Closes fd, keeping errno when rc is -1. */
static int
close_keep(int fd, int rc)
{
	int saved = errno;

	close(fd);
	errno = saved;
	return rc;
}

int
fs_read(const char *path, struct buf *out)
{
	struct stat st;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		st.st_mode = 0;
	return close_keep(fd, read_fd(fd, &st, out, 0));
}

static int
same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_size == b->st_size &&
	    a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

int
fs_read_stable(const char *path, struct buf *out, struct stat *st)
{
	struct stat after;
	size_t start = out->len;
	int fd, tries;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	for (tries = 0; tries < 3; tries++) {
		/* the first time, the caller's stat stands for this one */
		if (tries > 0 && (fstat(fd, st) == -1 ||
		    lseek(fd, 0, SEEK_SET) == -1))
			return close_keep(fd, -1);
		buf_truncate(out, start);
		if (read_fd(fd, st, out, 1) == -1 || fstat(fd, &after) == -1)
			return close_keep(fd, -1);
		if (same_stat(st, &after) &&
		    out->len - start == (size_t)after.st_size)
			return close_keep(fd, 0);
	}
	close(fd);
	errno = EAGAIN;
	return -1;
}

/*
 * What is published is readable by all whatever the source's mode or the
 * umask: files 0644, folders 0755. The umask is read once; only a umask
 * stricter than 022 costs a chmod per file.
 */
static mode_t	umask_seen;
static pthread_once_t umask_once = PTHREAD_ONCE_INIT;

static void
read_umask(void)
{
	char line[128];
	unsigned int m;
	FILE *fp;

	/* Linux says it without changing it; elsewhere, set it back at once */
	if ((fp = fopen("/proc/self/status", "re")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL)
			if (sscanf(line, "Umask: %o", &m) == 1) {
				umask_seen = (mode_t)m;
				fclose(fp);
				return;
			}
		fclose(fp);
	}
	umask_seen = umask(022);
	umask(umask_seen);
}

/* 1 if the umask takes bits from mode. */
static int
umask_takes(mode_t mode)
{
	pthread_once(&umask_once, read_umask);
	return (umask_seen & mode) != 0;
}

/* mkdir 0755, whatever the umask if publish is set. */
static int
make_dir(const char *path, int publish)
{
	if (mkdir(path, 0755) == -1)
		return -1;
	if (publish && umask_takes(0755))
		chmod(path, 0755);
	return 0;
}

static int
mkdirs(const char *path, int publish)
{
	char *parent, *slash;
	int rc;

	/* from the leaf up: usually only the last folders are missing */
	if (make_dir(path, publish) == 0)
		return 0;
	if (errno == EEXIST)
		return fs_is_dir(path) ? 0 : (errno = ENOTDIR, -1);
	if (errno != ENOENT)
		return -1;
	parent = xstrdup(path);
	slash = strrchr(parent, '/');
	while (slash != NULL && slash > parent && slash[-1] == '/')
		slash--;
	if (slash == NULL || slash == parent) {
		free(parent);
		errno = ENOENT;
		return -1;
	}
	*slash = '\0';
	rc = mkdirs(parent, publish);
	free(parent);
	if (rc == -1)
		return -1;
	if (make_dir(path, publish) == -1 && errno != EEXIST)
		return -1;
	return 0;
}

static int
mkparents(const char *path, int publish)
{
	char *p = xstrdup(path), *slash;
	int rc = 0;

	slash = strrchr(p, '/');
	if (slash != NULL && slash != p) {
		*slash = '\0';
		rc = mkdirs(p, publish);
	}
	free(p);
	return rc;
}

int
fs_mkdirs(const char *path)
{
	return mkdirs(path, 0);
}

int
fs_mkdirs_published(const char *path)
{
	return mkdirs(path, 1);
}

int
fs_mkparents(const char *path)
{
	return mkparents(path, 0);
}

static int
write_all(int fd, const char *data, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, data, n);
		if (w == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += w;
		n -= (size_t)w;
	}
	return 0;
}

/* write_all for pieces, 256 a call (IOV_MAX is at least 1024); iov is
 * not changed. */
static int
writev_all(int fd, const struct iovec *iov, size_t n)
{
	struct iovec v[256];
	size_t i = 0, k, skip = 0;	/* bytes of iov[i] written */
	ssize_t w;

	while (i < n) {
		for (k = 0; k < 256 && i + k < n; k++)
			v[k] = iov[i + k];
		v[0].iov_base = (char *)v[0].iov_base + skip;
		v[0].iov_len -= skip;
		if ((w = writev(fd, v, (int)k)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		/* past the pieces written whole */
		while (i < n && (size_t)w >= iov[i].iov_len - skip) {
			w -= (ssize_t)(iov[i].iov_len - skip);
			skip = 0;
			i++;
		}
		skip += (size_t)w;
	}
	return 0;
}

/* A name beside path (or in tmpdir) that no other writer (thread or
 * process) uses. */
static char *
temp_name(const char *path, const char *tmpdir)
{
	static atomic_uint counter;
	struct buf b = BUF_INIT;
	const char *base = path_base(path);

	if (tmpdir != NULL)
		buf_printf(&b, "%s/", tmpdir);
	else
		buf_add(&b, path, (size_t)(base - path));
	buf_printf(&b, ".%s.%ld.%u.tmp", base, (long)getpid(),
	    atomic_fetch_add(&counter, 1));
	return buf_detach(&b, NULL);
}

int
fs_write_atomic(const char *path, const void *data, size_t n)
{
	return fs_write_atomic_via(path, NULL, data, n);
}

static int	write_new(const char *, const char *, const struct iovec *, size_t,
		    int);

/* Makes the folder of path (borrowed, restored) if it is missing. */
static void
make_parent(char *path)
{
	char *slash;

	if ((slash = strrchr(path, '/')) != NULL && slash != path) {
		*slash = '\0';
		if (make_dir(path, 1) == -1 && errno == ENOENT &&
		    mkparents(path, 1) == 0)
			make_dir(path, 1);
		*slash = '/';
	}
}

int
fs_write_excl(char *path, const void *data, size_t n, int dir_there)
{
	int fd = -1, saved, flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;

	/* A new page usually sits in a folder of its own, new as well:
	 * making the folder first spares an open that would fail; a second
	 * file beside it spares the mkdir that would. */
	if (dir_there)
		fd = open(path, flags, 0644);
	if (fd == -1 && (!dir_there || errno == ENOENT)) {
		make_parent(path);
		fd = open(path, flags, 0644);
	}
	if (fd == -1)
		return -1;
	if ((umask_takes(0644) && fchmod(fd, 0644) == -1) ||
	    write_all(fd, data, n) == -1 || close(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(path);
		errno = saved;
		return -1;
	}
	return 0;
}

int
fs_write_cache(const char *path, const void *data, size_t n)
{
	struct iovec v = { (void *)data, n };

	return write_new(path, NULL, &v, 1, 1);
}

int
fs_write_cache_v(const char *path, const struct iovec *iov, size_t n)
{
	return write_new(path, NULL, iov, n, 1);
}

int
fs_append(const char *path, const void *data, size_t n)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd == -1)
		return -1;
	return close_keep(fd, write_all(fd, data, n));
}

int
fs_write_file(const char *path, const void *data, size_t n, mode_t mode,
    uid_t uid, gid_t gid)
{
	char *tmp = temp_name(path, NULL);
	int fd, saved;

	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode & 0600);
	if (fd == -1) {
		free(tmp);
		return -1;
	}
	/* the mode asked for, whatever the umask; the owner before any
	 * reader can open it under its name */
	if (write_all(fd, data, n) == -1 || fchmod(fd, mode) == -1 ||
	    (uid != (uid_t)-1 && fchown(fd, uid, gid) == -1) ||
	    fsync(fd) == -1 || close(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	if (rename(tmp, path) == -1) {
		saved = errno;
		unlink(tmp);
		free(tmp);
		errno = saved;
		return -1;
	}
	free(tmp);
	return 0;
}

int
fs_write_atomic_via(const char *path, const char *tmpdir, const void *data,
    size_t n)
{
	struct iovec v = { (void *)data, n };

	return write_new(path, tmpdir, &v, 1, 0);
}

static int
write_new(const char *path, const char *tmpdir, const struct iovec *iov,
    size_t niov, int drop_old)
{
	char *tmp;
	int fd, saved, publish = tmpdir != NULL;	/* an output */

	/* Folders are made only when missing: most writes go to one that
	 * exists, and a syscall per path component adds up. */
	if (tmpdir == NULL && fs_mkparents(path) == -1)
		return -1;
	tmp = temp_name(path, tmpdir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	/* the temporary folder is made when first needed */
	if (fd == -1 && errno == ENOENT && tmpdir != NULL &&
	    fs_mkdirs(tmpdir) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1)
		goto fail;
	if ((publish && umask_takes(0644) && fchmod(fd, 0644) == -1) ||
	    writev_all(fd, iov, niov) == -1 || close(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		goto fail;
	}
	/*
	 * ext4 (auto_da_alloc) writes a file out before renaming it over
	 * another, which costs milliseconds per megabyte; a cache can do
	 * without: between the two calls it is merely absent.
	 */
	if (drop_old)
		unlink(path);
	if (rename(tmp, path) == -1 && (errno != ENOENT ||
	    mkparents(path, publish) == -1 || rename(tmp, path) == -1)) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	free(tmp);
	return -1;
}

int
fs_copy_atomic(const char *src, const char *dst)
{
	return fs_copy_atomic_via(src, dst, NULL);
}

int
fs_copy_atomic_via(const char *src, const char *dst, const char *tmpdir)
{
	struct buf b = BUF_INIT;
	struct stat st;
	struct timespec times[2];
	int rc = -1;

	if (stat(src, &st) == -1 || fs_read(src, &b) == -1)
		goto out;
	if (fs_write_atomic_via(dst, tmpdir, b.ptr, b.len) == -1)
		goto out;
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	utimensat(AT_FDCWD, dst, times, 0);
	rc = 0;
out:
	buf_release(&b);
	return rc;
}

int
fs_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int
fs_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int
fs_remove_tree(const char *path)
{
	struct stat st;
	struct dirent *de;
	DIR *dir;
	char *child;
	int rc = 0;

	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	if ((dir = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(dir)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		child = path_join(path, de->d_name);
		if (fs_remove_tree(child) == -1)
			rc = -1;
		free(child);
	}
	closedir(dir);
	if (rmdir(path) == -1)
		rc = -1;
	return rc;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
fs_name_hidden(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' || (n > 0 && name[n - 1] == '~') ||
	    (n > 1 && name[0] == '#' && name[n - 1] == '#');
}

int
fs_within(const char *root, const char *path, char *real)
{
	char own[PATH_MAX];
	size_t n = strlen(root);

	if (real == NULL)
		real = own;
	if (realpath(path, real) == NULL)
		return -1;
	if (strncmp(real, root, n) != 0)
		return 0;
	/* "/site" holds "/site/x", not "/site2" */
	return real[n] == '\0' || real[n] == '/' || (n > 0 && root[n - 1] == '/');
}

int
fs_bound_init(struct fs_bound *bd, const char *site, int follow,
    struct diag *d)
{
	char real[PATH_MAX];

	memset(bd, 0, sizeof(*bd));
	if (realpath(site, real) == NULL)
		return -1;
	bd->root = xstrdup(real);
	bd->follow = follow;
	bd->d = d;
	return 0;
}

void
fs_bound_release(struct fs_bound *bd)
{
	free(bd->root);
	memset(bd, 0, sizeof(*bd));
}

/* 1 if path or a folder above it is a symbolic link, up to the first that
 * lies inside root. */
static int
through_link(const char *root, const char *path)
{
	struct stat st;
	char *p = xstrdup(path), *slash;
	int link = 0;

	for (;;) {
		if (lstat(p, &st) == 0 && S_ISLNK(st.st_mode)) {
			link = 1;
			break;
		}
		if ((slash = strrchr(p, '/')) == NULL || slash == p)
			break;
		*slash = '\0';
		if (fs_within(root, p, NULL) == 1)
			break;
	}
	free(p);
	return link;
}

/* 1 if a folder name in real past the site root is one never published. */
static int
through_hidden(const char *real, size_t rootlen)
{
	const char *p = real + rootlen, *end;
	char name[NAME_MAX + 1];
	size_t n;

	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			return 0;
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n > NAME_MAX)
			n = NAME_MAX;
		memcpy(name, p, n);
		name[n] = '\0';
		if (fs_name_hidden(name))
			return 1;
		p += n;
	}
}

int
fs_bound_check(const struct fs_bound *bd, const char *path)
{
	char real[PATH_MAX];
	int in, link;

	if (bd == NULL || bd->root == NULL)
		return 1;
	if ((in = fs_within(bd->root, path, real)) == -1) {
		if (errno != ELOOP)
			return 1;	/* dangling: its reader says so */
		diag_error(bd->d, path, 0, "symbolic link loop (a link that "
		    "leads back to itself); not published");
		return 0;
	}
	if (in == 0) {
		if (bd->follow)
			return 1;
		link = through_link(bd->root, path);
		diag_warn(bd->d, path, 0, "%s leaves the site (-> %s); not "
		    "published", link ? "symbolic link" : "folder", real);
		return 0;
	}
	if (through_hidden(real, strlen(bd->root))) {
		diag_warn(bd->d, path, 0, "symbolic link leads to a hidden "
		    "file of the site (-> %s); not published", real);
		return 0;
	}
	return 1;
}

/* The folders being walked, innermost first: a link to one of them would
 * walk it again, and again. */
struct ancestor {
	dev_t			 dev;
	ino_t			 ino;
	const struct ancestor	*up;
};

struct walker {
	const struct fs_bound	*bd;
	fs_walk_fn		 fn;
	void			*arg;
};

static int
is_ancestor(const struct ancestor *a, const struct stat *st)
{
	for (; a != NULL; a = a->up)
		if (a->dev == st->st_dev && a->ino == st->st_ino)
			return 1;
	return 0;
}

/*
 * path and rel hold the folder's paths (rel may be empty); each entry is
 * appended to both in turn, and they are put back before returning. The
 * names of a folder live in one block, each after its d_type byte: no
 * allocation per file.
 */
static int
walk(const struct walker *w, struct buf *path, struct buf *rel,
    const struct ancestor *up, int depth)
{
	DIR *dir;
	struct dirent *de;
	struct stat st, lst;
	struct ancestor me;
	struct buf names = BUF_INIT;
	char **list = NULL;
	size_t n = 0, cap = 0, i, plen = path->len, rlen = rel->len;
	int rc = 0, islink;
	unsigned char type;

	if (depth > 64)
		return 0;
	if ((dir = opendir(path->ptr)) == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(dir)) != NULL) {
		if (fs_name_hidden(de->d_name))
			continue;
		/* offsets now, pointers once the block stops moving */
		xgrow((void **)&list, &cap, n + 1, sizeof(*list));
		buf_addc(&names, (char)de->d_type);
		list[n++] = (char *)(uintptr_t)names.len;
		buf_add(&names, de->d_name, strlen(de->d_name) + 1);
	}
	for (i = 0; i < n; i++)
		list[i] = names.ptr + (uintptr_t)list[i];
	xqsort(list, n, sizeof(*list), cmp_names);
	/* stat relative to the open folder: no walk down the whole path */
	for (i = 0; i < n && rc == 0; i++) {
		if (plen > 0 && path->ptr[plen - 1] != '/')
			buf_addc(path, '/');
		buf_adds(path, list[i]);
		if (rlen > 0)
			buf_addc(rel, '/');
		buf_adds(rel, list[i]);
		/* d_type tells links apart without a call, mostly */
		type = (unsigned char)list[i][-1];
		islink = type == DT_LNK || (type == DT_UNKNOWN &&
		    fstatat(dirfd(dir), list[i], &lst,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode));
		if (islink && !fs_bound_check(w->bd, path->ptr))
			;	/* left out, and said so */
		else if (fstatat(dirfd(dir), list[i], &st, 0) == 0) {
			if (S_ISDIR(st.st_mode) && is_ancestor(up, &st)) {
				if (w->bd != NULL)
					diag_error(w->bd->d, path->ptr, 0,
					    "symbolic link loop (a link to a "
					    "folder that holds it); not "
					    "published");
			} else if (S_ISDIR(st.st_mode)) {
				me.dev = st.st_dev;
				me.ino = st.st_ino;
				me.up = up;
				rc = walk(w, path, rel, &me, depth + 1);
			} else if (S_ISREG(st.st_mode))
				rc = w->fn(path->ptr, rel->ptr, &st, w->arg);
		} else if (islink && fstatat(dirfd(dir), list[i], &st,
		    AT_SYMLINK_NOFOLLOW) == 0) {
			/* a dangling link is reported by whoever reads it */
			rc = w->fn(path->ptr, rel->ptr, &st, w->arg);
		}
		buf_truncate(path, plen);
		buf_truncate(rel, rlen);
	}
	closedir(dir);
	free(list);
	buf_release(&names);
	return rc;
}

int
fs_walk_in(const char *root, const struct fs_bound *bd, fs_walk_fn fn,
    void *arg)
{
	struct buf path = BUF_INIT, rel = BUF_INIT;
	struct walker w = { bd, fn, arg };
	struct ancestor top;
	struct stat st;
	int rc;

	if (stat(root, &st) == -1 || !S_ISDIR(st.st_mode))
		return 0;
	if (bd != NULL && !fs_bound_check(bd, root))
		return 0;
	top.dev = st.st_dev;
	top.ino = st.st_ino;
	top.up = NULL;
	buf_adds(&path, root);
	while (path.len > 1 && path.ptr[path.len - 1] == '/')
		buf_truncate(&path, path.len - 1);
	buf_grow(&rel, 64);
	rc = walk(&w, &path, &rel, &top, 0);
	buf_release(&path);
	buf_release(&rel);
	return rc;
}

int
fs_walk(const char *root, fs_walk_fn fn, void *arg)
{
	return fs_walk_in(root, NULL, fn, arg);
}

char *
path_join(const char *a, const char *b)
{
	struct buf out = BUF_INIT;
	size_t la;

	if (b[0] == '/' || a[0] == '\0')
		return xstrdup(b);
	la = strlen(a);
	while (la > 1 && a[la - 1] == '/')
		la--;
	buf_add(&out, a, la);
	if (!(la == 1 && a[0] == '/'))
		buf_addc(&out, '/');
	buf_adds(&out, b);
	return buf_detach(&out, NULL);
}

const char *
path_base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

const char *
path_ext(const char *path)
{
	const char *base = path_base(path), *dot = strrchr(base, '.');

	return dot && dot != base ? dot + 1 : "";
}
