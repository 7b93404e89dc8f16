#ifndef SSG_MANIFEST_H
#define SSG_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

struct diag;

/*
 * The list of files a build wrote into the output folder, each with the
 * fingerprint of everything it shows. The next build skips a page whose
 * fingerprint is unchanged and whose file is still there, and removes the
 * files it no longer produces, and only those: nothing else in the folder
 * is ever deleted.
 */
struct manifest;

struct manifest *manifest_new(void);
/* NULL does nothing. */
void	 manifest_free(struct manifest *m);
/* Records rel with its fingerprint fp (0: none) and base, the part of
 * fp that comes from templates and settings (to explain a rebuild).
 * Thread-safe. */
void	 manifest_add(struct manifest *m, const char *rel, uint64_t fp,
	    uint64_t base);
/* Loads what a previous build saved. A missing file is an empty list;
 * a damaged one is reported as a warning and treated as empty. */
int	 manifest_load(struct manifest *m, const char *path, struct diag *d);
/* Saves atomically. Returns 0 or -1 (errno set). */
int	 manifest_save(struct manifest *m, const char *path);
/* Calls fn for every path listed, in order. */
void	 manifest_foreach(struct manifest *m, void (*fn)(const char *rel,
	    void *arg), void *arg);
/* Builds the lookup index now; lookups that follow (manifest_get) only
 * read, so several threads may make them at once. */
void	 manifest_index(struct manifest *m);
/* 1 if a and b list the same paths with the same fingerprints. */
int	 manifest_same(struct manifest *a, struct manifest *b);
/*
 * What a build found in the output folder of each listed file, recorded
 * by whoever checked (several threads may, each for other entries):
 * unchecked, there, gone, or there without its compressed copies.
 */
enum { MANIFEST_UNCHECKED, MANIFEST_FOUND, MANIFEST_GONE,
    MANIFEST_NO_COPIES };
void	 manifest_set_found(struct manifest *m, size_t i, int found);
/* 1 and the recorded fingerprint, base and what was found of rel (found
 * may be NULL), or 0 if rel is not listed. Call after loading, not while
 * workers add entries. */
int	 manifest_get(struct manifest *m, const char *rel, uint64_t *fp,
	    uint64_t *base, int *found);
/* 1 if every file listed was checked and found with its copies. */
int	 manifest_all_found(const struct manifest *m);
/* Sets the fingerprint of rel to 0 (so it is rendered again even if a
 * build stops half-way). */
void	 manifest_forget(struct manifest *m, const char *rel);
/* Deletes every file listed in old but not in cur from out_dir (with its
 * .gz and .br siblings) and the folders that become empty. Returns how
 * many files were removed. */
size_t	 manifest_remove_stale(struct manifest *old, struct manifest *cur,
	    const char *out_dir, struct diag *d);

/*
 * A hash of all a build's inputs, saved with the list when the build ended
 * without error; 0: none. A build whose inputs hash the same need only
 * check that the files are still there.
 */
void	 manifest_set_memo(struct manifest *m, uint64_t memo);
uint64_t manifest_memo(const struct manifest *m);
size_t	 manifest_count(const struct manifest *m);
const char *manifest_path_at(const struct manifest *m, size_t i);
/* 1 if cur lists no pages, the same files copied as they are as old
 * (fingerprint 0), and the same memo: cur with old's pages carried over
 * (manifest_carry) would be old as it is. */
int	 manifest_same_copies(struct manifest *old, struct manifest *cur);
/* Adds to cur each page of old (an entry with a fingerprint) it does not
 * have: files copied as they are (fingerprint 0) are listed by the build
 * that copies them, so one whose source is gone is not carried. */
void	 manifest_carry(struct manifest *old, struct manifest *cur);

#endif
