#include "hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY	/* XXH3_state_t, to keep one on the stack */
#include <xxhash.h>

#include "buf.h"

uint64_t
hash64(const void *data, size_t n)
{
	return (uint64_t)XXH3_64bits(data, n);
}

struct hash_stream *
hash_stream_new(void)
{
	XXH3_state_t *st = XXH3_createState();

	if (st == NULL) {
		fprintf(stderr, "ssg: out of memory\n");
		abort();
	}
	XXH3_64bits_reset(st);
	return (struct hash_stream *)st;
}

void
hash_stream_add(struct hash_stream *hs, const void *data, size_t n)
{
	XXH3_64bits_update((XXH3_state_t *)hs, data, n);
}

uint64_t
hash_stream_end(struct hash_stream *hs)
{
	uint64_t h = (uint64_t)XXH3_64bits_digest((XXH3_state_t *)hs);

	XXH3_freeState((XXH3_state_t *)hs);
	return h;
}

uint64_t
hash64_two(const void *a, size_t na, const void *b, size_t nb)
{
	XXH3_state_t st;

	XXH3_64bits_reset(&st);
	XXH3_64bits_update(&st, a, na);
	XXH3_64bits_update(&st, b, nb);
	return (uint64_t)XXH3_64bits_digest(&st);
}

/* By hand, not with printf: the build's lists write one per file, and
 * printf was most of the cost of saving a list of 30,000. */
void
hash_hex(uint64_t h, char out[17])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--, h >>= 4)
		out[i] = digits[h & 15];
	out[16] = '\0';
}

void
hash_field_str(struct buf *b, const char *s)
{
	size_t n = s ? strlen(s) : (size_t)-1;

	buf_add(b, &n, sizeof(n));
	if (s)
		buf_add(b, s, n);
}

void
hash_field_u64(struct buf *b, uint64_t v)
{
	buf_add(b, &v, sizeof(v));
}
