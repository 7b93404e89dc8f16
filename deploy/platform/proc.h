#ifndef DEPLOY_PROC_H
#define DEPLOY_PROC_H

struct buf;
struct diag;

/* Runs argv (stdin /dev/null), stdout and stderr captured into out (may
 * be NULL). The exit status, or -1. */
int	proc_run(char *const argv[], struct buf *out);
/* Runs argv; on failure records the command and its output. 0 or -1. */
int	proc_must(struct diag *d, char *const argv[]);

#endif
