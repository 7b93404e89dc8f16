#include "diag.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "mem.h"

struct diag_msg {
	enum diag_level	 level;
	char		*text;	/* full line, without colour */
	size_t		 prefix;	/* length of "file:line: " */
};

struct diag {
	pthread_mutex_t	 lock;
	struct diag_msg	*msgs;
	size_t		 len, cap;
	size_t		 counts[3];
};

static const char *const level_names[] = { "note", "warning", "error" };
static const char *const level_colors[] = { "\033[36m", "\033[33m", "\033[31m" };

struct diag *
diag_new(void)
{
	struct diag *d = xcalloc(1, sizeof(*d));

	pthread_mutex_init(&d->lock, NULL);
	return d;
}

void
diag_free(struct diag *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->len; i++)
		free(d->msgs[i].text);
	free(d->msgs);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

void
diag_vadd(struct diag *d, enum diag_level level, const char *file, int line,
    const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT;
	size_t prefix;

	if (d == NULL)
		return;	/* the caller does not want messages */
	if (file != NULL && line > 0)
		buf_printf(&b, "%s:%d: ", file, line);
	else if (file != NULL)
		buf_printf(&b, "%s: ", file);
	prefix = b.len;
	buf_printf(&b, "%s: ", level_names[level]);
	buf_vprintf(&b, fmt, ap);
	pthread_mutex_lock(&d->lock);
	xgrow((void **)&d->msgs, &d->cap, d->len + 1, sizeof(*d->msgs));
	d->msgs[d->len].level = level;
	d->msgs[d->len].prefix = prefix;
	d->msgs[d->len].text = buf_detach(&b, NULL);
	d->len++;
	d->counts[level]++;
	pthread_mutex_unlock(&d->lock);
}

void
diag_add(struct diag *d, enum diag_level level, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, level, file, line, fmt, ap);
	va_end(ap);
}

int
diag_error(struct diag *d, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, file, line, fmt, ap);
	va_end(ap);
	return -1;
}

void
diag_warn(struct diag *d, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_WARNING, file, line, fmt, ap);
	va_end(ap);
}

size_t
diag_count(const struct diag *d, enum diag_level level)
{
	return d->counts[level];
}

size_t
diag_total(const struct diag *d)
{
	return d->len;
}

const char *
diag_message(const struct diag *d, size_t i)
{
	return i < d->len ? d->msgs[i].text : NULL;
}

void
diag_print(const struct diag *d, size_t from, FILE *fp, int color)
{
	const struct diag_msg *m;
	size_t i, nl;

	for (i = from; i < d->len; i++) {
		m = &d->msgs[i];
		if (!color) {
			fprintf(fp, "%s\n", m->text);
			continue;
		}
		nl = strlen(level_names[m->level]);
		fprintf(fp, "\033[1m%.*s\033[0m%s%s\033[0m%s\n", (int)m->prefix,
		    m->text, level_colors[m->level], level_names[m->level],
		    m->text + m->prefix + nl);
	}
}
