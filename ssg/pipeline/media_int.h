#ifndef SSG_MEDIA_INT_H
#define SSG_MEDIA_INT_H

/* What media.c (settings, probing) and media_encode.c share. */
#include <sys/stat.h>
#include <time.h>

#include "media.h"

struct diag;

struct entry {
	struct media_img img;
	char		*path;
	off_t		 size;
	struct timespec	 mtime;
	int		 cached;	/* what it is came from the cache */
	int		 encode;	/* a copy is missing from the cache */
	int		 failed;	/* encoding failed (err says why) */
};

struct media {
	int		 on, keep_originals;
	long long	 max_pixels;
	int		 widths[MEDIA_MAX_WIDTHS];
	int		 nwidths;
	enum media_fmt	 formats[MF_NFMT];
	size_t		 nformats;
	int		 q[MF_NFMT];
	char		*sizes;
	char		*dir;		/* .ssg-cache/images */
	char		*list;		/* .ssg-cache/images.txt */
	struct entry	*e;
	size_t		 n, cap;
	/* encoding */
	int		 encoded;	/* media_encode ran */
	media_progress_fn progress;
	void		*parg;
	size_t		 done, total;
};

extern const char *const media_fmt_name[MF_NFMT];
extern const char *const media_fmt_ext[MF_NFMT];

/* libvips, loaded and started once; 0 or -1 (recorded in d, may be NULL). */
int	 media_vips_ready(struct diag *d);
/* libvips's last error, one line (malloc'd), and the error cleared. */
char	*media_vips_why(void);
/* Sets e's error to fmt with one %s. */
void	 media_set_err(struct entry *e, const char *fmt, const char *arg);

#endif
