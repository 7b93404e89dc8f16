#ifndef SSG_SRCCACHE_H
#define SSG_SRCCACHE_H

#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>

struct arena;
struct diag;
struct post;

/*
 * The parsed form of every source file, kept between builds in
 * .ssg-cache/sources.bin, so an unchanged file is neither read nor parsed
 * again. An entry is found by path and used when the file's stat
 * signature (size, mtime, inode) is unchanged, or else when its content
 * hash is. The file carries a version, the site it belongs to and the
 * settings parsing depends on, and a checksum: any mismatch discards it
 * (with a warning when it is damaged), never giving a wrong page.
 */
struct srccache;

/* Loads path (missing: empty cache). site_id and cfg_hash must match what
 * was saved, or the cache starts empty. Strings go into arena a. */
struct srccache	*srccache_load(const char *path, uint64_t site_id,
		    uint64_t cfg_hash, struct arena *a, struct diag *d);
void		 srccache_free(struct srccache *c);
/* The cached post for path if its stat signature matches, else NULL;
 * *hash receives the content hash it was parsed from. */
const struct post *srccache_by_stat(struct srccache *c, const char *rel,
		    const struct stat *st, uint64_t *hash);
/* The cached post for path if its content hash matches, else NULL. */
const struct post *srccache_by_hash(struct srccache *c, const char *rel,
		    uint64_t hash);
/* How many sources the loaded cache holds. */
size_t		 srccache_count(const struct srccache *c);
/* Makes room for the n sources of this build. */
void		 srccache_expect(struct srccache *c, size_t n);
/* Records p (copied) as source i of this build (i < n), for the next
 * build. Threads may record different sources at once. */
void		 srccache_put(struct srccache *c, size_t i, const char *rel,
		    const struct stat *st, uint64_t hash, const struct post *p);
/* Saves the entries put during this build, atomically. */
int		 srccache_save(struct srccache *c, const char *path);

#endif
