#include "hash.h"

#include <stdio.h>
#include <string.h>

#include <xxhash.h>

#include "buf.h"

uint64_t
hash64(const void *data, size_t n)
{
	return (uint64_t)XXH3_64bits(data, n);
}

void
hash_hex(uint64_t h, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long)h);
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
