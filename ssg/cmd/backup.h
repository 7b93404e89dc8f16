#ifndef SSG_BACKUP_H
#define SSG_BACKUP_H

#include <stddef.h>
#include <time.h>

struct diag;
struct site_config;

/*
 * Backups of a site's sources: tar.gz archives (libarchive) of the posts,
 * pages, drafts, static and templates folders and site.yaml, kept in the
 * site's .ssg-backups/ as ID.tar.gz with ID the local time
 * YYYYMMDD-HHMMSS (plus -2, -3... when taken in the same second).
 */
#define BACKUP_DIR	".ssg-backups"

/* What a restore puts back. */
#define BACKUP_CONTENT	0x1	/* the folders */
#define BACKUP_CONFIG	0x2	/* site.yaml */

struct backup_info {
	char	*id;		/* "20261202-163000" */
	char	*path;		/* the archive */
	long long size;		/* bytes */
	time_t	 mtime;
};

/*
 * Archives the sources of site_dir (folders named by c). Returns the new
 * archive's id (caller frees), or NULL after recording why in d; a failed
 * backup leaves no archive behind.
 */
char	*backup_create(const char *site_dir, const struct site_config *c,
	    struct diag *d);
/* The backups, oldest first, in *list (free with backup_list_free).
 * Returns the number (0 when there are none). */
size_t	 backup_list(const char *site_dir, struct backup_info **list);
void	 backup_list_free(struct backup_info *list, size_t n);
/*
 * Reads the whole archive and checks every entry: a readable gzip/tar
 * stream, relative paths without "..", no name starting with '.', only
 * files and folders. Returns the number of entries, or -1 after recording
 * each problem in d. Changes nothing.
 */
long	 backup_verify(const char *archive, struct diag *d);
/*
 * Restores what flags selects from archive into site_dir: each top-level
 * folder of the archive replaces the site's folder of that name whole
 * (files made since are removed); site.yaml replaces site.yaml. The
 * archive is verified and unpacked beside the site first, so a damaged one
 * changes nothing. Returns 0, or -1 after recording why in d.
 */
int	 backup_restore(const char *site_dir, const char *archive, int flags,
	    struct diag *d);

#endif
