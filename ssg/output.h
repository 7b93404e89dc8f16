#ifndef SSG_OUTPUT_H
#define SSG_OUTPUT_H

#include <stddef.h>

struct diag;

/*
 * Writing the output tree. Every file is written to a temporary name and
 * renamed into place, so a reader (or a failed build) never sees half a
 * file. A file whose bytes did not change is not rewritten, so its mtime,
 * and any cache in front of it, stay valid. The manifest lists what this
 * tool wrote, so stale files can be removed without touching anything
 * else in the folder.
 */
struct manifest;

struct manifest *manifest_new(void);
void	 manifest_free(struct manifest *m);
/* Records rel as produced by this build. Thread-safe. */
void	 manifest_add(struct manifest *m, const char *rel);
/* Loads the list a previous build saved (a missing file is empty). */
int	 manifest_load(struct manifest *m, const char *path);
/* Saves atomically. */
int	 manifest_save(const struct manifest *m, const char *path);
/* Deletes every file listed in old but not in cur from out_dir (with its
 * .gz and .br siblings) and the folders that become empty. Returns how
 * many files were removed. */
size_t	 manifest_remove_stale(const struct manifest *old,
	    const struct manifest *cur, const char *out_dir, struct diag *d);

/* Writes data to out_dir/rel unless the file already holds exactly those
 * bytes. *changed (may be NULL) tells which. Returns 0 or -1 (recorded). */
int	 output_write(const char *out_dir, const char *rel, const void *data,
	    size_t n, int *changed, struct diag *d);
/* Copies src to out_dir/rel unless a file of the same size and mtime is
 * there. Returns 0 or -1 (recorded). */
int	 output_copy(const char *src, const char *out_dir, const char *rel,
	    int *changed, struct diag *d);

#endif
