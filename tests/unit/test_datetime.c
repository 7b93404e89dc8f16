#include <stdlib.h>

#include "buf.h"
#include "datetime.h"
#include "tap.h"

static time_t
parse(const char *s)
{
	time_t t = 0;

	OK(dt_parse(s, &t) == 0, "parses '%s'", s);
	return t;
}

static void
is_fmt(time_t t, const char *fmt, int tz, const char *want)
{
	struct buf b = BUF_INIT;

	dt_format(&b, t, fmt, tz);
	IS_STR(b.ptr, want, fmt);
	buf_release(&b);
}

int
main(void)
{
	struct buf b = BUF_INIT;
	time_t t;

	dt_set_timezone("UTC");
	IS_INT(parse("2025-04-07 10:30:00 +0200"), 1744014600, "BSSG form with offset");
	IS_INT(parse("2025-04-07T10:30:00+02:00"), 1744014600, "RFC 3339");
	IS_INT(parse("2025-04-07T08:30:00.250Z"), 1744014600, "RFC 3339 with fraction");
	IS_INT(parse("2025-04-07"), 1743984000, "date only is midnight");
	IS_INT(parse("2025-04-07 08:30"), 1744014600, "without seconds");
	OK(dt_parse("2025-02-30", &t) == -1, "no 30 February");
	OK(dt_parse("2024-02-29", &t) == 0, "leap day");
	OK(dt_parse("yesterday", &t) == -1, "words are not dates");
	OK(dt_parse("2025-04-07 25:00", &t) == -1, "hour 25");
	OK(dt_parse("2025-04-07 24:00", &t) == -1, "hour 24");
	OK(dt_parse("2000-02-29", &t) == 0, "29 February 2000 (divisible by 400)");
	OK(dt_parse("1900-02-29", &t) == -1, "no 29 February 1900");
	OK(dt_parse("2025-04-07 10:00 +2", &t) == -1, "short offset");
	OK(dt_parse("2025-04-07 trailing", &t) == -1, "trailing text");

	t = 1744014600;
	is_fmt(t, "%Y-%m-%d %H:%M:%S %z", 0, "2025-04-07 08:30:00");
	is_fmt(t, "%Y-%m-%d %H:%M:%S %z", 1, "2025-04-07 08:30:00 +0000");
	dt_rfc822(&b, t);
	IS_STR(b.ptr, "Mon, 07 Apr 2025 08:30:00 +0000", "RFC 822");
	buf_clear(&b);
	dt_rfc3339(&b, t);
	IS_STR(b.ptr, "2025-04-07T08:30:00Z", "RFC 3339 UTC");
	buf_clear(&b);

	if (dt_set_timezone("Europe/Rome") == 0) {
		IS_INT(parse("2025-04-07 10:30:00"), 1744014600,
		    "no offset: site time zone (CEST)");
		dt_rfc3339(&b, t);
		IS_STR(b.ptr, "2025-04-07T10:30:00+02:00", "RFC 3339 in zone");
		buf_clear(&b);
		is_fmt(t, "%H:%M %z", 1, "10:30 +0200");
	}
	/* West of UTC the offset is negative: feeds, sitemaps and <time>
	 * must say so, or every date of a site in the Americas is off. */
	if (dt_set_timezone("America/Los_Angeles") == 0) {
		IS_INT(parse("2025-04-07 01:30:00"), 1744014600,
		    "no offset: site time zone (PDT)");
		IS_INT(parse("2025-04-07 01:30:00 -0700"), 1744014600,
		    "BSSG form with a western offset");
		dt_rfc3339(&b, t);
		IS_STR(b.ptr, "2025-04-07T01:30:00-07:00", "RFC 3339 west of UTC");
		buf_clear(&b);
		dt_rfc822(&b, t);
		IS_STR(b.ptr, "Mon, 07 Apr 2025 01:30:00 -0700", "RFC 822 west of UTC");
		buf_clear(&b);
		is_fmt(t, "%Y-%m-%d %H:%M %z", 1, "2025-04-07 01:30 -0700");
		dt_rfc3339(&b, 1736500000);
		IS_STR(b.ptr, "2025-01-10T01:06:40-08:00", "RFC 3339 in winter (PST)");
		buf_clear(&b);
	}
	OK(dt_set_timezone("No/Such_Zone") == -1, "unknown zone reported");
	OK(dt_set_timezone("../../etc/passwd") == -1, "zone path escape refused");
	buf_release(&b);
	return tap_done();
}
