#include "utf8.h"

#include <stdint.h>
#include <string.h>

long
utf8_next(const char **sp, const char *end)
{
	const unsigned char *s = (const unsigned char *)*sp;
	long cp;
	int n, i;

	if (s[0] < 0x80) {
		*sp += 1;
		return s[0];
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 1;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 2;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 3;
		cp = s[0] & 0x07;
	} else
		goto bad;
	if ((const char *)s + n + 1 > end)
		goto bad;
	for (i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			goto bad;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong, surrogates, beyond Unicode */
	if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		goto bad;
	*sp += n + 1;
	return cp;
bad:
	*sp += 1;
	return -1;
}

int
utf8_check(const char *s, size_t n)
{
	const char *p = s, *end = s + n, *q, *bad;
	uint64_t w;
	int line = 1;

	while (p < end) {
		/* ASCII, eight bytes at a time; lines are counted only for
		 * the report, from the start, once something is wrong */
		while (end - p >= 8) {
			memcpy(&w, p, 8);
			if (w & 0x8080808080808080ULL)
				break;
			p += 8;
		}
		if (p == end)
			break;
		if ((unsigned char)*p < 0x80) {
			p++;
			continue;
		}
		bad = p;
		if (utf8_next(&p, end) != -1)
			continue;
		for (q = s; q < bad; q++)
			line += *q == '\n';
		return line;
	}
	return 0;
}

