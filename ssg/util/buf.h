#ifndef SSG_BUF_H
#define SSG_BUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable byte buffer.
 *
 * Invariants, after every operation:
 *  - ptr is never NULL (an empty, unallocated buffer points at a shared "");
 *  - ptr[len] == '\0', so ptr is always a C string;
 *  - len is the truth: the data may itself hold NUL bytes.
 * Allocation failure aborts (see mem.h).
 */
struct buf {
	char	*ptr;
	size_t	 len;
	size_t	 cap;	/* 0 while ptr is the shared "" */
};

extern char buf_empty_[1];
#define BUF_INIT { buf_empty_, 0, 0 }

void	buf_init(struct buf *b);
/* Frees the memory and leaves b as after buf_init. */
void	buf_release(struct buf *b);
/* Empties b but keeps its memory for reuse. */
void	buf_clear(struct buf *b);
/* Makes room for at least extra more bytes (plus the NUL). */
void	buf_grow(struct buf *b, size_t extra);
void	buf_add(struct buf *b, const void *data, size_t n);
void	buf_adds(struct buf *b, const char *s);
void	buf_addc(struct buf *b, int c);
/* Appends v in decimal. */
void	buf_add_u64(struct buf *b, unsigned long long v);
void	buf_printf(struct buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Shortens b to len bytes; len greater than b->len is ignored. */
void	buf_truncate(struct buf *b, size_t len);
/* Hands the malloc'd string to the caller (who frees it) and resets b.
 * If len is not NULL it receives the length. Never returns NULL. */
char	*buf_detach(struct buf *b, size_t *len);

#endif
