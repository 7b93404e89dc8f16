#ifndef SSG_WATCH_H
#define SSG_WATCH_H

struct diag;

/*
 * Waiting for a site's sources to change: inotify on Linux, and polling
 * (a signature of every path, size and modification time, taken twice a
 * second) elsewhere or when SSG_WATCH=poll is set. Folders are watched
 * with everything under them; hidden names and editor backups (name~,
 * *.swp) are ignored.
 */
struct watch;

/* A watcher of nothing yet. Returns NULL after recording why in d. */
struct watch	*watch_new(struct diag *d);
/* Watches a folder and everything under it (it may not exist yet: it is
 * picked up once created), or a single file. */
void		 watch_add(struct watch *w, const char *path);
/*
 * Waits up to timeout_ms for a change, then for quiet_ms without further
 * change (so that one save that touches several files is one change).
 * Returns 1 after a change, 0 on timeout or a signal, -1 on error.
 */
int		 watch_wait(struct watch *w, int timeout_ms, int quiet_ms);
/* 1 when inotify is used, 0 when polling. */
int		 watch_native(const struct watch *w);
/* Frees; NULL does nothing. */
void		 watch_free(struct watch *w);

#endif
