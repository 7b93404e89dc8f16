/* TSIG key files, as BIND's tsig-keygen and Knot's keymgr print them,
 * and sets of addresses: the parts of dns.h that need no DNS library. */

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dns.h"
#include "mem.h"

struct lex {
	const char	*p, *end;
	int		 line;
	char		 tok[300];
	int		 quoted;
	char		*err;
	size_t		 errlen;
	int		*eline;
};

static int
lex_fail(struct lex *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->err, x->errlen, fmt, ap);
	va_end(ap);
	if (x->eline != NULL)
		*x->eline = x->line;
	return -1;
}

/* Skips blanks and comments (#, //, C style). */
static void
skip(struct lex *x)
{
	while (x->p < x->end) {
		if (*x->p == '\n') {
			x->line++;
			x->p++;
		} else if (isspace((unsigned char)*x->p))
			x->p++;
		else if (*x->p == '#' || (*x->p == '/' && x->p + 1 < x->end &&
		    x->p[1] == '/')) {
			while (x->p < x->end && *x->p != '\n')
				x->p++;
		} else if (*x->p == '/' && x->p + 1 < x->end && x->p[1] == '*') {
			x->p += 2;
			while (x->p < x->end && !(*x->p == '*' &&
			    x->p + 1 < x->end && x->p[1] == '/')) {
				if (*x->p == '\n')
					x->line++;
				x->p++;
			}
			x->p = x->p + 2 < x->end ? x->p + 2 : x->end;
		} else
			break;
	}
}

/* The next token into x->tok: a word, a quoted string or one of {};.
 * 0, 1 at the end, -1 on a bad token. */
static int
next(struct lex *x)
{
	size_t n = 0;

	skip(x);
	x->quoted = 0;
	x->tok[0] = '\0';
	if (x->p >= x->end)
		return 1;
	if (strchr("{};", *x->p) != NULL) {
		x->tok[0] = *x->p++;
		x->tok[1] = '\0';
		return 0;
	}
	if (*x->p == '"') {
		x->quoted = 1;
		for (x->p++; x->p < x->end && *x->p != '"'; x->p++) {
			if (*x->p == '\n' || *x->p == '\0' ||
			    n + 1 >= sizeof(x->tok))
				return lex_fail(x, "a quoted string is "
				    "not closed on its line or too long");
			x->tok[n++] = *x->p;
		}
		if (x->p >= x->end)
			return lex_fail(x, "a quoted string is not closed");
		x->p++;
		x->tok[n] = '\0';
		return 0;
	}
	while (x->p < x->end && !isspace((unsigned char)*x->p) &&
	    strchr("{};\"", *x->p) == NULL) {
		if (n + 1 >= sizeof(x->tok))
			return lex_fail(x, "a word is too long");
		x->tok[n++] = *x->p++;
	}
	x->tok[n] = '\0';
	return 0;
}

static int
expect(struct lex *x, const char *what)
{
	int r = next(x);

	if (r == -1)
		return -1;
	if (r == 1 || x->quoted || strcmp(x->tok, what) != 0)
		return lex_fail(x, "expected '%s'%s", what,
		    r == 1 ? " before the end" : "");
	return 0;
}

static int
valid_base64(const char *s)
{
	size_t n = 0, pad = 0;

	for (; *s != '\0'; s++, n++) {
		if (*s == '=') {
			pad++;
			continue;
		}
		if (pad > 0 || !(isalnum((unsigned char)*s) || *s == '+' ||
		    *s == '/'))
			return 0;
	}
	return n > 0 && n % 4 == 0 && pad <= 2;
}

static const char *const algorithms[] = {
	"hmac-sha1", "hmac-sha224", "hmac-sha256", "hmac-sha384",
	"hmac-sha512", NULL
};

static int
set_alg(struct dns_key *k, const char *v)
{
	size_t i;

	for (i = 0; algorithms[i] != NULL; i++)
		if (strcasecmp(v, algorithms[i]) == 0) {
			xsnprintf(k->alg, sizeof(k->alg), "%s", algorithms[i]);
			return 0;
		}
	return -1;
}

/*
 * Knot's form, as `keymgr -t NAME` prints it:
 *	key:
 *	  - id: NAME
 *	    algorithm: hmac-sha256
 *	    secret: BASE64
 */
static int
parse_knot(struct lex *x, struct dns_key *k)
{
	const char *p = x->p, *end = x->end;
	int seen_key = 0, have_id = 0, have_alg = 0, have_secret = 0;

	x->line = 1;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *e = eol ? eol : end, *v;
		char field[16], val[300];
		size_t fl, vl;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (!seen_key && p < e && *p != '#') {
			if (e - p < 4 || strncmp(p, "key:", 4) != 0)
				return lex_fail(x, "expected 'key:'");
			seen_key = 1;
			p = e;
		}
		if (p < e && *p == '-' && p + 1 < e && p[1] == ' ') {
			if (have_id)
				return lex_fail(x, "more than one key in the "
				    "file");
			for (p += 2; p < e && *p == ' '; p++)
				;
		}
		while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
			e--;
		if (p < e && *p != '#') {
			if ((v = memchr(p, ':', (size_t)(e - p))) == NULL ||
			    (fl = (size_t)(v - p)) >= sizeof(field))
				return lex_fail(x, "expected 'id:', "
				    "'algorithm:' or 'secret:'");
			memcpy(field, p, fl);
			field[fl] = '\0';
			for (v++; v < e && *v == ' '; v++)
				;
			if ((vl = (size_t)(e - v)) >= sizeof(val))
				return lex_fail(x, "a value is too long");
			memcpy(val, v, vl);
			val[vl] = '\0';
			if (strcmp(field, "id") == 0) {
				if (have_id++ || vl == 0 || vl >= sizeof(k->name) ||
				    strspn(val, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != vl)
					return lex_fail(x, "a bad or second id");
				memcpy(k->name, val, vl + 1);
			} else if (strcmp(field, "algorithm") == 0) {
				if (have_alg++ || set_alg(k, val) == -1)
					return lex_fail(x, "algorithm is not one "
					    "of hmac-sha1, hmac-sha224, "
					    "hmac-sha256, hmac-sha384, "
					    "hmac-sha512, or given twice");
			} else if (strcmp(field, "secret") == 0) {
				int bad = have_secret++ || !valid_base64(val) ||
				    vl >= sizeof(k->secret);

				if (!bad)
					memcpy(k->secret, val, vl + 1);
				memset(val, 0, sizeof(val));
				if (bad)
					return lex_fail(x, "the secret is not "
					    "base64, or given twice");
			} else
				return lex_fail(x, "unknown field '%.15s' (a "
				    "key takes id, algorithm and secret)",
				    field);
		}
		if (eol == NULL)
			break;
		p = eol + 1;
		x->line++;
	}
	if (!have_id)
		return lex_fail(x, "the key has no id");
	if (!have_alg)
		return lex_fail(x, "the key has no algorithm");
	if (!have_secret)
		return lex_fail(x, "the key has no secret");
	return 0;
}

int
dns_key_parse(const char *text, size_t len, struct dns_key *k, int *line,
    char *err, size_t errlen)
{
	struct lex x;
	int r, have_alg = 0, have_secret = 0;

	memset(&x, 0, sizeof(x));
	memset(k, 0, sizeof(*k));
	x.p = text;
	x.end = text + len;
	x.line = 1;
	x.err = err;
	x.errlen = errlen;
	x.eline = line;
	/* Knot's form starts (after comments) with "key:" */
	skip(&x);
	if (x.end - x.p >= 4 && strncmp(x.p, "key:", 4) == 0) {
		x.p = text;
		return parse_knot(&x, k);
	}
	if (expect(&x, "key") == -1)
		return -1;
	if ((r = next(&x)) != 0 || x.tok[0] == '\0' ||
	    strchr("{};", x.tok[0]) != NULL)
		return r == -1 ? -1 : lex_fail(&x, "expected the key's name");
	if (strlen(x.tok) >= sizeof(k->name) ||
	    strspn(x.tok, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789-_.") != strlen(x.tok))
		return lex_fail(&x, "the key's name '%s' is not a domain name",
		    x.tok);
	memcpy(k->name, x.tok, strlen(x.tok) + 1);
	if (expect(&x, "{") == -1)
		return -1;
	for (;;) {
		if ((r = next(&x)) != 0)
			return r == -1 ? -1 : lex_fail(&x, "expected '}' "
			    "before the end");
		if (!x.quoted && strcmp(x.tok, "}") == 0)
			break;
		if (!x.quoted && strcmp(x.tok, "algorithm") == 0) {
			if (have_alg++)
				return lex_fail(&x, "algorithm given twice");
			if ((r = next(&x)) != 0)
				return r == -1 ? -1 : lex_fail(&x, "expected "
				    "an algorithm");
			if (set_alg(k, x.tok) == -1)
				return lex_fail(&x, "algorithm '%.40s' is "
				    "not one of hmac-sha1, hmac-sha224, "
				    "hmac-sha256, hmac-sha384, hmac-sha512",
				    x.tok);
		} else if (!x.quoted && strcmp(x.tok, "secret") == 0) {
			if (have_secret++)
				return lex_fail(&x, "secret given twice");
			if ((r = next(&x)) != 0)
				return r == -1 ? -1 : lex_fail(&x, "expected "
				    "a secret");
			/* never quoted back: it is the secret */
			if (!valid_base64(x.tok) ||
			    strlen(x.tok) >= sizeof(k->secret)) {
				memset(x.tok, 0, sizeof(x.tok));
				return lex_fail(&x, "the secret is not base64");
			}
			memcpy(k->secret, x.tok, strlen(x.tok) + 1);
			memset(x.tok, 0, sizeof(x.tok));
		} else
			return lex_fail(&x, "unknown statement '%.40s' (the "
			    "key takes algorithm and secret)", x.tok);
		if (expect(&x, ";") == -1)
			return -1;
	}
	if (expect(&x, ";") == -1)
		return -1;
	if ((r = next(&x)) != 1)
		return r == -1 ? -1 : lex_fail(&x, "more than one key in the "
		    "file");
	if (!have_alg)
		return lex_fail(&x, "the key has no algorithm");
	if (!have_secret)
		return lex_fail(&x, "the key has no secret");
	return 0;
}

void
dns_key_clear(struct dns_key *k)
{
	volatile unsigned char *p = (volatile unsigned char *)k;
	size_t i;

	for (i = 0; i < sizeof(*k); i++)
		p[i] = 0;
}

static int
canon(const char *addr, char out[48])
{
	struct in_addr a4;
	struct in6_addr a6;

	if (inet_pton(AF_INET, addr, &a4) == 1)
		return inet_ntop(AF_INET, &a4, out, 48) ? 0 : -1;
	if (inet_pton(AF_INET6, addr, &a6) == 1)
		return inet_ntop(AF_INET6, &a6, out, 48) ? 0 : -1;
	return -1;
}

int
dns_addrs_has(const struct dns_addrs *set, const char *addr)
{
	char c[48];
	size_t i;

	if (canon(addr, c) == -1)
		return 0;
	for (i = 0; i < set->n; i++)
		if (strcmp(set->a[i], c) == 0)
			return 1;
	return 0;
}

int
dns_addrs_add(struct dns_addrs *set, const char *addr)
{
	char c[48];
	size_t i;

	if (canon(addr, c) == -1)
		return -1;
	for (i = 0; i < set->n; i++) {
		int cmp = strcmp(set->a[i], c);

		if (cmp == 0)
			return 0;
		if (cmp > 0)
			break;
	}
	if (set->n == DNS_ADDRS_MAX)
		return -1;
	memmove(set->a[i + 1], set->a[i], (set->n - i) * sizeof(set->a[0]));
	memcpy(set->a[i], c, sizeof(c));
	set->n++;
	return 0;
}

int
dns_addrs_equal(const struct dns_addrs *a, const struct dns_addrs *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->a[i], b->a[i]) != 0)
			return 0;
	return 1;
}

void
dns_addrs_format(const struct dns_addrs *set, char *out, size_t outlen)
{
	size_t i, used = 0;

	if (outlen == 0)
		return;
	out[0] = '\0';
	if (set->n == 0) {
		xsnprintf(out, outlen, "none");
		return;
	}
	for (i = 0; i < set->n && used < outlen; i++) {
		int w = snprintf(out + used, outlen - used, "%s%s",
		    i ? ", " : "", set->a[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}
