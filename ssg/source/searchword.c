#include "searchword.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "utf8.h"

struct fold {
	unsigned short	 cp;
	const char	*to;	/* UTF-8 */
};

/* The letters outside ASCII that fold to something else, made with
 * Python's unicodedata as search.js folds them: NFD, marks dropped, lower
 * case, then ß ς æ œ ø đ ð ł ħ ŧ ı þ ŀ ĳ ſ spelt out. Sorted. */
static const struct fold folds[] = {
	{ 0x00c0, "a" },	/* À */
	{ 0x00c1, "a" },	/* Á */
	{ 0x00c2, "a" },	/* Â */
	{ 0x00c3, "a" },	/* Ã */
	{ 0x00c4, "a" },	/* Ä */
	{ 0x00c5, "a" },	/* Å */
	{ 0x00c6, "ae" },	/* Æ */
	{ 0x00c7, "c" },	/* Ç */
	{ 0x00c8, "e" },	/* È */
	{ 0x00c9, "e" },	/* É */
	{ 0x00ca, "e" },	/* Ê */
	{ 0x00cb, "e" },	/* Ë */
	{ 0x00cc, "i" },	/* Ì */
	{ 0x00cd, "i" },	/* Í */
	{ 0x00ce, "i" },	/* Î */
	{ 0x00cf, "i" },	/* Ï */
	{ 0x00d0, "d" },	/* Ð */
	{ 0x00d1, "n" },	/* Ñ */
	{ 0x00d2, "o" },	/* Ò */
	{ 0x00d3, "o" },	/* Ó */
	{ 0x00d4, "o" },	/* Ô */
	{ 0x00d5, "o" },	/* Õ */
	{ 0x00d6, "o" },	/* Ö */
	{ 0x00d8, "o" },	/* Ø */
	{ 0x00d9, "u" },	/* Ù */
	{ 0x00da, "u" },	/* Ú */
	{ 0x00db, "u" },	/* Û */
	{ 0x00dc, "u" },	/* Ü */
	{ 0x00dd, "y" },	/* Ý */
	{ 0x00de, "th" },	/* Þ */
	{ 0x00df, "ss" },	/* ß */
	{ 0x00e0, "a" },	/* à */
	{ 0x00e1, "a" },	/* á */
	{ 0x00e2, "a" },	/* â */
	{ 0x00e3, "a" },	/* ã */
	{ 0x00e4, "a" },	/* ä */
	{ 0x00e5, "a" },	/* å */
	{ 0x00e6, "ae" },	/* æ */
	{ 0x00e7, "c" },	/* ç */
	{ 0x00e8, "e" },	/* è */
	{ 0x00e9, "e" },	/* é */
	{ 0x00ea, "e" },	/* ê */
	{ 0x00eb, "e" },	/* ë */
	{ 0x00ec, "i" },	/* ì */
	{ 0x00ed, "i" },	/* í */
	{ 0x00ee, "i" },	/* î */
	{ 0x00ef, "i" },	/* ï */
	{ 0x00f0, "d" },	/* ð */
	{ 0x00f1, "n" },	/* ñ */
	{ 0x00f2, "o" },	/* ò */
	{ 0x00f3, "o" },	/* ó */
	{ 0x00f4, "o" },	/* ô */
	{ 0x00f5, "o" },	/* õ */
	{ 0x00f6, "o" },	/* ö */
	{ 0x00f8, "o" },	/* ø */
	{ 0x00f9, "u" },	/* ù */
	{ 0x00fa, "u" },	/* ú */
	{ 0x00fb, "u" },	/* û */
	{ 0x00fc, "u" },	/* ü */
	{ 0x00fd, "y" },	/* ý */
	{ 0x00fe, "th" },	/* þ */
	{ 0x00ff, "y" },	/* ÿ */
	{ 0x0100, "a" },	/* Ā */
	{ 0x0101, "a" },	/* ā */
	{ 0x0102, "a" },	/* Ă */
	{ 0x0103, "a" },	/* ă */
	{ 0x0104, "a" },	/* Ą */
	{ 0x0105, "a" },	/* ą */
	{ 0x0106, "c" },	/* Ć */
	{ 0x0107, "c" },	/* ć */
	{ 0x0108, "c" },	/* Ĉ */
	{ 0x0109, "c" },	/* ĉ */
	{ 0x010a, "c" },	/* Ċ */
	{ 0x010b, "c" },	/* ċ */
	{ 0x010c, "c" },	/* Č */
	{ 0x010d, "c" },	/* č */
	{ 0x010e, "d" },	/* Ď */
	{ 0x010f, "d" },	/* ď */
	{ 0x0110, "d" },	/* Đ */
	{ 0x0111, "d" },	/* đ */
	{ 0x0112, "e" },	/* Ē */
	{ 0x0113, "e" },	/* ē */
	{ 0x0114, "e" },	/* Ĕ */
	{ 0x0115, "e" },	/* ĕ */
	{ 0x0116, "e" },	/* Ė */
	{ 0x0117, "e" },	/* ė */
	{ 0x0118, "e" },	/* Ę */
	{ 0x0119, "e" },	/* ę */
	{ 0x011a, "e" },	/* Ě */
	{ 0x011b, "e" },	/* ě */
	{ 0x011c, "g" },	/* Ĝ */
	{ 0x011d, "g" },	/* ĝ */
	{ 0x011e, "g" },	/* Ğ */
	{ 0x011f, "g" },	/* ğ */
	{ 0x0120, "g" },	/* Ġ */
	{ 0x0121, "g" },	/* ġ */
	{ 0x0122, "g" },	/* Ģ */
	{ 0x0123, "g" },	/* ģ */
	{ 0x0124, "h" },	/* Ĥ */
	{ 0x0125, "h" },	/* ĥ */
	{ 0x0126, "h" },	/* Ħ */
	{ 0x0127, "h" },	/* ħ */
	{ 0x0128, "i" },	/* Ĩ */
	{ 0x0129, "i" },	/* ĩ */
	{ 0x012a, "i" },	/* Ī */
	{ 0x012b, "i" },	/* ī */
	{ 0x012c, "i" },	/* Ĭ */
	{ 0x012d, "i" },	/* ĭ */
	{ 0x012e, "i" },	/* Į */
	{ 0x012f, "i" },	/* į */
	{ 0x0130, "i" },	/* İ */
	{ 0x0131, "i" },	/* ı */
	{ 0x0132, "ij" },	/* Ĳ */
	{ 0x0133, "ij" },	/* ĳ */
	{ 0x0134, "j" },	/* Ĵ */
	{ 0x0135, "j" },	/* ĵ */
	{ 0x0136, "k" },	/* Ķ */
	{ 0x0137, "k" },	/* ķ */
	{ 0x0139, "l" },	/* Ĺ */
	{ 0x013a, "l" },	/* ĺ */
	{ 0x013b, "l" },	/* Ļ */
	{ 0x013c, "l" },	/* ļ */
	{ 0x013d, "l" },	/* Ľ */
	{ 0x013e, "l" },	/* ľ */
	{ 0x013f, "l" },	/* Ŀ */
	{ 0x0140, "l" },	/* ŀ */
	{ 0x0141, "l" },	/* Ł */
	{ 0x0142, "l" },	/* ł */
	{ 0x0143, "n" },	/* Ń */
	{ 0x0144, "n" },	/* ń */
	{ 0x0145, "n" },	/* Ņ */
	{ 0x0146, "n" },	/* ņ */
	{ 0x0147, "n" },	/* Ň */
	{ 0x0148, "n" },	/* ň */
	{ 0x014a, "\xc5\x8b" },	/* Ŋ */
	{ 0x014c, "o" },	/* Ō */
	{ 0x014d, "o" },	/* ō */
	{ 0x014e, "o" },	/* Ŏ */
	{ 0x014f, "o" },	/* ŏ */
	{ 0x0150, "o" },	/* Ő */
	{ 0x0151, "o" },	/* ő */
	{ 0x0152, "oe" },	/* Œ */
	{ 0x0153, "oe" },	/* œ */
	{ 0x0154, "r" },	/* Ŕ */
	{ 0x0155, "r" },	/* ŕ */
	{ 0x0156, "r" },	/* Ŗ */
	{ 0x0157, "r" },	/* ŗ */
	{ 0x0158, "r" },	/* Ř */
	{ 0x0159, "r" },	/* ř */
	{ 0x015a, "s" },	/* Ś */
	{ 0x015b, "s" },	/* ś */
	{ 0x015c, "s" },	/* Ŝ */
	{ 0x015d, "s" },	/* ŝ */
	{ 0x015e, "s" },	/* Ş */
	{ 0x015f, "s" },	/* ş */
	{ 0x0160, "s" },	/* Š */
	{ 0x0161, "s" },	/* š */
	{ 0x0162, "t" },	/* Ţ */
	{ 0x0163, "t" },	/* ţ */
	{ 0x0164, "t" },	/* Ť */
	{ 0x0165, "t" },	/* ť */
	{ 0x0166, "t" },	/* Ŧ */
	{ 0x0167, "t" },	/* ŧ */
	{ 0x0168, "u" },	/* Ũ */
	{ 0x0169, "u" },	/* ũ */
	{ 0x016a, "u" },	/* Ū */
	{ 0x016b, "u" },	/* ū */
	{ 0x016c, "u" },	/* Ŭ */
	{ 0x016d, "u" },	/* ŭ */
	{ 0x016e, "u" },	/* Ů */
	{ 0x016f, "u" },	/* ů */
	{ 0x0170, "u" },	/* Ű */
	{ 0x0171, "u" },	/* ű */
	{ 0x0172, "u" },	/* Ų */
	{ 0x0173, "u" },	/* ų */
	{ 0x0174, "w" },	/* Ŵ */
	{ 0x0175, "w" },	/* ŵ */
	{ 0x0176, "y" },	/* Ŷ */
	{ 0x0177, "y" },	/* ŷ */
	{ 0x0178, "y" },	/* Ÿ */
	{ 0x0179, "z" },	/* Ź */
	{ 0x017a, "z" },	/* ź */
	{ 0x017b, "z" },	/* Ż */
	{ 0x017c, "z" },	/* ż */
	{ 0x017d, "z" },	/* Ž */
	{ 0x017e, "z" },	/* ž */
	{ 0x017f, "s" },	/* ſ */
	{ 0x0218, "s" },	/* Ș */
	{ 0x0219, "s" },	/* ș */
	{ 0x021a, "t" },	/* Ț */
	{ 0x021b, "t" },	/* ț */
	{ 0x0386, "\xce\xb1" },	/* Ά */
	{ 0x0388, "\xce\xb5" },	/* Έ */
	{ 0x0389, "\xce\xb7" },	/* Ή */
	{ 0x038a, "\xce\xb9" },	/* Ί */
	{ 0x038c, "\xce\xbf" },	/* Ό */
	{ 0x038e, "\xcf\x85" },	/* Ύ */
	{ 0x038f, "\xcf\x89" },	/* Ώ */
	{ 0x0390, "\xce\xb9" },	/* ΐ */
	{ 0x0391, "\xce\xb1" },	/* Α */
	{ 0x0392, "\xce\xb2" },	/* Β */
	{ 0x0393, "\xce\xb3" },	/* Γ */
	{ 0x0394, "\xce\xb4" },	/* Δ */
	{ 0x0395, "\xce\xb5" },	/* Ε */
	{ 0x0396, "\xce\xb6" },	/* Ζ */
	{ 0x0397, "\xce\xb7" },	/* Η */
	{ 0x0398, "\xce\xb8" },	/* Θ */
	{ 0x0399, "\xce\xb9" },	/* Ι */
	{ 0x039a, "\xce\xba" },	/* Κ */
	{ 0x039b, "\xce\xbb" },	/* Λ */
	{ 0x039c, "\xce\xbc" },	/* Μ */
	{ 0x039d, "\xce\xbd" },	/* Ν */
	{ 0x039e, "\xce\xbe" },	/* Ξ */
	{ 0x039f, "\xce\xbf" },	/* Ο */
	{ 0x03a0, "\xcf\x80" },	/* Π */
	{ 0x03a1, "\xcf\x81" },	/* Ρ */
	{ 0x03a3, "\xcf\x83" },	/* Σ */
	{ 0x03a4, "\xcf\x84" },	/* Τ */
	{ 0x03a5, "\xcf\x85" },	/* Υ */
	{ 0x03a6, "\xcf\x86" },	/* Φ */
	{ 0x03a7, "\xcf\x87" },	/* Χ */
	{ 0x03a8, "\xcf\x88" },	/* Ψ */
	{ 0x03a9, "\xcf\x89" },	/* Ω */
	{ 0x03aa, "\xce\xb9" },	/* Ϊ */
	{ 0x03ab, "\xcf\x85" },	/* Ϋ */
	{ 0x03ac, "\xce\xb1" },	/* ά */
	{ 0x03ad, "\xce\xb5" },	/* έ */
	{ 0x03ae, "\xce\xb7" },	/* ή */
	{ 0x03af, "\xce\xb9" },	/* ί */
	{ 0x03b0, "\xcf\x85" },	/* ΰ */
	{ 0x03c2, "\xcf\x83" },	/* ς */
	{ 0x03ca, "\xce\xb9" },	/* ϊ */
	{ 0x03cb, "\xcf\x85" },	/* ϋ */
	{ 0x03cc, "\xce\xbf" },	/* ό */
	{ 0x03cd, "\xcf\x85" },	/* ύ */
	{ 0x03ce, "\xcf\x89" },	/* ώ */
	{ 0x0400, "\xd0\xb5" },	/* Ѐ */
	{ 0x0401, "\xd0\xb5" },	/* Ё */
	{ 0x0402, "\xd1\x92" },	/* Ђ */
	{ 0x0403, "\xd0\xb3" },	/* Ѓ */
	{ 0x0404, "\xd1\x94" },	/* Є */
	{ 0x0405, "\xd1\x95" },	/* Ѕ */
	{ 0x0406, "\xd1\x96" },	/* І */
	{ 0x0407, "\xd1\x96" },	/* Ї */
	{ 0x0408, "\xd1\x98" },	/* Ј */
	{ 0x0409, "\xd1\x99" },	/* Љ */
	{ 0x040a, "\xd1\x9a" },	/* Њ */
	{ 0x040b, "\xd1\x9b" },	/* Ћ */
	{ 0x040c, "\xd0\xba" },	/* Ќ */
	{ 0x040d, "\xd0\xb8" },	/* Ѝ */
	{ 0x040e, "\xd1\x83" },	/* Ў */
	{ 0x040f, "\xd1\x9f" },	/* Џ */
	{ 0x0410, "\xd0\xb0" },	/* А */
	{ 0x0411, "\xd0\xb1" },	/* Б */
	{ 0x0412, "\xd0\xb2" },	/* В */
	{ 0x0413, "\xd0\xb3" },	/* Г */
	{ 0x0414, "\xd0\xb4" },	/* Д */
	{ 0x0415, "\xd0\xb5" },	/* Е */
	{ 0x0416, "\xd0\xb6" },	/* Ж */
	{ 0x0417, "\xd0\xb7" },	/* З */
	{ 0x0418, "\xd0\xb8" },	/* И */
	{ 0x0419, "\xd0\xb8" },	/* Й */
	{ 0x041a, "\xd0\xba" },	/* К */
	{ 0x041b, "\xd0\xbb" },	/* Л */
	{ 0x041c, "\xd0\xbc" },	/* М */
	{ 0x041d, "\xd0\xbd" },	/* Н */
	{ 0x041e, "\xd0\xbe" },	/* О */
	{ 0x041f, "\xd0\xbf" },	/* П */
	{ 0x0420, "\xd1\x80" },	/* Р */
	{ 0x0421, "\xd1\x81" },	/* С */
	{ 0x0422, "\xd1\x82" },	/* Т */
	{ 0x0423, "\xd1\x83" },	/* У */
	{ 0x0424, "\xd1\x84" },	/* Ф */
	{ 0x0425, "\xd1\x85" },	/* Х */
	{ 0x0426, "\xd1\x86" },	/* Ц */
	{ 0x0427, "\xd1\x87" },	/* Ч */
	{ 0x0428, "\xd1\x88" },	/* Ш */
	{ 0x0429, "\xd1\x89" },	/* Щ */
	{ 0x042a, "\xd1\x8a" },	/* Ъ */
	{ 0x042b, "\xd1\x8b" },	/* Ы */
	{ 0x042c, "\xd1\x8c" },	/* Ь */
	{ 0x042d, "\xd1\x8d" },	/* Э */
	{ 0x042e, "\xd1\x8e" },	/* Ю */
	{ 0x042f, "\xd1\x8f" },	/* Я */
	{ 0x0439, "\xd0\xb8" },	/* й */
	{ 0x0450, "\xd0\xb5" },	/* ѐ */
	{ 0x0451, "\xd0\xb5" },	/* ё */
	{ 0x0453, "\xd0\xb3" },	/* ѓ */
	{ 0x0457, "\xd1\x96" },	/* ї */
	{ 0x045c, "\xd0\xba" },	/* ќ */
	{ 0x045d, "\xd0\xb8" },	/* ѝ */
	{ 0x045e, "\xd1\x83" },	/* ў */
	{ 0x0490, "\xd2\x91" },	/* Ґ */
};

#define NFOLDS (sizeof(folds) / sizeof(folds[0]))

/* 1 if cp is a letter or digit of the index's alphabet. */
static int
is_letter(long cp)
{
	if (cp < 0x80)
		return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') ||
		    (cp >= 'A' && cp <= 'Z');
	if (cp == 0xaa || cp == 0xb5 || cp == 0xba)
		return 1;
	if ((cp >= 0xc0 && cp <= 0x17f) && cp != 0xd7 && cp != 0xf7)
		return 1;
	if (cp >= 0x218 && cp <= 0x21b)
		return 1;
	if (cp == 0x386 || (cp >= 0x388 && cp <= 0x38a) || cp == 0x38c ||
	    (cp >= 0x38e && cp <= 0x3ce && cp != 0x3a2))
		return 1;
	return (cp >= 0x400 && cp <= 0x45f) || cp == 0x490 || cp == 0x491;
}

/* Byte c at place i (0-7) of 8 bytes as they lie in memory. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BYTE_AT(c, i)	((uint64_t)(unsigned char)(c) << (56 - 8 * (i)))
#else
#define BYTE_AT(c, i)	((uint64_t)(unsigned char)(c) << (8 * (i)))
#endif

/* A byte of the word as it is read (search_wordsplit): one beyond
 * SEARCH_WORD_MAX is counted, not kept, and the word is then too long to
 * be one. */
static inline void
byte_add(struct search_wordsplit *w, unsigned char c)
{
	size_t len = w->len;

	if (len < SEARCH_WORD_MAX) {
		w->x |= BYTE_AT(c, len & 7);
		if ((len & 7) == 7) {
			w->q[len >> 3] = w->x;
			w->x = 0;
		}
	}
	w->len = len + 1;
}

static void
word_add(struct search_wordsplit *w, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		byte_add(w, (unsigned char)s[i]);
}

static void
add_cp(struct search_wordsplit *w, long cp)
{
	char u[3];

	if (cp < 0x80) {
		u[0] = (char)cp;
		word_add(w, u, 1);
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		word_add(w, u, 2);
	} else {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		word_add(w, u, 3);
	}
}

/* Appends the folded form of the letter cp. */
static void
fold_cp(struct search_wordsplit *w, long cp)
{
	size_t lo = 0, hi = NFOLDS, mid;

	if (cp < 0x80) {
		add_cp(w, cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
		return;
	}
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (folds[mid].cp == cp) {
			word_add(w, folds[mid].to, strlen(folds[mid].to));
			return;
		}
		if (folds[mid].cp < cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	add_cp(w, cp);
}

/* The lower case of the letter cp of the alphabet (Unicode's simple
 * mapping, as String.toLowerCase gives it one letter at a time; İ gives
 * i, as search.js has it once the dot above is dropped). */
static long
lower_cp(long cp)
{
	if (cp < 0x80)
		return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
	if (cp >= 0xc0 && cp <= 0xde && cp != 0xd7)
		return cp + 32;
	if (cp == 0x130)
		return 'i';
	if ((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14a && cp <= 0x177) ||
	    (cp >= 0x218 && cp <= 0x21b))
		return cp | 1;
	if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e))
		return cp & 1 ? cp + 1 : cp;
	if (cp == 0x178)
		return 0xff;
	if (cp == 0x386)
		return 0x3ac;
	if (cp >= 0x388 && cp <= 0x38a)
		return cp + 37;
	if (cp == 0x38c)
		return 0x3cc;
	if (cp == 0x38e || cp == 0x38f)
		return cp + 63;
	if (cp >= 0x391 && cp <= 0x3ab)
		return cp + 32;
	if (cp >= 0x400 && cp <= 0x40f)
		return cp + 80;
	if (cp >= 0x410 && cp <= 0x42f)
		return cp + 32;
	if (cp == 0x490)
		return 0x491;
	return cp;
}

/*
 * Whether a language's readers take an accented letter for a variant of
 * its base letter (they type cafe for café, and folding finds it) or for
 * a letter of its own (folding would merge words: Swedish får "sheep" and
 * far "father", Finnish sää "weather" and saa "gets", Turkish ı and i).
 *
 *   language                      letters of their own          index
 *   en fr es pt it nl ca ro pl    accents mark sounds; readers   folds
 *   cs sk hr sl lt lv ga cy el    commonly type without them
 *   ru uk bg sr (ё й ї)
 *   de                            ä ö ü, but ue/u are typed for  folds
 *                                 them, and u is read as ü
 *   sv fi et                      å ä ö (õ ü in Estonian)        keeps
 *   da nb nn no fo is             æ ø å (þ ð in Icelandic)       keeps
 *   tr az                         ç ğ ı ö ş ü                    keeps
 *   hu                            á é ö ő ü ű (kor, kór, kör)    keeps
 *
 * Any other language folds: accents mostly mark variants, and a word
 * found in two spellings is a smaller fault than one not found at all.
 */
int
search_lang_folds(const char *lang)
{
	static const char *const keep[] = { "sv", "fi", "et", "da", "nb",
	    "nn", "no", "fo", "is", "tr", "az", "hu" };
	size_t i, n;

	if (lang == NULL)
		return 1;
	n = strcspn(lang, "-_");
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (n == strlen(keep[i]) && strncasecmp(lang, keep[i], n) == 0)
			return 0;
	return 1;
}

/* ASCII's letters and digits, lower-cased; 0 for the rest. */
static const unsigned char ascii_word[128] = {
	['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4',
	['5'] = '5', ['6'] = '6', ['7'] = '7', ['8'] = '8', ['9'] = '9',
	['A'] = 'a', ['B'] = 'b', ['C'] = 'c', ['D'] = 'd', ['E'] = 'e',
	['F'] = 'f', ['G'] = 'g', ['H'] = 'h', ['I'] = 'i', ['J'] = 'j',
	['K'] = 'k', ['L'] = 'l', ['M'] = 'm', ['N'] = 'n', ['O'] = 'o',
	['P'] = 'p', ['Q'] = 'q', ['R'] = 'r', ['S'] = 's', ['T'] = 't',
	['U'] = 'u', ['V'] = 'v', ['W'] = 'w', ['X'] = 'x', ['Y'] = 'y',
	['Z'] = 'z',
	['a'] = 'a', ['b'] = 'b', ['c'] = 'c', ['d'] = 'd', ['e'] = 'e',
	['f'] = 'f', ['g'] = 'g', ['h'] = 'h', ['i'] = 'i', ['j'] = 'j',
	['k'] = 'k', ['l'] = 'l', ['m'] = 'm', ['n'] = 'n', ['o'] = 'o',
	['p'] = 'p', ['q'] = 'q', ['r'] = 'r', ['s'] = 's', ['t'] = 't',
	['u'] = 'u', ['v'] = 'v', ['w'] = 'w', ['x'] = 'x', ['y'] = 'y',
	['z'] = 'z',
};

void
search_words_init(struct search_wordsplit *ws, int fold, search_word_fn fn,
    void *arg)
{
	ws->fn = fn;
	ws->arg = arg;
	ws->fold = fold;
	ws->len = 0;
	ws->x = 0;
}

#define WORD_K1	0x9e3779b97f4a7c15ULL
#define WORD_K2	0xff51afd7ed558ccdULL

static inline uint64_t
word_mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * WORD_K1;
	return h ^ (h >> 29);
}

static inline uint64_t
word_end(uint64_t h)
{
	h *= WORD_K2;
	return h ^ (h >> 32);
}

/* w[0..len) followed by zeros to a multiple of 8 bytes: read 8 at a
 * time, as search_word_hash reads what it has and takes the rest for
 * zeros. */
uint64_t
search_word_hash_padded(const char *w, size_t len)
{
	uint64_t h = len * WORD_K2, x;
	size_t i;

	for (i = 0; i < len; i += 8) {
		memcpy(&x, w + i, 8);
		h = word_mix(h, x);
	}
	return word_end(h);
}

uint64_t
search_word_hash(const char *w, size_t len)
{
	uint64_t h = len * WORD_K2, x;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&x, w + i, 8);
		h = word_mix(h, x);
	}
	if (i < len) {
		x = 0;
		memcpy(&x, w + i, len - i);
		h = word_mix(h, x);
	}
	return word_end(h);
}

void
search_words_break(struct search_wordsplit *ws)
{
	size_t len = ws->len;
	const char *w = (const char *)ws->q;

	if (len > 0 && len <= SEARCH_WORD_MAX) {
		/* the last bytes, zeros after them; a whole 8 of zeros after
		 * a word of 8s, as its NUL */
		ws->q[len >> 3] = ws->x;
		ws->fn(w, len, search_word_hash_padded(w, len), ws->arg);
	}
	ws->len = 0;
	ws->x = 0;
}

void
search_words_feed(struct search_wordsplit *ws, const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	long cp;

	while (p < end) {
		unsigned char c = (unsigned char)*p;

		/* most text is ASCII: no decoding, no search, and a word's
		 * letters taken in one run */
		if (c < 0x80) {
			size_t len;
			uint64_t x;
			unsigned char l = ascii_word[c];

			if (l == 0) {
				p++;
				if (ws->len > 0)
					search_words_break(ws);
				continue;
			}
			len = ws->len;
			x = ws->x;
			do {
				if (len < SEARCH_WORD_MAX) {
					x |= BYTE_AT(l, len & 7);
					if ((len & 7) == 7) {
						ws->q[len >> 3] = x;
						x = 0;
					}
				}
				len++;
				p++;
			} while (p < end && (c = (unsigned char)*p) < 0x80 &&
			    (l = ascii_word[c]) != 0);
			ws->len = len;
			ws->x = x;
			continue;
		}
		cp = utf8_next(&p, end);
		if (cp >= 0x300 && cp <= 0x36f)
			continue;	/* an accent written apart */
		if (cp >= 0 && is_letter(cp)) {
			if (ws->fold)
				fold_cp(ws, cp);
			else
				add_cp(ws, lower_cp(cp));
		}
		else
			search_words_break(ws);
	}
}

void
search_words(const char *s, size_t n, int fold, search_word_fn fn,
    void *arg)
{
	struct search_wordsplit ws;

	search_words_init(&ws, fold, fn, arg);
	search_words_feed(&ws, s, n);
	search_words_break(&ws);
}

void
search_shard_name(struct buf *out, const char *w)
{
	const char *p = w, *end = w + strlen(w);
	long cp;
	int i;

	for (i = 0; i < 2 && p < end; i++) {
		cp = utf8_next(&p, end);
		if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9'))
			buf_addc(out, (int)cp);
		else
			buf_printf(out, "_%04lx", (unsigned long)cp & 0xffff);
	}
}
