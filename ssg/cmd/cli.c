#include "cli.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

void
cli_init(struct cli *c, const char *argv0)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	int color_ok = (nc == NULL || *nc == '\0') &&
	    !(term != NULL && strcmp(term, "dumb") == 0);

	memset(c, 0, sizeof(*c));
	c->argv0 = argv0;
	c->site_dir = ".";
	c->tty_err = isatty(STDERR_FILENO);
	c->color_out = color_ok && isatty(STDOUT_FILENO);
	c->color_err = color_ok && c->tty_err;
}

void
cli_print_diag(const struct cli *c, const struct diag *d, size_t from)
{
	diag_print(d, from, stderr, c->color_err);
}

void
cli_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	fputs(c->color_err ? "\033[1mssg:\033[0m \033[31merror:\033[0m " :
	    "ssg: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *
cli_num(size_t n)
{
	static char ring[4][32];
	static int next;
	char tmp[32], *out = ring[next++ & 3];
	int len, i, j = 0;

	len = snprintf(tmp, sizeof(tmp), "%zu", n);
	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			out[j++] = ',';
		out[j++] = tmp[i];
	}
	out[j] = '\0';
	return out;
}
