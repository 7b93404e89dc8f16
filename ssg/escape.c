#include "escape.h"

#include <string.h>

void
esc_html(struct buf *out, const char *s, size_t n)
{
	size_t i, start = 0;
	const char *rep;

	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		default: continue;
		}
		buf_add(out, s + start, i - start);
		buf_adds(out, rep);
		start = i + 1;
	}
	buf_add(out, s + start, n - start);
}

void
esc_xml(struct buf *out, const char *s, size_t n)
{
	size_t i, start = 0;
	const char *rep;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		switch (c) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&apos;"; break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				rep = "";
			else
				continue;
		}
		buf_add(out, s + start, i - start);
		buf_adds(out, rep);
		start = i + 1;
	}
	buf_add(out, s + start, n - start);
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
