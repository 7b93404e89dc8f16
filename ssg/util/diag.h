#ifndef SSG_DIAG_H
#define SSG_DIAG_H

#include <stdio.h>

/*
 * Diagnostics: every problem found during a run, with the file, line and
 * reason, printed together at the end as "file:line: level: message".
 * Work goes on after an error; the exit status follows the worst level.
 * Thread-safe: pool workers report into the same list.
 */
enum diag_level {
	DIAG_NOTE,
	DIAG_WARNING,
	DIAG_ERROR
};

struct diag;

struct diag *diag_new(void);
/* diag_free(NULL) does nothing. */
void	diag_free(struct diag *d);
/* Records a message. file may be NULL (no location), line 0 means none;
 * with d NULL the message is dropped. */
void	diag_add(struct diag *d, enum diag_level level, const char *file,
	    int line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void	diag_vadd(struct diag *d, enum diag_level level, const char *file,
	    int line, const char *fmt, va_list ap);
/* Shorthand for the common case. diag_error returns -1, so that a
 * function fails with `return diag_error(d, file, line, ...);`. */
int	diag_error(struct diag *d, const char *file, int line,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void	diag_warn(struct diag *d, const char *file, int line,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
size_t	diag_count(const struct diag *d, enum diag_level level);
/* The number of messages recorded so far (of any level). */
size_t	diag_total(const struct diag *d);
/* The i-th message as "file:line: level: message" (no newline); NULL past the end. */
const char *diag_message(const struct diag *d, size_t i);
/* Prints the messages from index `from` on, in the order they were added,
 * each on its own line; colour marks the level when color is set. */
void	diag_print(const struct diag *d, size_t from, FILE *fp, int color);

#endif
