#include "watch.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
#include <sys/inotify.h>
#define HAVE_INOTIFY 1
#endif

#include "diag.h"
#include "fsutil.h"
#include "mem.h"

#define POLL_MS	500

struct wdir {
	int	 wd;
	char	*path;
	int	 parent;	/* watches a root's parent folder only */
};

struct watch {
	int		 fd;		/* inotify, or -1 when polling */
	char		**roots;
	size_t		 nroots, rcap;
	struct wdir	*dirs;
	size_t		 ndirs, dcap;
	uint64_t	 sig;		/* polling: the last signature */
	int		 full;		/* inotify ran out of watches */
};

/* Names editors and tools write beside the files: not content. */
static int
ignored_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || name[0] == '.' || name[n - 1] == '~')
		return 1;
	if (n > 4 && (strcmp(name + n - 4, ".swp") == 0 ||
	    strcmp(name + n - 4, ".swx") == 0 ||
	    strcmp(name + n - 4, ".tmp") == 0))
		return 1;
	return strcmp(name, "4913") == 0;	/* vim's write test */
}

/* ---- polling ---- */

static void
fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		*h ^= *s++;
		*h *= 1099511628211ULL;
	}
}

static void
sign_tree(uint64_t *h, const char *path, int depth)
{
	struct stat st;
	struct dirent *de;
	DIR *dp;
	char *sub;
	long long v[3];

	fnv(h, path, strlen(path) + 1);
	if (lstat(path, &st) == -1) {
		fnv(h, "-", 1);
		return;
	}
	v[0] = (long long)st.st_size;
	v[1] = (long long)st.st_mtim.tv_sec;
	v[2] = (long long)st.st_mtim.tv_nsec;
	fnv(h, v, sizeof(v));
	if (!S_ISDIR(st.st_mode) || depth > 32 || (dp = opendir(path)) == NULL)
		return;
	/* readdir order is stable while nothing changes */
	while ((de = readdir(dp)) != NULL) {
		if (ignored_name(de->d_name))
			continue;
		sub = path_join(path, de->d_name);
		sign_tree(h, sub, depth + 1);
		free(sub);
	}
	closedir(dp);
}

static uint64_t
signature(const struct watch *w)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < w->nroots; i++)
		sign_tree(&h, w->roots[i], 0);
	return h;
}

/* Sleeps ms; 0, or -1 when a signal came. */
static int
nap(int ms)
{
	if (poll(NULL, 0, ms) == -1 && errno == EINTR)
		return -1;
	return 0;
}

static int
poll_wait(struct watch *w, int timeout_ms, int quiet_ms)
{
	uint64_t s;
	int waited = 0;

	for (;;) {
		if ((s = signature(w)) != w->sig)
			break;
		if (waited >= timeout_ms)
			return 0;
		if (nap(POLL_MS < timeout_ms - waited ? POLL_MS :
		    timeout_ms - waited) == -1)
			return 0;
		waited += POLL_MS;
	}
	w->sig = s;
	for (;;) {
		if (nap(quiet_ms) == -1)
			break;
		if ((s = signature(w)) == w->sig)
			break;
		w->sig = s;
	}
	return 1;
}

/* ---- inotify ---- */

#ifdef HAVE_INOTIFY
#define DIR_EVENTS (IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | \
    IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)

static void
add_wd(struct watch *w, const char *path, int parent)
{
	size_t i;
	int wd;

	if ((wd = inotify_add_watch(w->fd, path, DIR_EVENTS | IN_ONLYDIR)) == -1) {
		if (errno == ENOSPC || errno == ENOMEM)
			w->full = 1;	/* out of watches: poll instead */
		return;
	}
	for (i = 0; i < w->ndirs; i++)
		if (w->dirs[i].wd == wd) {
			/* a recursive watch wins over a parent-only one */
			if (!parent)
				w->dirs[i].parent = 0;
			return;
		}
	xgrow((void **)&w->dirs, &w->dcap, w->ndirs + 1, sizeof(*w->dirs));
	w->dirs[w->ndirs].wd = wd;
	w->dirs[w->ndirs].path = xstrdup(path);
	w->dirs[w->ndirs].parent = parent;
	w->ndirs++;
}

static void
add_tree(struct watch *w, const char *path, int depth)
{
	struct dirent *de;
	struct stat st;
	DIR *dp;
	char *sub;

	if (depth > 32 || lstat(path, &st) == -1 || !S_ISDIR(st.st_mode))
		return;
	add_wd(w, path, 0);
	if ((dp = opendir(path)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (ignored_name(de->d_name))
			continue;
		sub = path_join(path, de->d_name);
		add_tree(w, sub, depth + 1);
		free(sub);
	}
	closedir(dp);
}

static const struct wdir *
find_wd(const struct watch *w, int wd)
{
	size_t i;

	for (i = 0; i < w->ndirs; i++)
		if (w->dirs[i].wd == wd)
			return &w->dirs[i];
	return NULL;
}

/* 1 if a root has this full path. */
static int
is_root(const struct watch *w, const char *path)
{
	size_t i;

	for (i = 0; i < w->nroots; i++)
		if (strcmp(w->roots[i], path) == 0)
			return 1;
	return 0;
}

/* Reads the pending events; 1 if one of them matters. */
static int
drain(struct watch *w)
{
	char ev[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *e;
	const struct wdir *wd;
	char *full, *dirpath;
	ssize_t n;
	size_t off;
	int hit = 0;

	while ((n = read(w->fd, ev, sizeof(ev))) > 0) {
		for (off = 0; off < (size_t)n; off += sizeof(*e) + e->len) {
			e = (const struct inotify_event *)(ev + off);
			if ((wd = find_wd(w, e->wd)) == NULL || e->len == 0 ||
			    ignored_name(e->name))
				continue;
			dirpath = xstrdup(wd->path);
			full = path_join(dirpath, e->name);
			if (wd->parent && !is_root(w, full)) {
				free(full);
				free(dirpath);
				continue;
			}
			hit = 1;
			if ((e->mask & IN_ISDIR) &&
			    (e->mask & (IN_CREATE | IN_MOVED_TO)))
				add_tree(w, full, 0);	/* may grow w->dirs */
			free(full);
			free(dirpath);
		}
	}
	return hit;
}

static int
inotify_wait(struct watch *w, int timeout_ms, int quiet_ms)
{
	struct pollfd p;
	int r, hit = 0;

	p.fd = w->fd;
	p.events = POLLIN;
	if ((r = poll(&p, 1, timeout_ms)) == -1)
		return errno == EINTR ? 0 : -1;
	if (r == 0)
		return 0;
	hit = drain(w);
	/* let one save (several files, temp file + rename) settle */
	while (hit && (r = poll(&p, 1, quiet_ms)) > 0)
		drain(w);
	return hit;
}
#endif

/* ---- common ---- */

struct watch *
watch_new(struct diag *d)
{
	struct watch *w = xcalloc(1, sizeof(*w));
	const char *mode = getenv("SSG_WATCH");

	(void)d;
	w->fd = -1;
#ifdef HAVE_INOTIFY
	if (mode == NULL || strcmp(mode, "poll") != 0) {
		w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (w->fd == -1)
			diag_warn(d, NULL, 0, "inotify: %s; polling for changes "
			    "instead", strerror(errno));
	}
#else
	(void)mode;
#endif
	return w;
}

void
watch_add(struct watch *w, const char *path)
{
	xgrow((void **)&w->roots, &w->rcap, w->nroots + 1, sizeof(*w->roots));
	w->roots[w->nroots++] = xstrdup(path);
#ifdef HAVE_INOTIFY
	if (w->fd != -1) {
		const char *base = path_base(path);
		char *parent = base > path ? xstrndup(path,
		    (size_t)(base - path)) : xstrdup(".");

		/* the parent sees the root made, replaced or removed */
		add_wd(w, parent, 1);
		free(parent);
		add_tree(w, path, 0);
		if (!w->full)
			return;
		close(w->fd);
		w->fd = -1;
	}
#endif
	w->sig = signature(w);
}

int
watch_wait(struct watch *w, int timeout_ms, int quiet_ms)
{
#ifdef HAVE_INOTIFY
	if (w->fd != -1 && !w->full)
		return inotify_wait(w, timeout_ms, quiet_ms);
	if (w->full && w->fd != -1) {
		close(w->fd);
		w->fd = -1;
		w->sig = signature(w);
	}
#endif
	return poll_wait(w, timeout_ms, quiet_ms);
}

int
watch_native(const struct watch *w)
{
	return w->fd != -1;
}

void
watch_free(struct watch *w)
{
	size_t i;

	if (w == NULL)
		return;
	if (w->fd != -1)
		close(w->fd);
	for (i = 0; i < w->nroots; i++)
		free(w->roots[i]);
	for (i = 0; i < w->ndirs; i++)
		free(w->dirs[i].path);
	free(w->roots);
	free(w->dirs);
	free(w);
}
