#ifndef DEPLOY_SPEC_INT_H
#define DEPLOY_SPEC_INT_H

/* Shared by the parts of the deploy.yaml reader: spec.c (the file, its
 * sections, the public functions), spec_yaml.c (reading nodes, checking
 * values) and spec_site.c (sites). Not for other modules. */

#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "diag.h"
#include "spec.h"

/* Interface names are at most 15 bytes; veth names are bridge + "-XXXX". */
#define BRIDGE_MAX	10
#define NAME_MAX_LEN	16
#define SITE_MAX_LEN	32

struct ctx {
	struct spec	*s;
	struct arena	*arena;
	yaml_document_t	*doc;
	struct diag	*d;
	const char	*file;
	char		*dir;		/* folder of the file, for relative paths */
	int		 errors;
	int		 quiet_dups;	/* drop a message d already holds: the
					 * second and later hosts of a fleet
					 * read the same top level again */
};

/* spec_yaml.c */
/* Records an error at line of the file being read. */
void	sp_err(struct ctx *c, int line, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	sp_line_of(yaml_node_t *n);
const char *sp_scalar(struct ctx *c, yaml_node_t *n, const char *what);
char	*sp_sdup(struct ctx *c, const char *v);
int	sp_parse_int(const char *v, long lo, long hi, long *out);
int	sp_parse_addr(const char *v, uint32_t *out);
uint32_t sp_mask_of(int prefix);
/* Lower-case letters, digits and '-', starting with a letter or digit. */
int	sp_valid_name(const char *v, size_t max);
/* Interface names: letters, digits, '-', '_'; no '/' or blanks. */
int	sp_valid_ifname(const char *v, size_t max);
int	sp_valid_domain(const char *v);
/* An HTTP header field name (RFC 9110 token). */
int	sp_valid_header_name(const char *v);
/* Printable ASCII only: header values end up quoted inside configs. */
int	sp_valid_header_value(const char *v);
char	*sp_join_path(struct ctx *c, const char *v);
/*
 * Walks a mapping: reports duplicate and unknown keys, and hands every
 * known one to the caller through the keys table (NULL-terminated) by
 * filling vals[i] with the value node.
 */
int	sp_mapping(struct ctx *c, yaml_node_t *n, const char *what,
	    const char *const *keys, yaml_node_t **vals, int *klines);
/* A scalar or a sequence of scalars, as an arena array. */
size_t	sp_string_list(struct ctx *c, yaml_node_t *n, const char *what,
	    char ***out, int **lines);
void	sp_check_file(struct ctx *c, const char *path, int line,
	    const char *what, const char *written);

/* spec_site.c */
/* The sites: section. */
void	sp_parse_sites(struct ctx *c, yaml_node_t *n);
/* At most one Gemini site per host; the Gemini jail's address and port. */
void	sp_check_gemini(struct ctx *c, struct spec *s);

/* spec_dns.c */
/* The dns: section (key file read and checked). */
void	sp_parse_dns(struct ctx *c, yaml_node_t *n);
/* A host's address: list. */
void	sp_parse_addresses(struct ctx *c, yaml_node_t *n);
/* With dns:, every domain of s inside the zone, and s has an address. */
void	sp_check_dns(struct ctx *c, struct spec *s);

#endif
