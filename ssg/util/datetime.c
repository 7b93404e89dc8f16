#include "datetime.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsutil.h"

int
dt_set_timezone(const char *tz)
{
	char path[512];
	int n;

	if (tz == NULL || *tz == '\0' || strcmp(tz, "local") == 0) {
		tzset();
		return 0;
	}
	if (strcasecmp(tz, "GMT") == 0 || strcasecmp(tz, "UTC") == 0) {
		setenv("TZ", "UTC0", 1);
		tzset();
		return 0;
	}
	n = snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", tz);
	if (n < 0 || (size_t)n >= sizeof(path) || strstr(tz, "..") != NULL ||
	    !fs_is_file(path)) {
		setenv("TZ", "UTC0", 1);
		tzset();
		return -1;
	}
	setenv("TZ", tz, 1);
	tzset();
	return 0;
}

/* Reads exactly n digits into *v. */
static int
digits(const char **sp, int n, int *v)
{
	const char *s = *sp;
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	*sp = s + n;
	return 0;
}

static int
days_in_month(int y, int m)
{
	static const int dm[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dm[m - 1];
}

int
dt_parse(const char *s, time_t *out)
{
	struct tm tm;
	int y, mo, d, h = 0, mi = 0, sec = 0, has_off = 0, off = 0, oh, om;
	int sign;
	time_t t;

	while (isspace((unsigned char)*s))
		s++;
	if (digits(&s, 4, &y) || *s++ != '-' || digits(&s, 2, &mo) ||
	    *s++ != '-' || digits(&s, 2, &d))
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	if (*s == 'T' || *s == 't' || (*s == ' ' && isdigit((unsigned char)s[1]))) {
		s++;
		if (digits(&s, 2, &h) || *s++ != ':' || digits(&s, 2, &mi))
			return -1;
		if (*s == ':') {
			s++;
			if (digits(&s, 2, &sec))
				return -1;
			if (*s == '.' || *s == ',') {
				s++;
				if (!isdigit((unsigned char)*s))
					return -1;
				while (isdigit((unsigned char)*s))
					s++;
			}
		}
		if (h > 23 || mi > 59 || sec > 60)
			return -1;
	}
	while (*s == ' ')
		s++;
	if (*s == 'Z' || *s == 'z') {
		has_off = 1;
		s++;
	} else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if (digits(&s, 2, &oh))
			return -1;
		if (*s == ':')
			s++;
		if (digits(&s, 2, &om) || oh > 23 || om > 59)
			return -1;
		has_off = 1;
		off = sign * (oh * 3600 + om * 60);
	} else if (strncmp(s, "UTC", 3) == 0 || strncmp(s, "GMT", 3) == 0) {
		has_off = 1;
		s += 3;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '\0')
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	if (has_off) {
		t = timegm(&tm);
		if (t == (time_t)-1 && !(y == 1969))
			return -1;
		t -= off;
	} else {
		tm.tm_isdst = -1;
		t = mktime(&tm);
	}
	*out = t;
	return 0;
}

void
dt_format(struct buf *out, time_t t, const char *fmt, int show_tz)
{
	struct buf f = BUF_INIT;
	struct tm tm;
	char tmp[512];
	size_t n, i;

	for (i = 0; fmt[i] != '\0'; i++) {
		if (!show_tz && fmt[i] == '%' && (fmt[i + 1] == 'z' ||
		    fmt[i + 1] == 'Z')) {
			while (f.len > 0 && f.ptr[f.len - 1] == ' ')
				buf_truncate(&f, f.len - 1);
			i++;
			continue;
		}
		buf_addc(&f, fmt[i]);
		if (fmt[i] == '%' && fmt[i + 1] != '\0')
			buf_addc(&f, fmt[++i]);
	}
	localtime_r(&t, &tm);
	n = strftime(tmp, sizeof(tmp), f.ptr, &tm);
	buf_add(out, tmp, n);
	buf_release(&f);
}

void
dt_rfc822(struct buf *out, time_t t)
{
	static const char *const days[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
	    "Fri", "Sat" };
	static const char *const months[] = { "Jan", "Feb", "Mar", "Apr",
	    "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;
	long off;

	/* Locale-independent names: feeds must not follow LC_TIME. */
	localtime_r(&t, &tm);
	off = tm.tm_gmtoff / 60;
	buf_printf(out, "%s, %02d %s %04d %02d:%02d:%02d %c%02ld%02ld",
	    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
	    off < 0 ? '-' : '+', labs(off) / 60, labs(off) % 60);
}

void
dt_rfc3339(struct buf *out, time_t t)
{
	struct tm tm;
	long off;

	localtime_r(&t, &tm);
	off = tm.tm_gmtoff / 60;
	buf_printf(out, "%04d-%02d-%02dT%02d:%02d:%02d", tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (off == 0)
		buf_addc(out, 'Z');
	else
		buf_printf(out, "%c%02ld:%02ld", off < 0 ? '-' : '+',
		    labs(off) / 60, labs(off) % 60);
}

void
dt_ymd(time_t t, int *year, int *month, int *day)
{
	struct tm tm;

	localtime_r(&t, &tm);
	*year = tm.tm_year + 1900;
	*month = tm.tm_mon + 1;
	*day = tm.tm_mday;
}
