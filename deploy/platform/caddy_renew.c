/*
 * A forced renewal with the Caddy proxy: the automation policies that
 * make some names due now, and the reason a failed attempt left in
 * Caddy's log. Only the little of JSON these need is read: Caddy writes
 * both, compact, and values other than subjects are copied as they are.
 */
#include <stdlib.h>
#include <string.h>

#include "caddy_renew.h"

#define MAX_MEMBERS	32

struct member {
	const char	*key;		/* with its quotes */
	size_t		 klen;
	const char	*val;
	size_t		 vlen;
};

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Past the closing quote of the string opening at p, or NULL. */
static const char *
str_end(const char *p)
{
	for (p++; *p != '\0'; p++) {
		if (*p == '\\') {
			if (*++p == '\0')
				return NULL;
		} else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/* Past the value starting at p (no leading space), or NULL. */
static const char *
value_end(const char *p)
{
	const char *q;
	int depth = 0;

	if (*p == '"')
		return str_end(p);
	if (*p != '{' && *p != '[') {
		for (q = p; *q != '\0' && strchr(",]} \t\r\n", *q) == NULL; q++)
			;
		return q > p ? q : NULL;
	}
	for (; *p != '\0'; p++) {
		if (*p == '"') {
			if ((p = str_end(p)) == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
	}
	return NULL;
}

/* The members of the object at p into m; past it, or NULL. */
static const char *
object(const char *p, struct member *m, size_t *nm)
{
	const char *e;

	*nm = 0;
	if (*p++ != '{')
		return NULL;
	p = ws(p);
	if (*p == '}')
		return p + 1;
	for (;;) {
		if (*p != '"' || (e = str_end(p)) == NULL || *nm == MAX_MEMBERS)
			return NULL;
		m[*nm].key = p;
		m[*nm].klen = (size_t)(e - p);
		p = ws(e);
		if (*p++ != ':')
			return NULL;
		p = ws(p);
		if ((e = value_end(p)) == NULL)
			return NULL;
		m[*nm].val = p;
		m[*nm].vlen = (size_t)(e - p);
		(*nm)++;
		p = ws(e);
		if (*p == '}')
			return p + 1;
		if (*p++ != ',')
			return NULL;
		p = ws(p);
	}
}

static int
is_key(const struct member *m, const char *key)
{
	size_t n = strlen(key);

	return m->klen == n + 2 && strncmp(m->key + 1, key, n) == 0;
}

/* Index in names of the string s (with its quotes, len long), or -1. */
static long
name_index(const char *s, size_t len, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len - 2 &&
		    strncmp(s + 1, names[i], len - 2) == 0)
			return (long)i;
	return -1;
}

/* The subjects of a policy: those among names (want 1) or the others
 * (want 0), as a JSON array into out; how many, or -1 (not an array of
 * strings). found[i] is set for each of names met. */
static long
subjects(const struct member *s, const char *const *names, size_t n,
    int want, int *found, struct buf *out)
{
	const char *p = s->val, *e;
	long count = 0, i;

	if (*p++ != '[')
		return -1;
	buf_addc(out, '[');
	for (p = ws(p); *p != ']'; p = ws(p)) {
		if (*p != '"' || (e = str_end(p)) == NULL)
			return -1;
		i = name_index(p, (size_t)(e - p), names, n);
		if (i >= 0)
			found[i] = 1;
		if ((i >= 0) == want) {
			if (count++ > 0)
				buf_addc(out, ',');
			buf_add(out, p, (size_t)(e - p));
		}
		p = ws(e);
		if (*p == ',')
			p = ws(p + 1);
		else if (*p != ']')
			return -1;
	}
	buf_addc(out, ']');
	return count;
}

/* One policy with subjects list, the other members of m, and the ratio
 * when due. */
static void
policy(struct buf *out, const struct buf *list, const struct member *m,
    size_t nm, int due)
{
	size_t i;

	buf_adds(out, "{\"subjects\":");
	buf_add(out, list->ptr, list->len);
	for (i = 0; i < nm; i++) {
		if (is_key(&m[i], "subjects") ||
		    (due && is_key(&m[i], "renewal_window_ratio")))
			continue;
		buf_addc(out, ',');
		buf_add(out, m[i].key, m[i].klen);
		buf_addc(out, ':');
		buf_add(out, m[i].val, m[i].vlen);
	}
	if (due)
		buf_adds(out, ",\"renewal_window_ratio\":1");
	buf_addc(out, '}');
}

/* The member of m named key, or NULL. */
static const struct member *
member(const struct member *m, size_t nm, const char *key)
{
	size_t i;

	for (i = 0; i < nm; i++)
		if (is_key(&m[i], key))
			return &m[i];
	return NULL;
}

int
caddy_policies_due(const char *policies, const char *const *names,
    size_t n, struct buf *out, struct buf *err)
{
	struct member m[MAX_MEMBERS];
	const struct member *subj;
	struct buf due = BUF_INIT, rest = BUF_INIT;
	const char *p = ws(policies), *start;
	size_t nm, i, npol = 0;
	long ndue = 0, nrest = 0;
	int *found, rc = -1;

	if ((found = calloc(n + 1, sizeof(*found))) == NULL) {
		buf_adds(err, "out of memory");
		return -1;
	}
	if (*p++ != '[')
		goto bad;
	buf_addc(out, '[');
	for (p = ws(p); *p != ']'; p = ws(p)) {
		start = p;
		if ((p = object(p, m, &nm)) == NULL)
			goto bad;
		buf_clear(&due);
		buf_clear(&rest);
		if ((subj = member(m, nm, "subjects")) != NULL &&
		    ((ndue = subjects(subj, names, n, 1, found, &due)) == -1 ||
		    (nrest = subjects(subj, names, n, 0, found, &rest)) == -1))
			goto bad;
		if (subj == NULL || ndue == 0) {
			if (npol++ > 0)
				buf_addc(out, ',');
			buf_add(out, start, (size_t)(p - start));
		} else {
			if (nrest > 0) {
				if (npol++ > 0)
					buf_addc(out, ',');
				policy(out, &rest, m, nm, 0);
			}
			if (npol++ > 0)
				buf_addc(out, ',');
			policy(out, &due, m, nm, 1);
		}
		p = ws(p);
		if (*p == ',')
			p = ws(p + 1);
		else if (*p != ']')
			goto bad;
	}
	buf_addc(out, ']');
	for (i = 0; i < n; i++)
		if (!found[i]) {
			buf_printf(err, "no automation policy of Caddy's names "
			    "%s", names[i]);
			goto out;
		}
	rc = 0;
	goto out;
bad:
	buf_adds(err, "Caddy's automation policies are not the JSON expected");
out:
	free(found);
	buf_release(&due);
	buf_release(&rest);
	return rc;
}

/* The string value of key in line, unescaped into out. 1, or 0. */
static int
string_field(const char *line, const char *key, struct buf *out)
{
	const char *p = line, *e;
	size_t klen = strlen(key);

	while ((p = strchr(p, '"')) != NULL) {
		if ((e = str_end(p)) == NULL)
			return 0;
		if ((size_t)(e - p) == klen + 2 && strncmp(p + 1, key, klen) == 0
		    && *(e = ws(e)) == ':' && *(e = ws(e + 1)) == '"')
			break;
		p = e;
	}
	if (p == NULL)
		return 0;
	for (e++; *e != '\0' && *e != '"'; e++) {
		if (*e != '\\')
			buf_addc(out, *e);
		else if (*++e == 'n' || *e == 't')
			buf_addc(out, ' ');
		else if (*e == '\0')
			break;
		else
			buf_addc(out, *e);
	}
	return 1;
}

int
caddy_log_error(const char *line, const char *const *names, size_t n,
    struct buf *out)
{
	struct buf level = BUF_INIT, id = BUF_INIT;
	size_t i;
	int rc = 0;

	if (string_field(line, "level", &level) &&
	    strcmp(level.ptr, "error") == 0 &&
	    string_field(line, "identifier", &id))
		for (i = 0; i < n; i++)
			if (strcmp(id.ptr, names[i]) == 0) {
				rc = string_field(line, "error", out);
				break;
			}
	buf_release(&level);
	buf_release(&id);
	return rc;
}
