#include "hash.h"

#include <stdio.h>

#include <xxhash.h>

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
