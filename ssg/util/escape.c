#include "escape.h"

#include <string.h>

/* What a byte becomes; len 0: itself. */
struct esc {
	const char	*s;
	unsigned char	 len;
};

#define REP(str)	{ str, sizeof(str) - 1 }
/* control characters XML 1.0 cannot hold: dropped (an empty, non-NULL
 * replacement) */
#define DROP		{ "", 0 }

static const struct esc html_tab[256] = {
	['&'] = REP("&amp;"), ['<'] = REP("&lt;"), ['>'] = REP("&gt;"),
	['"'] = REP("&quot;"), ['\''] = REP("&#39;"),
};

static const struct esc xml_tab[256] = {
	[0] = DROP, [1] = DROP, [2] = DROP, [3] = DROP, [4] = DROP,
	[5] = DROP, [6] = DROP, [7] = DROP, [8] = DROP, [11] = DROP,
	[12] = DROP, [14] = DROP, [15] = DROP, [16] = DROP, [17] = DROP,
	[18] = DROP, [19] = DROP, [20] = DROP, [21] = DROP, [22] = DROP,
	[23] = DROP, [24] = DROP, [25] = DROP, [26] = DROP, [27] = DROP,
	[28] = DROP, [29] = DROP, [30] = DROP, [31] = DROP,
	['&'] = REP("&amp;"), ['<'] = REP("&lt;"), ['>'] = REP("&gt;"),
	['"'] = REP("&quot;"), ['\''] = REP("&apos;"),
};

#ifdef __SSE2__
#include <emmintrin.h>

/* Whether any of the 16 bytes at s may need escaping: one of &<>"' or,
 * with controls, a byte under 0x20 (tab and newline included; the table
 * then says). */
static int
may_escape16(const char *s, int controls)
{
	__m128i x = _mm_loadu_si128((const __m128i *)(const void *)s), hit;

	hit = _mm_or_si128(
	    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('&')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('<'))),
	    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('>')),
	    _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
	    _mm_cmpeq_epi8(x, _mm_set1_epi8('\'')))));
	if (controls)	/* x <= 0x1f, unsigned */
		hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x,
		    _mm_min_epu8(x, _mm_set1_epi8(0x1f))));
	return _mm_movemask_epi8(hit) != 0;
}
#define STRIDE	16
#else
#define may_escape16(s, controls)	1
#define STRIDE	1
#endif

/*
 * Plain runs are skipped 16 bytes at a time and copied whole: templates
 * escape every excerpt of every list, the most text a build escapes.
 */
static void
escape_by(struct buf *out, const char *s, size_t n,
    const struct esc tab[256], int controls)
{
	const struct esc *e;
	size_t i = 0, start = 0, end;

	buf_grow(out, n);
	while (i < n) {
		if (n - i >= STRIDE && !may_escape16(s + i, controls)) {
			i += STRIDE;
			continue;
		}
		for (end = n - i >= STRIDE ? i + STRIDE : n; i < end; i++) {
			e = &tab[(unsigned char)s[i]];
			if (e->s == NULL)
				continue;
			buf_add(out, s + start, i - start);
			buf_add(out, e->s, e->len);
			start = i + 1;
		}
	}
	buf_add(out, s + start, n - start);
}

void
esc_html(struct buf *out, const char *s, size_t n)
{
	escape_by(out, s, n, html_tab, 0);
}

void
esc_xml(struct buf *out, const char *s, size_t n)
{
	escape_by(out, s, n, xml_tab, 1);
}

void
esc_json(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		switch (c) {
		case '"': buf_adds(out, "\\\""); break;
		case '\\': buf_adds(out, "\\\\"); break;
		case '\n': buf_adds(out, "\\n"); break;
		case '\r': buf_adds(out, "\\r"); break;
		case '\t': buf_adds(out, "\\t"); break;
		case '<': case '>': case '&':
			buf_adds(out, "\\u00");
			buf_addc(out, hex[c >> 4]);
			buf_addc(out, hex[c & 15]);
			break;
		default:
			if (c < 0x20) {
				buf_adds(out, "\\u00");
				buf_addc(out, hex[c >> 4]);
				buf_addc(out, hex[c & 15]);
			} else
				buf_addc(out, c);
		}
	}
}

void
esc_url(struct buf *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c) != NULL) {
			if (c == 0)
				continue;
			buf_addc(out, c);
		} else {
			buf_addc(out, '%');
			buf_addc(out, hex[c >> 4]);
			buf_addc(out, hex[c & 15]);
		}
	}
}

void
esc_shell(struct buf *out, const char *s, size_t n)
{
	size_t i;

	buf_addc(out, '\'');
	for (i = 0; i < n; i++) {
		if (s[i] == '\'')
			buf_adds(out, "'\\''");
		else
			buf_addc(out, s[i]);
	}
	buf_addc(out, '\'');
}

void
esc_yaml(struct buf *out, const char *s, size_t n)
{
	size_t i;
	unsigned char c;

	buf_addc(out, '"');
	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			buf_addc(out, '\\');
			buf_addc(out, c);
		} else if (c == '\n')
			buf_adds(out, "\\n");
		else if (c == '\t')
			buf_adds(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(out, "\\x%02x", c);
		else
			buf_addc(out, c);
	}
	buf_addc(out, '"');
}
