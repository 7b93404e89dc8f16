#ifndef SSG_COMPRESS_H
#define SSG_COMPRESS_H

#include <stddef.h>

struct diag;

/*
 * Precompressed siblings for web servers that send them as they are
 * (nginx gzip_static / brotli_static): path.gz (zlib, gzip format, best
 * compression) and path.br (brotli).
 */

/* 1 for the types worth compressing: html, css, xml, js, svg, json, txt. */
int	compress_wanted(const char *path);
/* Writes path.gz and path.br of data[0..n), each atomically, with the
 * temporary files in tmpdir (NULL: beside them). Returns 0 or -1
 * (recorded in d). */
int	compress_siblings(const char *path, const void *data, size_t n,
	    const char *tmpdir, struct diag *d);
/* Removes path.gz and path.br if they exist. */
void	compress_remove(const char *path);
/* 1 if both siblings exist. */
int	compress_present(const char *path);

#endif
