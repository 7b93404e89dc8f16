#include "hash.h"

#include <string.h>

#include <xxhash.h>

#include "buf.h"

uint64_t
hash64(const void *data, size_t n)
{
	return (uint64_t)XXH3_64bits(data, n);
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
