#ifndef SSG_OUTPUT_H
#define SSG_OUTPUT_H

#include <stddef.h>

struct diag;

/*
 * Writing the output tree. A file that is replaced is written to a
 * temporary name and renamed into place, so a reader (or a failed build)
 * never sees half of it; a new file, which nothing has read, is written in
 * place. A file whose bytes did not change is not rewritten, so its mtime,
 * and any cache in front of it, stay valid.
 */
/*
 * Temporary files go to out_dir/.ssg-tmp, never beside the pages, so a
 * build that is killed leaves nothing half-named among them: output_begin
 * clears what an earlier build left there, the first write that needs the
 * folder makes it, output_end removes it.
 */
int	 output_begin(const char *out_dir);
void	 output_end(const char *out_dir);
/* The temporary folder of out_dir (malloc'd). */
char	*output_tmpdir(const char *out_dir);

/* Writes data to out_dir/rel unless the file already holds exactly those
 * bytes. *changed (may be NULL) tells which. Returns 0 or -1 (recorded). */
int	 output_write(const char *out_dir, const char *rel, const void *data,
	    size_t n, int *changed, struct diag *d);
/* The same for a file of a folder this build made, so known absent: no
 * look at what is there first. dir_there: its folder is likely made
 * already (see fs_write_excl). */
int	 output_create(const char *out_dir, const char *rel, const void *data,
	    size_t n, int dir_there, struct diag *d);
/* Copies src to out_dir/rel unless a file of the same size and mtime is
 * there. Returns 0 or -1 (recorded). */
int	 output_copy(const char *src, const char *out_dir, const char *rel,
	    int *changed, struct diag *d);

#endif
