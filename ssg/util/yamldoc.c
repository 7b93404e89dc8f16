#include "yamldoc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "diag.h"
#include "mem.h"

/*
 * Settings and front matter are a few levels deep; a document nested
 * deeper is a mistake or an attack on the recursion below. Aliases (*name)
 * are refused outright (see parse_node): expanding them is how a few lines
 * of YAML grow into gigabytes ("billion laughs").
 */
#define YAML_MAX_DEPTH 64

struct yparse {
	yaml_parser_t	 parser;
	const char	*file;
	int		 first_line;
	struct diag	*d;
};

static void
ynode_error(struct yparse *p)
{
	yaml_parser_t *y = &p->parser;
	const char *what = y->problem ? y->problem : "invalid YAML";
	int line = (int)y->problem_mark.line + p->first_line;

	if (y->context)
		diag_error(p->d, p->file, line, "%s %s", what, y->context);
	else
		diag_error(p->d, p->file, line, "%s", what);
}

static struct ynode *parse_node(struct yparse *p, yaml_event_t *ev, int depth);

/* Reads children until the closing event of a sequence or mapping. */
static int
parse_children(struct yparse *p, struct ynode *n, int depth)
{
	yaml_event_t ev;
	struct ynode **tail = &n->child, *c;
	char *key = NULL;
	int is_map = n->kind == YNODE_MAP;

	for (;;) {
		if (!yaml_parser_parse(&p->parser, &ev)) {
			ynode_error(p);
			free(key);
			return -1;
		}
		if (ev.type == YAML_SEQUENCE_END_EVENT ||
		    ev.type == YAML_MAPPING_END_EVENT) {
			yaml_event_delete(&ev);
			free(key);
			return 0;
		}
		if (is_map && key == NULL) {
			if (ev.type != YAML_SCALAR_EVENT) {
				diag_error(p->d, p->file,
				    (int)ev.start_mark.line + p->first_line,
				    "a mapping key must be plain text");
				yaml_event_delete(&ev);
				return -1;
			}
			key = xstrndup((char *)ev.data.scalar.value,
			    ev.data.scalar.length);
			for (c = n->child; c != NULL; c = c->next) {
				if (strcmp(c->key, key) == 0) {
					diag_error(p->d, p->file,
					    (int)ev.start_mark.line +
					    p->first_line,
					    "duplicate key '%s' (first on line %d)",
					    key, c->line);
					yaml_event_delete(&ev);
					free(key);
					return -1;
				}
			}
			yaml_event_delete(&ev);
			continue;
		}
		c = parse_node(p, &ev, depth + 1);
		if (c == NULL) {
			free(key);
			return -1;
		}
		c->key = key;
		key = NULL;
		*tail = c;
		tail = &c->next;
	}
}

/* Builds the node that starts with ev (consumed). */
static struct ynode *
parse_node(struct yparse *p, yaml_event_t *ev, int depth)
{
	struct ynode *n;
	int line = (int)ev->start_mark.line + p->first_line;

	if (depth > YAML_MAX_DEPTH) {
		diag_error(p->d, p->file, line, "YAML nested too deeply");
		yaml_event_delete(ev);
		return NULL;
	}
	n = xcalloc(1, sizeof(*n));
	n->line = line;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n->kind = YNODE_SCALAR;
		n->value = xstrndup((char *)ev->data.scalar.value,
		    ev->data.scalar.length);
		n->quoted = ev->data.scalar.style !=
		    YAML_PLAIN_SCALAR_STYLE;
		yaml_event_delete(ev);
		return n;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		n->kind = ev->type == YAML_SEQUENCE_START_EVENT ?
		    YNODE_SEQ : YNODE_MAP;
		yaml_event_delete(ev);
		if (parse_children(p, n, depth) == -1) {
			ynode_free(n);
			return NULL;
		}
		return n;
	case YAML_ALIAS_EVENT:
		diag_error(p->d, p->file, line, "YAML aliases are not supported");
		break;
	default:
		diag_error(p->d, p->file, line, "unexpected YAML event");
		break;
	}
	yaml_event_delete(ev);
	free(n);
	return NULL;
}

struct ynode *
ynode_parse(const char *text, size_t len, const char *file, int first_line,
    struct diag *d)
{
	struct yparse p;
	yaml_event_t ev;
	struct ynode *root = NULL;
	int done = 0;

	memset(&p, 0, sizeof(p));
	p.file = file;
	p.first_line = first_line;
	p.d = d;
	if (!yaml_parser_initialize(&p.parser))
		return NULL;
	yaml_parser_set_input_string(&p.parser, (const unsigned char *)text,
	    len);
	while (!done) {
		if (!yaml_parser_parse(&p.parser, &ev)) {
			ynode_error(&p);
			ynode_free(root);
			root = NULL;
			goto out;
		}
		switch (ev.type) {
		case YAML_STREAM_START_EVENT:
		case YAML_DOCUMENT_START_EVENT:
			yaml_event_delete(&ev);
			break;
		case YAML_DOCUMENT_END_EVENT:
		case YAML_STREAM_END_EVENT:
			yaml_event_delete(&ev);
			done = 1;
			break;
		default:
			if (root != NULL) {
				yaml_event_delete(&ev);
				break;
			}
			root = parse_node(&p, &ev, 0);
			if (root == NULL)
				goto out;
			break;
		}
	}
	if (root == NULL) {
		root = xcalloc(1, sizeof(*root));
		root->kind = YNODE_MAP;
		root->line = first_line;
	} else if (root->kind == YNODE_SCALAR && root->value[0] == '\0') {
		root->kind = YNODE_MAP;
		free(root->value);
		root->value = NULL;
	}
out:
	yaml_parser_delete(&p.parser);
	return root;
}

void
ynode_free(struct ynode *n)
{
	struct ynode *next;

	while (n != NULL) {
		next = n->next;
		ynode_free(n->child);
		free(n->value);
		free(n->key);
		free(n);
		n = next;
	}
}

const struct ynode *
ynode_get(const struct ynode *map, const char *key)
{
	const struct ynode *c;

	if (map == NULL || map->kind != YNODE_MAP)
		return NULL;
	for (c = map->child; c != NULL; c = c->next)
		if (strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

const char *
ynode_str(const struct ynode *n)
{
	if (n == NULL || n->kind != YNODE_SCALAR)
		return NULL;
	if (!n->quoted && (n->value[0] == '\0' || strcmp(n->value, "~") == 0 ||
	    strcasecmp(n->value, "null") == 0))
		return NULL;
	return n->value;
}

int
ynode_bool(const struct ynode *n)
{
	static const char *const yes[] = { "true", "yes", "on", "y", "1" };
	static const char *const no[] = { "false", "no", "off", "n", "0" };
	size_t i;

	if (n == NULL || n->kind != YNODE_SCALAR)
		return -1;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(n->value, yes[i]) == 0)
			return 1;
		if (strcasecmp(n->value, no[i]) == 0)
			return 0;
	}
	return -1;
}
