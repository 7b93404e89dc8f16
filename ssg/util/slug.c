#include "slug.h"

#include <string.h>

#include "utf8.h"

/* ASCII forms of U+00C0..U+017F (Latin-1 Supplement and Latin Extended-A). */
static const char *const latin[] = {
	/* C0 */ "a","a","a","a","a","a","ae","c","e","e","e","e","i","i","i","i",
	/* D0 */ "d","n","o","o","o","o","o","","o","u","u","u","u","y","th","ss",
	/* E0 */ "a","a","a","a","a","a","ae","c","e","e","e","e","i","i","i","i",
	/* F0 */ "d","n","o","o","o","o","o","","o","u","u","u","u","y","th","y",
	/* 100 */ "a","a","a","a","a","a","c","c","c","c","c","c","c","c","d","d",
	/* 110 */ "d","d","e","e","e","e","e","e","e","e","e","e","g","g","g","g",
	/* 120 */ "g","g","g","g","h","h","h","h","i","i","i","i","i","i","i","i",
	/* 130 */ "i","i","ij","ij","j","j","k","k","k","l","l","l","l","l","l","l",
	/* 140 */ "l","l","l","n","n","n","n","n","n","n","n","n","o","o","o","o",
	/* 150 */ "o","o","oe","oe","r","r","r","r","r","r","s","s","s","s","s","s",
	/* 160 */ "s","s","t","t","t","t","t","t","u","u","u","u","u","u","u","u",
	/* 170 */ "u","u","u","u","w","w","y","y","y","z","z","z","z","z","z","s",
};

static const char *
fold(long cp, char ascii[2])
{

	if (cp < 0x80) {
		if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
			ascii[0] = (char)cp;
			return ascii;
		}
		if (cp >= 'A' && cp <= 'Z') {
			ascii[0] = (char)(cp - 'A' + 'a');
			return ascii;
		}
		return NULL;
	}
	if (cp >= 0xc0 && cp <= 0x17f)
		return latin[cp - 0xc0][0] ? latin[cp - 0xc0] : NULL;
	switch (cp) {
	case 0x218: case 0x219: return "s";	/* s with comma below */
	case 0x21a: case 0x21b: return "t";
	case 0x1e9e: return "ss";
	}
	return NULL;
}

void
slug_append(struct buf *out, const char *text)
{
	const char *p = text, *end = text + strlen(text), *f;
	size_t start = out->len;
	int dash = 0;
	long cp;
	char ascii[2] = { 0, 0 };

	while (p < end) {
		cp = utf8_next(&p, end);
		f = fold(cp, ascii);
		if (f == NULL) {
			/* Marks that join words are not separators. */
			if (cp == '\'' || cp == 0x2019 || (cp >= 0x300 &&
			    cp <= 0x36f))
				continue;
			dash = out->len > start;
			continue;
		}
		if (f[0] == '\0')
			continue;
		if (dash)
			buf_addc(out, '-');
		dash = 0;
		buf_adds(out, f);
	}
}

int
slug_is_safe(const char *s)
{
	const char *p;

	if (*s == '\0' || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_' || *p == '.'))
			return 0;
	return 1;
}
