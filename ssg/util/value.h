#ifndef SSG_VALUE_H
#define SSG_VALUE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A small dynamic data tree: the context templates are rendered with.
 *
 * A tree is built once and then only read, so several threads may read
 * (render from) the same tree at once. Every constructor returns a new
 * value owned by the caller until it is handed to val_push or val_set;
 * val_free releases a value and everything below it. Allocation failure
 * aborts (see mem.h), so constructors never return NULL.
 */
enum val_kind {
	VAL_NULL,
	VAL_BOOL,
	VAL_NUM,
	VAL_STR,
	VAL_LIST,
	VAL_MAP
};

struct val;

struct val	*val_null(void);
struct val	*val_bool(int b);
/* Interpolates in its shortest exact form: 1.210 -> "1.21", 85 -> "85". */
struct val	*val_num(double d);
/* Copies s; s NULL gives "". */
struct val	*val_str(const char *s);
/* Copies n bytes of s (which may hold NUL bytes). */
struct val	*val_strn(const char *s, size_t n);
/* Takes ownership of s, a malloc'd string; s NULL gives "". */
struct val	*val_str_own(char *s);
/* A string that is not copied: s must outlive the value (an arena string
 * or a literal). Rendering builds many short-lived contexts from data that
 * lives longer; borrowing saves a copy and a free per field. */
struct val	*val_str_ref(const char *s);
struct val	*val_list(void);
/* A view of map m, not a copy: m must outlive the view and not change
 * while it is used; the view cannot be changed (val_set frees v and does
 * nothing). Freeing it frees only the view. One map shown in many
 * contexts (a post in every list it is on) is made once this way. */
struct val	*val_view(const struct val *m);
/* A map keeps its keys in insertion order. */
struct val	*val_map(void);

/* Appends item (now owned by list); does nothing but free item if list is
 * not a list. */
void	 val_push(struct val *list, struct val *item);
/* Sets key (copied) to v (now owned by map). An existing key keeps its
 * place and its old value is freed. Frees v if map is not a map. */
void	 val_set(struct val *map, const char *key, struct val *v);
/* Shorthands for val_set; val_set_str with s NULL sets nothing. */
void	 val_set_str(struct val *map, const char *key, const char *s);
/* val_set with a key that is not copied: key must outlive map (a literal). */
void	 val_set_lit(struct val *map, const char *key, struct val *v);
/* Borrowed key and borrowed text (see val_str_ref); s NULL sets nothing. */
void	 val_set_ref(struct val *map, const char *key, const char *s);
void	 val_set_bool(struct val *map, const char *key, int b);
void	 val_set_num(struct val *map, const char *key, double d);

enum val_kind	 val_kind(const struct val *v);
/* The value under key; NULL if absent or if map is not a map. */
const struct val *val_get(const struct val *map, const char *key);
/* VAL_STR: its text (NUL-terminated); anything else: NULL. */
const char	*val_as_str(const struct val *v);
/* The list length; 0 for anything that is not a list. */
size_t		 val_len(const struct val *v);
/* The i-th item of a list; NULL past the end or for non-lists. */
const struct val *val_at(const struct val *list, size_t i);
/* Recursive; val_free(NULL) does nothing. */
void		 val_free(struct val *v);

/* VAL_BOOL: its value; VAL_NUM: the number; anything else: 0. */
int		 val_as_bool(const struct val *v);
double		 val_as_num(const struct val *v);
/* The number of keys of a map (0 for non-maps), and the i-th key and value
 * in insertion order (NULL past the end). */
size_t		 val_map_len(const struct val *map);
const char	*val_key_at(const struct val *map, size_t i);
const struct val *val_value_at(const struct val *map, size_t i);

/*
 * What templates see. val_truthy: false for NULL (absent), null, false,
 * 0, "" and the empty list; true for anything else (maps included), as
 * JavaScript's !!data. val_text: the text {{name}} interpolates (strings,
 * numbers, "true"/"false"; "" for the rest) and its length; never NULL.
 */
int		 val_truthy(const struct val *v);
const char	*val_text(const struct val *v, size_t *len);

/*
 * Lookups by a key that is not NUL-terminated, with its hash from
 * val_hash precomputed: for callers that look the same names up many
 * times (the template engine).
 */
uint32_t	 val_hash(const char *key, size_t len);
const struct val *val_getn(const struct val *map, const char *key,
		    size_t len, uint32_t hash);

#endif
