/* deploy.yaml: reading YAML nodes and checking values (names, domains,
 * addresses, paths), each problem reported with its line. */

#include <sys/types.h>
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "mem.h"
#include "spec_int.h"

void
sp_err(struct ctx *c, int line, const char *fmt, ...)
{
	va_list ap;

	c->errors++;
	if (c->quiet_dups) {
		struct diag *one = diag_new();
		const char *m;
		size_t i, n = diag_total(c->d);

		va_start(ap, fmt);
		diag_vadd(one, DIAG_ERROR, c->file, line, fmt, ap);
		va_end(ap);
		m = diag_message(one, 0);
		for (i = 0; i < n; i++)
			if (strcmp(diag_message(c->d, i), m) == 0)
				break;
		diag_free(one);
		if (i < n)
			return;
	}
	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_ERROR, c->file, line, fmt, ap);
	va_end(ap);
}

int
sp_line_of(yaml_node_t *n)
{
	return (int)n->start_mark.line + 1;
}

const char *
sp_scalar(struct ctx *c, yaml_node_t *n, const char *what)
{
	if (n == NULL || n->type != YAML_SCALAR_NODE) {
		sp_err(c, n ? sp_line_of(n) : 0, "%s: expected a single value", what);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

char *
sp_sdup(struct ctx *c, const char *v)
{
	return v ? arena_strdup(c->arena, v) : NULL;
}

int
sp_parse_int(const char *v, long lo, long hi, long *out)
{
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno != 0 || *end != '\0' || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

int
sp_parse_addr(const char *v, uint32_t *out)
{
	struct in_addr ia;

	if (v == NULL || inet_pton(AF_INET, v, &ia) != 1)
		return -1;
	*out = ntohl(ia.s_addr);
	return 0;
}

uint32_t
sp_mask_of(int prefix)
{
	return prefix == 0 ? 0 : 0xffffffffu << (32 - prefix);
}

/* Lower-case letters, digits and '-', starting with a letter or digit. */
int
sp_valid_name(const char *v, size_t max)
{
	size_t i, n = strlen(v);

	if (n == 0 || n > max || v[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!(islower((unsigned char)v[i]) ||
		    isdigit((unsigned char)v[i]) || v[i] == '-'))
			return 0;
	return 1;
}

/* Interface names: letters, digits, '-', '_'; no '/' or blanks. */
int
sp_valid_ifname(const char *v, size_t max)
{
	size_t i, n = strlen(v);

	if (n == 0 || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)v[i]) || v[i] == '-' ||
		    v[i] == '_'))
			return 0;
	return 1;
}

int
sp_valid_domain(const char *v)
{
	size_t i, n = strlen(v), label = 0;

	if (n == 0 || n > 253 || v[0] == '.' || v[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)v[i];

		if (ch == '.') {
			if (label == 0)
				return 0;
			label = 0;
			continue;
		}
		if (!(islower(ch) || isdigit(ch) || ch == '-'))
			return 0;
		if (++label > 63)
			return 0;
	}
	return 1;
}

/* An HTTP header field name (RFC 9110 token). */
int
sp_valid_header_name(const char *v)
{
	size_t i, n = strlen(v);

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!(isalnum((unsigned char)v[i]) || strchr("!#$%&'*+-.^_`|~",
		    v[i]) != NULL))
			return 0;
	return 1;
}

/* Printable ASCII only: header values end up quoted inside configs. */
int
sp_valid_header_value(const char *v)
{
	for (; *v != '\0'; v++)
		if ((unsigned char)*v < 0x20 || (unsigned char)*v > 0x7e)
			return 0;
	return 1;
}

char *
sp_join_path(struct ctx *c, const char *v)
{
	struct buf b = BUF_INIT;
	char *r;

	if (v[0] == '/' || c->dir == NULL)
		return sp_sdup(c, v);
	buf_printf(&b, "%s/%s", c->dir, v);
	r = arena_strdup(c->arena, b.ptr);
	buf_release(&b);
	return r;
}

/*
 * Walks a mapping: reports duplicate and unknown keys, and hands every
 * known one to the caller through the keys table (NULL-terminated) by
 * filling vals[i] with the value node.
 */
int
sp_mapping(struct ctx *c, yaml_node_t *n, const char *what,
    const char *const *keys, yaml_node_t **vals, int *klines)
{
	yaml_node_pair_t *p;
	size_t i;

	for (i = 0; keys[i] != NULL; i++) {
		vals[i] = NULL;
		if (klines != NULL)
			klines[i] = 0;
	}
	if (n == NULL || n->type != YAML_MAPPING_NODE) {
		sp_err(c, n ? sp_line_of(n) : 1, "%s: expected a mapping", what);
		return -1;
	}
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks;

		if (k == NULL || k->type != YAML_SCALAR_NODE) {
			sp_err(c, k ? sp_line_of(k) : 0, "%s: key is not a name", what);
			continue;
		}
		ks = (const char *)k->data.scalar.value;
		for (i = 0; keys[i] != NULL; i++)
			if (strcmp(keys[i], ks) == 0)
				break;
		if (keys[i] == NULL) {
			sp_err(c, sp_line_of(k), "unknown key '%s' in %s", ks, what);
			continue;
		}
		if (vals[i] != NULL) {
			sp_err(c, sp_line_of(k), "duplicate key '%s' in %s", ks, what);
			continue;
		}
		vals[i] = v;
		if (klines != NULL)
			klines[i] = sp_line_of(k);
	}
	return 0;
}

/* A scalar or a sequence of scalars, as an arena array. */
size_t
sp_string_list(struct ctx *c, yaml_node_t *n, const char *what, char ***out,
    int **lines)
{
	yaml_node_item_t *it;
	size_t count = 0, i = 0;

	*out = NULL;
	if (lines)
		*lines = NULL;
	if (n == NULL)
		return 0;
	if (n->type == YAML_SCALAR_NODE) {
		*out = arena_alloc(c->arena, sizeof(char *));
		(*out)[0] = sp_sdup(c, (const char *)n->data.scalar.value);
		if (lines) {
			*lines = arena_alloc(c->arena, sizeof(int));
			(*lines)[0] = sp_line_of(n);
		}
		return 1;
	}
	if (n->type != YAML_SEQUENCE_NODE) {
		sp_err(c, sp_line_of(n), "%s: expected a list", what);
		return 0;
	}
	count = n->data.sequence.items.top - n->data.sequence.items.start;
	*out = arena_alloc(c->arena, (count + 1) * sizeof(char *));
	if (lines)
		*lines = arena_alloc(c->arena, (count + 1) * sizeof(int));
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	    it++) {
		yaml_node_t *v = yaml_document_get_node(c->doc, *it);
		const char *s = sp_scalar(c, v, what);

		if (s == NULL)
			continue;
		(*out)[i] = sp_sdup(c, s);
		if (lines)
			(*lines)[i] = sp_line_of(v);
		i++;
	}
	return i;
}

void
sp_check_file(struct ctx *c, const char *path, int line, const char *what,
    const char *written)
{
	if (access(path, R_OK) == -1)
		sp_err(c, line, "%s file %s: %s", what, written, strerror(errno));
}
