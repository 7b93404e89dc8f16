#ifndef TESTS_TAP_H
#define TESTS_TAP_H

/*
 * A minimal test harness: each check prints a line only when it fails;
 * tap_done prints "N passed, N failed" and returns the exit status.
 */
void	tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
void	tap_str(const char *got, const char *want, const char *file, int line,
	    const char *name);
void	tap_int(long long got, long long want, const char *file, int line,
	    const char *name);
int	tap_done(void);

#define OK(cond, ...)		tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define IS_STR(got, want, name)	tap_str((got), (want), __FILE__, __LINE__, (name))
#define IS_INT(got, want, name)	tap_int((long long)(got), (long long)(want), __FILE__, __LINE__, (name))

#endif
