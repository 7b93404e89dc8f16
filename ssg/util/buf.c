#include "buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

char buf_empty_[1];

void
buf_init(struct buf *b)
{
	b->ptr = buf_empty_;
	b->len = 0;
	b->cap = 0;
}

void
buf_release(struct buf *b)
{
	if (b->cap)
		free(b->ptr);
	buf_init(b);
}

void
buf_clear(struct buf *b)
{
	b->len = 0;
	if (b->cap)
		b->ptr[0] = '\0';
}

void
buf_grow(struct buf *b, size_t extra)
{
	size_t need, ncap;

	if (extra > (size_t)-1 - b->len - 1) {
		fprintf(stderr, "ssg: buffer size overflow\n");
		abort();
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	ncap = b->cap ? b->cap : 64;
	while (ncap < need)
		ncap = ncap > (size_t)-1 / 2 ? need : ncap * 2;
	if (b->cap == 0) {
		b->ptr = xmalloc(ncap);
		b->ptr[0] = '\0';
	} else
		b->ptr = xrealloc(b->ptr, ncap);
	b->cap = ncap;
}

void
buf_add(struct buf *b, const void *data, size_t n)
{
	if (n == 0)
		return;
	buf_grow(b, n);
	memcpy(b->ptr + b->len, data, n);
	b->len += n;
	b->ptr[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, int c)
{
	buf_grow(b, 1);
	b->ptr[b->len++] = (char)c;
	b->ptr[b->len] = '\0';
}

void
buf_add_u64(struct buf *b, unsigned long long v)
{
	char d[24], *p = d + sizeof(d);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	buf_add(b, p, (size_t)(d + sizeof(d) - p));
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(b->ptr + b->len, b->cap ? b->cap - b->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if (b->cap == 0 || (size_t)n >= b->cap - b->len) {
		buf_grow(b, (size_t)n);
		va_copy(cp, ap);
		vsnprintf(b->ptr + b->len, b->cap - b->len, fmt, cp);
		va_end(cp);
	}
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_truncate(struct buf *b, size_t len)
{
	if (len >= b->len)
		return;
	b->len = len;
	b->ptr[len] = '\0';
}

char *
buf_detach(struct buf *b, size_t *len)
{
	char *p;

	if (b->cap == 0)
		p = xstrdup("");
	else
		p = b->ptr;
	if (len)
		*len = b->len;
	buf_init(b);
	return p;
}
