/* The search index as `ssg search` reads it: the input is the query, a
 * NUL, manifest.json, a NUL, len.json, a NUL, the text every page of the
 * document table (d/K.json) holds, a NUL, and the text every shard file
 * holds. A missing part is a missing file. */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "search_query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NPARTS	5

struct parts {
	const char	*p[NPARTS];
	size_t		 n[NPARTS];
	size_t		 count;
};

static int
load(const char *rel, struct buf *out, void *arg)
{
	struct parts *pt = arg;
	size_t i = strcmp(rel, "manifest.json") == 0 ? 1 :
	    strcmp(rel, "len.json") == 0 ? 2 :
	    strncmp(rel, "d/", 2) == 0 ? 3 : 4;

	if (i >= pt->count)
		return -1;
	buf_add(out, pt->p[i], pt->n[i]);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *end = s + size, *z;
	struct parts pt;
	struct search_result r;
	struct buf q = BUF_INIT, err = BUF_INIT;

	memset(&pt, 0, sizeof(pt));
	while (pt.count < NPARTS) {
		z = memchr(s, '\0', (size_t)(end - s));
		pt.p[pt.count] = s;
		pt.n[pt.count] = (size_t)((pt.count < NPARTS - 1 && z ? z :
		    end) - s);
		s += pt.n[pt.count];
		pt.count++;
		if (s >= end)
			break;
		s++;
	}
	buf_add(&q, pt.p[0], pt.n[0]);
	/* a few hits shown, as the page and ssg search show them */
	search_query(q.ptr, 3, load, &pt, &r, &err);
	search_result_release(&r);
	buf_release(&q);
	buf_release(&err);
	return 0;
}
