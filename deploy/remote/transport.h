#ifndef DEPLOY_TRANSPORT_H
#define DEPLOY_TRANSPORT_H

#include <stddef.h>

#include "buf.h"

struct diag;

/*
 * A transport is a two-way byte stream to `deploy agent` running on the
 * host: for host "local" the agent is started here (fork + execv with an
 * argument array); for ssh://user@host[:port] it is started through the
 * OpenSSH client in batch mode with strict host key checking, so an unknown
 * or changed host key fails the connection. release.c speaks the agent's
 * line protocol over it; other modules only open and close it.
 */
struct transport;

struct transport_opts {
	const char	*host;		/* "local" or "ssh://user@host[:port]" */
	const char	*known_hosts;	/* ssh: UserKnownHostsFile; NULL: ssh's default */
	const char	*identity;	/* ssh: private key (-i); NULL: ssh's default */
	const char	*agent;		/* the deploy program on the host; NULL: "deploy" in PATH */
	const char	*root;		/* releases root on the host (agent --root) */
	const char	*site;		/* site name (agent --site) */
};

/*
 * Starts the agent and waits for its greeting. Returns a handle the caller
 * frees with transport_close(), or NULL with the reason recorded in d (for
 * ssh, a refused host key or login is named as such).
 */
struct transport *transport_open(const struct transport_opts *o, struct diag *d);

/* Writes n bytes to the agent. 0, or -1 with a diagnostic. */
int	transport_write(struct transport *t, const void *p, size_t n, struct diag *d);
int	transport_printf(struct transport *t, struct diag *d, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Sends what was written so far. 0, or -1 with a diagnostic. */
int	transport_flush(struct transport *t, struct diag *d);
/*
 * Reads one line from the agent into line (cleared first, newline
 * stripped). 0, or -1 with a diagnostic on end of stream or error.
 */
int	transport_readline(struct transport *t, struct buf *line, struct diag *d);
/* Bytes sent to and received from the agent since transport_open. */
void	transport_bytes(const struct transport *t, unsigned long long *sent,
	    unsigned long long *received);
/* "local" or the ssh URL: for messages. Owned by t. */
const char *transport_name(const struct transport *t);

/*
 * Ends the session, waits for the agent and frees t. Returns 0 when the
 * agent exited cleanly, -1 (with a diagnostic, when d is not NULL)
 * otherwise. transport_close(NULL, d) returns 0.
 */
int	transport_close(struct transport *t, struct diag *d);

/*
 * Runs one command, words (words[0] the program, NULL-terminated), on the
 * host of o ("local": here, as a child; ssh: through the same OpenSSH
 * client and checks as the agent), input on its standard input, its
 * standard output and error appended to out together. Returns its exit
 * status (255 from ssh: the host could not be reached), or -1 with the
 * reason in d when it could not be run or was killed.
 */
int	transport_run(const struct transport_opts *o, const char *const *words,
	    const char *input, size_t inlen, struct buf *out, struct diag *d);

/*
 * The one place an ssh command line is made: the OpenSSH client's argv
 * that runs line (one line for the remote shell, quoted already) on the
 * host of url (ssh://user@host[:port], an IPv6 address in brackets), its
 * key checked against known_hosts (NULL: ssh's own files), logged in
 * with identity (NULL: ssh's own keys), never a question asked, a silent
 * connection ended. malloc'd and NULL-terminated, for
 * transport_argv_free; NULL with the reason in d (d may be NULL).
 */
char	**transport_ssh_argv(const char *url, const char *known_hosts,
	    const char *identity, const char *line, struct diag *d);
void	transport_argv_free(char **av);

#endif
