#ifndef SSG_CLI_H
#define SSG_CLI_H

#include <stdio.h>

struct diag;

/*
 * What every subcommand shares: where the site is, how loud to be, and how
 * to print (colour only on a terminal, never with NO_COLOR).
 */
struct cli {
	const char	*argv0;
	const char	*site_dir;	/* -C DIR */
	int		 quiet;
	int		 verbose;
	int		 color_out;	/* stdout is a colour terminal */
	int		 color_err;	/* stderr is a colour terminal */
	int		 tty_err;	/* stderr is a terminal (progress) */
};

void	cli_init(struct cli *c, const char *argv0);
/* Prints every diagnostic from index `from` to stderr. */
void	cli_print_diag(const struct cli *c, const struct diag *d, size_t from);
/* "ssg: message" on stderr, in red on a terminal. */
void	cli_error(const struct cli *c, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Number with thousands separators, e.g. 12,034 (static buffer ring). */
const char *cli_num(size_t n);

#endif
