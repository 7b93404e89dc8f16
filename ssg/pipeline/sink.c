/* The writer of the output folder (sink.h). */

#include "sink.h"

#include <stdlib.h>

#include "buf.h"
#include "compress.h"
#include "fsutil.h"
#include "manifest.h"
#include "output.h"

/* Keeps the .gz and .br siblings of a written file in step with it;
 * data NULL: read from the file when a sibling must be written. */
static void
siblings(struct sink *s, const char *rel, const void *data, size_t n,
    int changed)
{
	struct buf read = BUF_INIT;
	char *path;

	if (!compress_wanted(rel))
		return;
	/* without precompression, siblings are removed in one pass at the
	 * end (remove_siblings), only if some may exist */
	if (!s->compress)
		return;
	path = path_join(s->dir, rel);
	if (changed || !compress_present(path)) {
		if (data == NULL && fs_read(path, &read) == 0) {
			data = read.ptr;
			n = read.len;
		}
		if (data != NULL)
			compress_siblings(path, data, n, s->tmpdir, s->d);
	}
	buf_release(&read);
	free(path);
}

int
sink_bytes(struct sink *s, const char *rel, const void *data, size_t n,
    uint64_t fp, uint64_t base, int flags, int *changed)
{
	int ch = 1, rc;

	if (flags & SINK_CREATE)
		rc = output_create(s->dir, rel, data, n,
		    (flags & SINK_DIR_THERE) != 0, s->d);
	else
		rc = output_write(s->dir, rel, data, n, &ch, s->d);
	if (rc == -1)
		return -1;
	siblings(s, rel, data, n, ch);
	manifest_add(s->list, rel, fp, base);
	if (changed != NULL)
		*changed = ch;
	return 0;
}

int
sink_file(struct sink *s, const char *src, const char *rel, int *changed)
{
	int ch;

	if (output_copy(src, s->dir, rel, &ch, s->d) == -1)
		return -1;
	siblings(s, rel, NULL, 0, ch);
	manifest_add(s->list, rel, 0, 0);
	if (changed != NULL)
		*changed = ch;
	return 0;
}
