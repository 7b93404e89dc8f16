#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int passed, failed;

void
tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (cond) {
		passed++;
		return;
	}
	failed++;
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
tap_str(const char *got, const char *want, const char *file, int line,
    const char *name)
{
	int same = (got == NULL && want == NULL) ||
	    (got != NULL && want != NULL && strcmp(got, want) == 0);

	tap_ok(same, file, line, "%s\n  got:  [%s]\n  want: [%s]", name,
	    got ? got : "(null)", want ? want : "(null)");
}

void
tap_int(long long got, long long want, const char *file, int line,
    const char *name)
{
	tap_ok(got == want, file, line, "%s: got %lld, want %lld", name, got,
	    want);
}

int
tap_done(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
