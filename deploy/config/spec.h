#ifndef DEPLOY_SPEC_H
#define DEPLOY_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/*
 * deploy.yaml: the desired state of one jail host. Every value keeps the
 * line it came from so later checks can point at it. All strings live in
 * the spec's arena and go away with spec_free.
 */

enum spec_host {
	HOST_LOCAL,
	HOST_SSH
};

enum spec_platform {
	PLATFORM_LINUX_NETNS,
	PLATFORM_FREEBSD_BASTILLE,
	PLATFORM_FREEBSD_JAIL
};

enum spec_proxy_kind {
	PROXY_CADDY,
	PROXY_NGINX
};

enum spec_tls {
	TLS_INTERNAL,
	TLS_ACME,
	TLS_FILES	/* nginx proxy: certificate and key files */
};

struct spec_port {
	char		*addr;		/* host address to match, NULL = any */
	int		 port;		/* host port */
	int		 to;		/* proxy port 80 or 443, or 1965:
					 * the Gemini jail */
	int		 line;
};

struct spec_redirect {
	char		*from;
	char		*to;
	int		 line;
};

struct spec_header {
	char		*name;
	char		*value;
	int		 line;
};

struct spec_site {
	char		*name;
	int		 line;
	char		**domains;
	int		*domain_lines;
	size_t		 ndomains;
	struct spec_redirect *redirects;
	size_t		 nredirects;
	char		*source;	/* ssg site folder or built tree */
	int		 source_line;
	int		 source_built;	/* source holds a built tree */
	struct spec_header *headers;
	size_t		 nheaders;
	char		*cert;		/* nginx proxy: per-site override */
	char		*key;
	uint32_t	 addr;		/* host byte order */
	char		 addr_str[16];
	int		 addr_line;
	char		**only;		/* `hosts:` names the site is on; */
	int		*only_lines;	/* NULL = every host */
	size_t		 nonly;
	int		 gemini;	/* serve its capsule from the */
	int		 gemini_line;	/* host's Gemini jail */
};

/*
 * dns: the authoritative server deploy keeps in step with the fleet's
 * healthy hosts (RFC 2136 updates signed with TSIG). One for the whole
 * file; every host's spec points at the same one. The key's secret is
 * never printed.
 */
struct spec_dns {
	char		*server;	/* host name or address */
	int		 port;
	char		*zone;		/* without the final dot */
	char		*key_file;
	char		*key_name;	/* TSIG key name */
	char		*key_alg;	/* hmac-sha256, ... */
	char		*key_secret;	/* base64 */
	int		 ttl;
	int		 adopt;		/* take over RRsets with others'
					 * addresses */
	int		 line;
};

struct spec {
	char		*file;		/* as given, for messages */
	char		*name;		/* the deployment's name */
	/* Prefix of every object apply makes on the host (namespaces, the
	 * nftables table): name; on a host of a fleet of several,
	 * name-LABEL, so that two hosts may share one machine. */
	char		*prefix;
	/*
	 * The fleet. Every host is a whole spec of its own: its entry under
	 * `hosts:` gives host, platform, network, state and releases where
	 * they differ, the rest comes from the top level, and its sites are
	 * those whose `hosts:` name it. hosts[0] is the spec itself and each
	 * host's `hosts` points at the same array. A file without `hosts:`
	 * is a fleet of one.
	 */
	struct spec	**hosts;
	size_t		 nhosts;
	char		*label;		/* the host's name: its entry's name, */
	int		 label_line;	/* or host */
	enum spec_host	 host;
	char		*host_str;
	char		*agent;		/* deploy on the host; NULL: in PATH */
	char		*ssh_user;	/* HOST_SSH only */
	char		*ssh_host;
	int		 ssh_port;
	/* Not from the file: --known-hosts and --identity, for drivers that
	 * run commands on the host over ssh (borrowed; NULL: ssh's own). */
	const char	*ssh_known_hosts;
	const char	*ssh_identity;
	enum spec_platform platform;
	char		*state;		/* folder for generated configs, pids, logs */

	struct {
		char		*bridge;
		int		 bridge_line;
		uint32_t	 net;		/* host byte order */
		int		 prefix;
		int		 subnet_line;
		char		 subnet_str[24];
		uint32_t	 gateway;	/* host side of the bridge */
		char		 gateway_str[16];
		uint32_t	 proxy;
		char		 proxy_str[16];
		/* The Gemini jail: subnet + 9, when a site of the host
		 * sets gemini (0 otherwise). */
		uint32_t	 gemini;
		char		 gemini_str[16];
		struct spec_port *ports;
		size_t		 nports;
		int		 ports_default;	/* no ports: given */
	} net;

	struct {
		enum spec_proxy_kind kind;
		enum spec_tls	 tls;
		char		*cert;
		char		*key;
		char		*email;		/* ACME account */
		char		*acme_ca;	/* ACME directory URL */
		char		*acme_ca_root;	/* root of the ACME server's
						 * own TLS, if private */
		char		*ca;		/* CA file the checks trust too */
		int		 hsts;		/* max-age in seconds, 0 = off */
		/* How the proxy reaches the sites: a Unix socket in a
		 * folder shared with the proxy (default), or TCP to the
		 * site's address (upstream: tcp). */
		int		 upstream_tcp;
		/* Caddy: HTTP/3 (QUIC) to readers, UDP 443 open (off). */
		int		 http3;
		int		 line;
	} proxy;

	struct {
		char		*root;
		int		 keep;
	} releases;

	char		*user;		/* nginx workers run as this user */
	/* Where readers reach the host (`address:`, IPv4 or IPv6, as
	 * written); what dns publishes for it. */
	char		**addresses;
	int		*address_lines;
	size_t		 naddresses;
	struct spec_dns	*dns;		/* NULL: no dns: */
	struct spec_site *sites;
	size_t		 nsites;
};

/*
 * Reads and checks path. Returns a spec (free with spec_free), or NULL after
 * recording every problem found in d as "path:line: problem".
 */
struct spec *spec_load(const char *path, struct diag *d);
/* Same from a string; name is used in messages. */
struct spec *spec_parse(const char *name, const char *text, size_t len,
	    struct diag *d);
void	spec_free(struct spec *s);

/*
 * Checks the subnet against the addresses of the host's interfaces (from
 * getifaddrs), ignoring the spec's own bridge. Returns 0, or -1 after
 * recording the conflicts in d.
 */
int	spec_check_host(const struct spec *s, struct diag *d);

/* The same against a given list (tests use this). */
struct spec_ifaddr {
	const char	*ifname;
	uint32_t	 addr;		/* host byte order */
	int		 prefix;
};
int	spec_check_ifaddrs(const struct spec *s, struct diag *d,
	    const struct spec_ifaddr *list, size_t n);

/* The site named name, or NULL. */
const struct spec_site *spec_site(const struct spec *s, const char *name);

/* The site of the host that serves Gemini, or NULL. */
const struct spec_site *spec_gemini_site(const struct spec *s);

/* Whether any host of the fleet has a site of that name. */
int	spec_fleet_has_site(const struct spec *s, const char *name);

/* The web root of a site on the host: <releases.root>/<site>; caller frees. */
char	*spec_site_root(const struct spec *s, const struct spec_site *site);

/* The platform's name as deploy.yaml writes it ("linux-netns"). */
const char *spec_platform_name(enum spec_platform p);
/* The platform named name into *out. 0, or -1 when there is none. */
int	spec_platform_parse(const char *name, enum spec_platform *out);

/* dotted quad of a host-order address into out[16]. */
void	spec_ntoa(uint32_t a, char out[16]);

#endif
