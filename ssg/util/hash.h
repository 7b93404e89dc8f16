#ifndef SSG_HASH_H
#define SSG_HASH_H

#include <stddef.h>
#include <stdint.h>

/* A fast 64-bit content hash (xxHash XXH3); not for security. */
uint64_t	hash64(const void *data, size_t n);
/* hash64 of bytes that come in pieces, without joining them: new, add
 * each, then end, which frees the stream. */
struct hash_stream;
struct hash_stream *hash_stream_new(void);
void		hash_stream_add(struct hash_stream *hs, const void *data,
		    size_t n);
uint64_t	hash_stream_end(struct hash_stream *hs);
/* hash64 of a's bytes then b's, without joining them. */
uint64_t	hash64_two(const void *a, size_t na, const void *b, size_t nb);
/* Appends 16 lowercase hex digits of h to out[17] (NUL-terminated). */
void		hash_hex(uint64_t h, char out[17]);

/*
 * Fingerprint fields: a string (NULL allowed) or a number added to b, the
 * string length-prefixed so that adjacent fields cannot run together.
 */
struct buf;
void		hash_field_str(struct buf *b, const char *s);
void		hash_field_u64(struct buf *b, uint64_t v);

#endif
