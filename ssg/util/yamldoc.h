#ifndef SSG_YAMLDOC_H
#define SSG_YAMLDOC_H

#include <stddef.h>

struct diag;

/*
 * A YAML document read into a small tree (libyaml underneath), with the
 * line of every node so later checks can point at the right place.
 * Used for site.yaml and front matter.
 */
enum ynode_kind {
	YNODE_SCALAR,
	YNODE_SEQ,
	YNODE_MAP
};

struct ynode {
	enum ynode_kind	 kind;
	int		 line;		/* 1-based, in the file */
	int		 quoted;	/* scalar was quoted: never a bool or null */
	char		*value;		/* scalar text; NULL otherwise */
	char		*key;		/* key when inside a map; NULL otherwise */
	struct ynode	*child;		/* first item of a seq or map */
	struct ynode	*next;		/* next sibling */
};

/*
 * Parses text (len bytes). first_line is the file line of text's first
 * line, so errors point into the whole file. An empty document gives an
 * empty map. Returns the root (caller frees with ynode_free), or NULL after
 * recording "file:line: problem" in d.
 */
struct ynode	*ynode_parse(const char *text, size_t len, const char *file,
		    int first_line, struct diag *d);
void		 ynode_free(struct ynode *n);
/* The value under key in a map, or NULL. */
const struct ynode *ynode_get(const struct ynode *map, const char *key);
/* Scalar text, or NULL for non-scalars and YAML nulls (~, null, empty). */
const char	*ynode_str(const struct ynode *n);
/* YAML 1.1 booleans: 1 true, 0 false, -1 not a boolean. */
int		 ynode_bool(const struct ynode *n);

#endif
