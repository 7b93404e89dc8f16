#ifndef SSG_DATETIME_H
#define SSG_DATETIME_H

#include <time.h>

#include "buf.h"

/*
 * Dates as BSSG writes them and as people type them:
 *   2025-04-07                     (midnight, site time zone)
 *   2025-04-07 10:30[:00]          (site time zone)
 *   2025-04-07 10:30:00 +0200      (explicit offset, also +02:00 or Z)
 *   2025-04-07T10:30:00+02:00      (RFC 3339, fraction allowed)
 * Display uses the site time zone, set once per run with dt_set_timezone
 * before any worker thread starts (localtime_r is safe after that).
 */

/* "local", "GMT"/"UTC", or a zone name. Returns 0, -1 if the name is unknown
 * (then UTC is used). */
int	dt_set_timezone(const char *tz);
/* Parses s into *out. Returns 0 or -1 (not a date of the forms above). */
int	dt_parse(const char *s, time_t *out);
/* Appends t formatted with strftime fmt in the site time zone; without
 * show_tz, %z and %Z (and the space before them) are left out. */
void	dt_format(struct buf *out, time_t t, const char *fmt, int show_tz);
/* RFC 822 (RSS), e.g. "Mon, 07 Apr 2025 10:30:00 +0200". */
void	dt_rfc822(struct buf *out, time_t t);
/* RFC 3339 (Atom, sitemap, JSON-LD), e.g. "2025-04-07T10:30:00+02:00". */
void	dt_rfc3339(struct buf *out, time_t t);
/* Year, month (1-12) and day in the site time zone. */
void	dt_ymd(time_t t, int *year, int *month, int *day);

#endif
