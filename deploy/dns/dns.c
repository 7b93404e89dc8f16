/* The records deploy keeps on the authoritative server: queries, and
 * RFC 2136 updates signed with TSIG, through libldns. */

#include <sys/socket.h>
#include <sys/time.h>

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ldns/ldns.h>

#include "diag.h"
#include "dns.h"
#include "mem.h"

/* The server, for messages: "ADDRESS:PORT". */
static void
where(const struct spec_dns *dns, char *out, size_t n)
{
	/* (a name deploy.yaml gave: said cut when it is) */
	if (strfit(out, n, strchr(dns->server, ':') ? "[%s]:%d" : "%s:%d",
	    dns->server, dns->port) == -1 && n > 4)
		memcpy(out + n - 4, "...", 4);
}

/*
 * A resolver that asks dns->server over TCP, without recursion; signing
 * with the key when sign is set. NULL with the reason in d.
 */
static ldns_resolver *
resolver(const struct spec_dns *dns, int sign, struct diag *d)
{
	struct addrinfo hints, *ai = NULL;
	ldns_resolver *r;
	ldns_rdf *ns;
	struct timeval tv = { 5, 0 };
	char addr[INET6_ADDRSTRLEN], w[300], alg[40];
	int e;

	where(dns, w, sizeof(w));
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if ((e = getaddrinfo(dns->server, NULL, &hints, &ai)) != 0) {
		diag_error(d, NULL, 0, "dns server %s: %s", w, gai_strerror(e));
		return NULL;
	}
	if (ai->ai_family == AF_INET6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)(void *)
		    ai->ai_addr)->sin6_addr, addr, sizeof(addr));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)
		    ai->ai_addr)->sin_addr, addr, sizeof(addr));
	ns = ldns_rdf_new_frm_str(ai->ai_family == AF_INET6 ?
	    LDNS_RDF_TYPE_AAAA : LDNS_RDF_TYPE_A, addr);
	freeaddrinfo(ai);
	if (ns == NULL || (r = ldns_resolver_new()) == NULL) {
		ldns_rdf_deep_free(ns);
		diag_error(d, NULL, 0, "dns server %s: out of memory", w);
		return NULL;
	}
	ldns_resolver_push_nameserver(r, ns);
	ldns_rdf_deep_free(ns);
	ldns_resolver_set_port(r, (uint16_t)dns->port);
	ldns_resolver_set_recursive(r, false);
	ldns_resolver_set_usevc(r, true);
	ldns_resolver_set_timeout(r, tv);
	ldns_resolver_set_retry(r, 1);
	if (sign) {
		/* ldns names algorithms as domain names */
		xsnprintf(alg, sizeof(alg), "%s.", dns->key_alg);
		ldns_resolver_set_tsig_keyname(r, dns->key_name);
		ldns_resolver_set_tsig_algorithm(r, alg);
		ldns_resolver_set_tsig_keydata(r, dns->key_secret);
	}
	return r;
}

static int
add_answers(ldns_pkt *p, ldns_rdf *owner, ldns_rr_type t,
    struct dns_addrs *out)
{
	ldns_rr_list *l;
	size_t i;
	int rc = 0;

	l = ldns_pkt_rr_list_by_name_and_type(p, owner, t,
	    LDNS_SECTION_ANSWER);
	for (i = 0; l != NULL && i < ldns_rr_list_rr_count(l); i++) {
		ldns_rdf *rd = ldns_rr_rdf(ldns_rr_list_rr(l, i), 0);
		char a[INET6_ADDRSTRLEN];

		if (rd == NULL || ldns_rdf_size(rd) != (t == LDNS_RR_TYPE_A ?
		    4u : 16u) || inet_ntop(t == LDNS_RR_TYPE_A ? AF_INET :
		    AF_INET6, ldns_rdf_data(rd), a, sizeof(a)) == NULL ||
		    dns_addrs_add(out, a) == -1)
			rc = -1;
	}
	ldns_rr_list_deep_free(l);
	return rc;
}

int
dns_query(const struct spec_dns *dns, const char *name, struct dns_addrs *out,
    struct diag *d)
{
	static const ldns_rr_type types[] = { LDNS_RR_TYPE_A,
	    LDNS_RR_TYPE_AAAA };
	ldns_resolver *r;
	ldns_rdf *owner;
	char w[300];
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	where(dns, w, sizeof(w));
	if ((r = resolver(dns, 0, d)) == NULL)
		return -1;
	if ((owner = ldns_dname_new_frm_str(name)) == NULL) {
		ldns_resolver_deep_free(r);
		return diag_error(d, NULL, 0, "dns: '%s' is not a name", name);
	}
	for (i = 0; i < 2 && rc == 0; i++) {
		ldns_pkt *p = NULL;
		ldns_status st;
		ldns_pkt_rcode rcode;

		st = ldns_resolver_send(&p, r, owner, types[i],
		    LDNS_RR_CLASS_IN, 0);
		if (st != LDNS_STATUS_OK || p == NULL) {
			rc = diag_error(d, NULL, 0, "dns server %s: no answer "
			    "for %s: %s (is it running and reachable from "
			    "here?)", w, name, ldns_get_errorstr_by_id(st));
		} else if ((rcode = ldns_pkt_get_rcode(p)) !=
		    LDNS_RCODE_NOERROR && rcode != LDNS_RCODE_NXDOMAIN) {
			char *rs = ldns_pkt_rcode2str(rcode);

			rc = diag_error(d, NULL, 0, "dns server %s: query for "
			    "%s answered %s", w, name, rs ? rs : "?");
			free(rs);
		} else if (add_answers(p, owner, types[i], out) == -1)
			rc = diag_error(d, NULL, 0, "dns server %s: %s has a "
			    "bad or too many addresses", w, name);
		ldns_pkt_free(p);
	}
	ldns_rdf_deep_free(owner);
	ldns_resolver_deep_free(r);
	return rc;
}

/* An RR of name: type and class, no data (prerequisites, deletions). */
static ldns_rr *
bare_rr(const ldns_rdf *owner, ldns_rr_type t, ldns_rr_class c)
{
	ldns_rr *rr = ldns_rr_new();

	if (rr == NULL)
		return NULL;
	ldns_rr_set_owner(rr, ldns_rdf_clone(owner));
	ldns_rr_set_type(rr, t);
	ldns_rr_set_class(rr, c);
	ldns_rr_set_ttl(rr, 0);
	return rr;
}

static ldns_rr *
addr_rr(const ldns_rdf *owner, const char *addr, uint32_t ttl)
{
	int v6 = strchr(addr, ':') != NULL;
	ldns_rr *rr = bare_rr(owner, v6 ? LDNS_RR_TYPE_AAAA : LDNS_RR_TYPE_A,
	    LDNS_RR_CLASS_IN);
	ldns_rdf *rd;

	if (rr == NULL)
		return NULL;
	ldns_rr_set_ttl(rr, ttl);
	if ((rd = ldns_rdf_new_frm_str(v6 ? LDNS_RDF_TYPE_AAAA :
	    LDNS_RDF_TYPE_A, addr)) == NULL) {
		ldns_rr_free(rr);
		return NULL;
	}
	ldns_rr_push_rdf(rr, rd);
	return rr;
}

/* The addresses of set of one family. */
static void
family(const struct dns_addrs *set, int v6, struct dns_addrs *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < set->n; i++)
		if ((strchr(set->a[i], ':') != NULL) == v6)
			dns_addrs_add(out, set->a[i]);
}

/* What the answer to an update means, said in d. 0 or -1. */
static int
update_result(const struct spec_dns *dns, const char *name, ldns_status st,
    ldns_pkt *p, struct diag *d)
{
	char w[300], *rs;
	ldns_pkt_rcode rcode;

	where(dns, w, sizeof(w));
	if (p != NULL && (rcode = ldns_pkt_get_rcode(p)) != LDNS_RCODE_NOERROR) {
		switch (rcode) {
		case LDNS_RCODE_NOTAUTH:
			return diag_error(d, NULL, 0, "dns server %s: update "
			    "of %s refused: TSIG key '%s' not accepted (wrong "
			    "name, algorithm or secret in %s); nothing changed",
			    w, name, dns->key_name, dns->key_file);
		case LDNS_RCODE_NXRRSET:
		case LDNS_RCODE_YXRRSET:
			return diag_error(d, NULL, 0, "dns server %s: the "
			    "records of %s changed since deploy read them "
			    "(another deploy at work?); nothing changed", w,
			    name);
		case LDNS_RCODE_REFUSED:
			return diag_error(d, NULL, 0, "dns server %s: update "
			    "of %s refused: does zone %s allow updates with "
			    "TSIG key '%s'?", w, name, dns->zone,
			    dns->key_name);
		default:
			rs = ldns_pkt_rcode2str(rcode);
			diag_error(d, NULL, 0, "dns server %s: update of %s "
			    "answered %s", w, name, rs ? rs : "?");
			free(rs);
			return -1;
		}
	}
	if (st == LDNS_STATUS_CRYPTO_TSIG_BOGUS ||
	    st == LDNS_STATUS_CRYPTO_TSIG_ERR)
		return diag_error(d, NULL, 0, "dns server %s: update of %s: "
		    "TSIG: the answer is not signed with key '%s' (wrong "
		    "secret in %s?)", w, name, dns->key_name, dns->key_file);
	if (st != LDNS_STATUS_OK || p == NULL)
		return diag_error(d, NULL, 0, "dns server %s: update of %s: "
		    "%s", w, name, ldns_get_errorstr_by_id(st));
	return 0;
}

int
dns_replace(const struct spec_dns *dns, const char *name,
    const struct dns_addrs *had, const struct dns_addrs *want,
    struct diag *d)
{
	ldns_resolver *r = NULL;
	ldns_rdf *owner = NULL, *zone = NULL;
	ldns_rr_list *pre = NULL, *up = NULL;
	ldns_pkt *q = NULL, *p = NULL;
	ldns_status st;
	int v6, rc = -1;
	size_t i;

	if ((r = resolver(dns, 1, d)) == NULL)
		return -1;
	owner = ldns_dname_new_frm_str(name);
	zone = ldns_dname_new_frm_str(dns->zone);
	pre = ldns_rr_list_new();
	up = ldns_rr_list_new();
	if (owner == NULL || zone == NULL || pre == NULL || up == NULL) {
		diag_error(d, NULL, 0, "dns: cannot make the update of %s",
		    name);
		goto out;
	}
	for (v6 = 0; v6 < 2; v6++) {
		ldns_rr_type t = v6 ? LDNS_RR_TYPE_AAAA : LDNS_RR_TYPE_A;
		struct dns_addrs h, w;

		family(had, v6, &h);
		family(want, v6, &w);
		/* the RRset as read: exactly these, or none */
		if (h.n == 0)
			ldns_rr_list_push_rr(pre, bare_rr(owner, t,
			    LDNS_RR_CLASS_NONE));
		for (i = 0; i < h.n; i++)
			ldns_rr_list_push_rr(pre, addr_rr(owner, h.a[i], 0));
		if (dns_addrs_equal(&h, &w))
			continue;
		ldns_rr_list_push_rr(up, bare_rr(owner, t, LDNS_RR_CLASS_ANY));
		for (i = 0; i < w.n; i++)
			ldns_rr_list_push_rr(up, addr_rr(owner, w.a[i],
			    (uint32_t)dns->ttl));
	}
	for (i = 0; i < ldns_rr_list_rr_count(pre); i++)
		if (ldns_rr_list_rr(pre, i) == NULL)
			goto oom;
	for (i = 0; i < ldns_rr_list_rr_count(up); i++)
		if (ldns_rr_list_rr(up, i) == NULL)
			goto oom;
	if (ldns_rr_list_rr_count(up) == 0) {
		rc = 0;
		goto out;
	}
	if ((q = ldns_update_pkt_new(zone, LDNS_RR_CLASS_IN, pre, up,
	    NULL)) == NULL)
		goto oom;
	zone = NULL;	/* the packet's now */
	if ((st = ldns_update_pkt_tsig_add(q, r)) != LDNS_STATUS_OK) {
		diag_error(d, NULL, 0, "dns: cannot sign the update of %s "
		    "with key '%s' (%s): %s", name, dns->key_name,
		    dns->key_alg, ldns_get_errorstr_by_id(st));
		goto out;
	}
	st = ldns_resolver_send_pkt(&p, r, q);
	rc = update_result(dns, name, st, p, d);
	goto out;
oom:
	diag_error(d, NULL, 0, "dns: cannot make the update of %s", name);
out:
	ldns_pkt_free(p);
	ldns_pkt_free(q);
	ldns_rr_list_deep_free(pre);
	ldns_rr_list_deep_free(up);
	ldns_rdf_deep_free(owner);
	ldns_rdf_deep_free(zone);
	ldns_resolver_deep_free(r);
	return rc;
}
