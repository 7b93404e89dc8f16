#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* Maps up to this size are searched linearly; larger ones get an index. */
#define MAP_LINEAR	8

struct ent {
	char		*key;
	size_t		 klen;
	uint32_t	 hash;
	int		 own_key;	/* 0: borrowed (val_set_lit) */
	struct val	*v;
};

struct val {
	enum val_kind	 kind;
	int		 borrowed;	/* VAL_STR: text not owned (val_str_ref);
					 * VAL_MAP: entries not owned (val_view) */
	union {
		int	 b;
		struct {
			char	*s;	/* VAL_NUM: its formatted text */
			size_t	 len;
			double	 d;
		} str;
		struct {
			struct val	**items;
			size_t		  n, cap;
		} list;
		struct {
			struct ent	*ents;
			size_t		 n, cap;
			uint32_t	*idx;	/* open addressing: entry + 1, 0 empty */
			size_t		 icap;	/* a power of two, or 0 */
		} map;
	} u;
};

static struct val *
val_new(enum val_kind kind)
{
	struct val *v = xcalloc(1, sizeof(*v));

	v->kind = kind;
	return v;
}

struct val *
val_view(const struct val *m)
{
	struct val *v;

	if (m == NULL || m->kind != VAL_MAP)
		return val_null();
	v = val_new(VAL_MAP);
	v->borrowed = 1;
	v->u.map = m->u.map;
	return v;
}

struct val *
val_null(void)
{
	return val_new(VAL_NULL);
}

struct val *
val_bool(int b)
{
	struct val *v = val_new(VAL_BOOL);

	v->u.b = b != 0;
	return v;
}

/* The shortest of %.15g..%.17g that reads back as the same double. */
static char *
num_format(double d, size_t *lenp)
{
	char tmp[40];
	int prec, n = 0;

	for (prec = 15; prec <= 17; prec++) {
		n = snprintf(tmp, sizeof(tmp), "%.*g", prec, d);
		if (n < 0 || (size_t)n >= sizeof(tmp)) {
			n = snprintf(tmp, sizeof(tmp), "%g", d);
			break;
		}
		if (strtod(tmp, NULL) == d)
			break;
	}
	if (n < 0)
		n = 0;
	*lenp = (size_t)n;
	return xstrndup(tmp, (size_t)n);
}

struct val *
val_num(double d)
{
	struct val *v = val_new(VAL_NUM);

	v->u.str.d = d;
	v->u.str.s = num_format(d, &v->u.str.len);
	return v;
}

struct val *
val_strn(const char *s, size_t n)
{
	struct val *v = val_new(VAL_STR);

	v->u.str.s = xmalloc(n + 1);
	if (n)
		memcpy(v->u.str.s, s, n);
	v->u.str.s[n] = '\0';
	v->u.str.len = n;
	return v;
}

struct val *
val_str(const char *s)
{
	if (s == NULL)
		s = "";
	return val_strn(s, strlen(s));
}

struct val *
val_str_own(char *s)
{
	struct val *v;

	if (s == NULL)
		return val_strn("", 0);
	v = val_new(VAL_STR);
	v->u.str.s = s;
	v->u.str.len = strlen(s);
	return v;
}

struct val *
val_str_ref(const char *s)
{
	struct val *v;

	if (s == NULL)
		s = "";
	v = val_new(VAL_STR);
	v->u.str.s = (char *)s;
	v->u.str.len = strlen(s);
	v->borrowed = 1;
	return v;
}

struct val *
val_list(void)
{
	return val_new(VAL_LIST);
}

struct val *
val_map(void)
{
	return val_new(VAL_MAP);
}

void
val_push(struct val *list, struct val *item)
{
	if (list == NULL || list->kind != VAL_LIST) {
		val_free(item);
		return;
	}
	xgrow((void **)&list->u.list.items, &list->u.list.cap,
	    list->u.list.n + 1, sizeof(*list->u.list.items));
	list->u.list.items[list->u.list.n++] = item;
}

uint32_t
val_hash(const char *key, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 16777619u;
	}
	return h;
}

static void
index_insert(struct val *m, size_t e)
{
	size_t mask = m->u.map.icap - 1;
	size_t i = m->u.map.ents[e].hash & mask;

	while (m->u.map.idx[i] != 0)
		i = (i + 1) & mask;
	m->u.map.idx[i] = (uint32_t)(e + 1);
}

/* Keeps the index at most half full; built once a map outgrows MAP_LINEAR. */
static void
index_update(struct val *m)
{
	size_t n = m->u.map.n, cap, e;

	if (n <= MAP_LINEAR)
		return;
	if (m->u.map.icap >= 2 * n) {
		index_insert(m, n - 1);
		return;
	}
	cap = 32;
	while (cap < 4 * n)
		cap *= 2;
	free(m->u.map.idx);
	m->u.map.idx = xcalloc(cap, sizeof(*m->u.map.idx));
	m->u.map.icap = cap;
	for (e = 0; e < n; e++)
		index_insert(m, e);
}

static struct ent *
map_find(const struct val *m, const char *key, size_t len, uint32_t hash)
{
	struct ent *ents = m->u.map.ents, *en;
	size_t i, mask;
	uint32_t slot;

	if (m->u.map.icap == 0) {
		for (i = 0; i < m->u.map.n; i++) {
			en = &ents[i];
			if (en->hash == hash && en->klen == len &&
			    memcmp(en->key, key, len) == 0)
				return en;
		}
		return NULL;
	}
	mask = m->u.map.icap - 1;
	for (i = hash & mask; (slot = m->u.map.idx[i]) != 0; i = (i + 1) & mask) {
		en = &ents[slot - 1];
		if (en->hash == hash && en->klen == len &&
		    memcmp(en->key, key, len) == 0)
			return en;
	}
	return NULL;
}

static void
set_entry(struct val *map, const char *key, struct val *v, int own_key)
{
	struct ent *en;
	size_t len;
	uint32_t hash;

	if (map == NULL || map->kind != VAL_MAP || map->borrowed ||
	    key == NULL) {
		val_free(v);
		return;
	}
	len = strlen(key);
	hash = val_hash(key, len);
	if ((en = map_find(map, key, len, hash)) != NULL) {
		val_free(en->v);
		en->v = v;
		return;
	}
	if (map->u.map.n >= UINT32_MAX - 1) {
		fprintf(stderr, "ssg: map too large\n");
		abort();
	}
	xgrow((void **)&map->u.map.ents, &map->u.map.cap, map->u.map.n + 1,
	    sizeof(*map->u.map.ents));
	en = &map->u.map.ents[map->u.map.n++];
	en->key = own_key ? xstrndup(key, len) : (char *)key;
	en->own_key = own_key;
	en->klen = len;
	en->hash = hash;
	en->v = v;
	index_update(map);
}

void
val_set(struct val *map, const char *key, struct val *v)
{
	set_entry(map, key, v, 1);
}

void
val_set_lit(struct val *map, const char *key, struct val *v)
{
	set_entry(map, key, v, 0);
}

void
val_set_ref(struct val *map, const char *key, const char *s)
{
	if (s != NULL)
		set_entry(map, key, val_str_ref(s), 0);
}

void
val_set_str(struct val *map, const char *key, const char *s)
{
	if (s != NULL)
		val_set(map, key, val_str(s));
}

void
val_set_bool(struct val *map, const char *key, int b)
{
	val_set(map, key, val_bool(b));
}

void
val_set_num(struct val *map, const char *key, double d)
{
	val_set(map, key, val_num(d));
}

enum val_kind
val_kind(const struct val *v)
{
	return v == NULL ? VAL_NULL : v->kind;
}

const struct val *
val_getn(const struct val *map, const char *key, size_t len, uint32_t hash)
{
	const struct ent *en;

	if (map == NULL || map->kind != VAL_MAP)
		return NULL;
	en = map_find(map, key, len, hash);
	return en != NULL ? en->v : NULL;
}

const struct val *
val_get(const struct val *map, const char *key)
{
	size_t len;

	if (map == NULL || map->kind != VAL_MAP || key == NULL)
		return NULL;
	len = strlen(key);
	return val_getn(map, key, len, val_hash(key, len));
}

const char *
val_as_str(const struct val *v)
{
	return v != NULL && v->kind == VAL_STR ? v->u.str.s : NULL;
}

size_t
val_len(const struct val *v)
{
	return v != NULL && v->kind == VAL_LIST ? v->u.list.n : 0;
}

const struct val *
val_at(const struct val *list, size_t i)
{
	if (list == NULL || list->kind != VAL_LIST || i >= list->u.list.n)
		return NULL;
	return list->u.list.items[i];
}

int
val_as_bool(const struct val *v)
{
	return v != NULL && v->kind == VAL_BOOL ? v->u.b : 0;
}

double
val_as_num(const struct val *v)
{
	return v != NULL && v->kind == VAL_NUM ? v->u.str.d : 0;
}

size_t
val_map_len(const struct val *map)
{
	return map != NULL && map->kind == VAL_MAP ? map->u.map.n : 0;
}

const char *
val_key_at(const struct val *map, size_t i)
{
	if (map == NULL || map->kind != VAL_MAP || i >= map->u.map.n)
		return NULL;
	return map->u.map.ents[i].key;
}

const struct val *
val_value_at(const struct val *map, size_t i)
{
	if (map == NULL || map->kind != VAL_MAP || i >= map->u.map.n)
		return NULL;
	return map->u.map.ents[i].v;
}

int
val_truthy(const struct val *v)
{
	if (v == NULL)
		return 0;
	switch (v->kind) {
	case VAL_NULL:
		return 0;
	case VAL_BOOL:
		return v->u.b;
	case VAL_NUM:
		return v->u.str.d != 0;
	case VAL_STR:
		return v->u.str.len != 0;
	case VAL_LIST:
		return v->u.list.n != 0;
	case VAL_MAP:
		return 1;
	}
	return 0;
}

const char *
val_text(const struct val *v, size_t *len)
{
	const char *s = "";

	if (v != NULL) {
		switch (v->kind) {
		case VAL_STR:
		case VAL_NUM:
			*len = v->u.str.len;
			return v->u.str.s;
		case VAL_BOOL:
			s = v->u.b ? "true" : "false";
			break;
		default:
			break;
		}
	}
	*len = strlen(s);
	return s;
}

void
val_free(struct val *v)
{
	size_t i;

	if (v == NULL)
		return;
	switch (v->kind) {
	case VAL_STR:
	case VAL_NUM:
		if (!v->borrowed)
			free(v->u.str.s);
		break;
	case VAL_LIST:
		for (i = 0; i < v->u.list.n; i++)
			val_free(v->u.list.items[i]);
		free(v->u.list.items);
		break;
	case VAL_MAP:
		if (v->borrowed)
			break;
		for (i = 0; i < v->u.map.n; i++) {
			if (v->u.map.ents[i].own_key)
				free(v->u.map.ents[i].key);
			val_free(v->u.map.ents[i].v);
		}
		free(v->u.map.ents);
		free(v->u.map.idx);
		break;
	default:
		break;
	}
	free(v);
}
