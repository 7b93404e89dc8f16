#ifndef SSG_CMD_WRITE_INT_H
#define SSG_CMD_WRITE_INT_H

/* Shared by cmd_write.c (init and new, and writing source files) and
 * cmd_edit.c (edit, delete and publish: commands on an existing source).
 * Not for other modules. */

#include <stddef.h>
#include <time.h>

struct buf;
struct cli;

/* Appends now as a front matter date ("YYYY-MM-DD HH:MM:SS +ZZZZ"). */
void	 cw_now_text(struct buf *out, time_t now);
/* Opens path in the user's editor; its exit status, or -1. */
int	 cw_run_editor(struct cli *cli, const char *path);
/* Builds the site with the default options; the exit status. */
int	 cw_build_site(struct cli *cli);
/* A free path in dir for prefix + slug + "." + ext (slug-2, slug-3...);
 * the slug used goes to *slug_out when not NULL. Caller frees both. */
char	*cw_free_name(const char *dir, const char *prefix, const char *slug,
	    const char *ext, char **slug_out);
/* Writes a new file, never replacing one. 0, or -1 with errno set. */
int	 cw_write_new(const char *path, const char *data, size_t n);

#endif
