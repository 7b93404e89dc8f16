#ifndef SSG_MEDIA_H
#define SSG_MEDIA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct buf;
struct diag;
struct manifest;
struct sink;
struct site_config;

/*
 * The site's images: every raster image of static/ (JPEG, PNG, WebP,
 * AVIF, GIF), published as resized copies in modern formats and, at its
 * own URL, without its metadata (EXIF, XMP, IPTC: a phone photo's GPS
 * position), orientation applied, colours in sRGB. libvips does the work,
 * opened only when something must be encoded.
 *
 * Two caches under .ssg-cache/: what each file is (size, dimensions,
 * format, metadata), by its stat, so that a build that changes nothing
 * reads no image; and every encoded copy, by the image's content hash,
 * width, format, quality and the libvips version, so that a rebuild, a
 * renamed image or a changed setting encodes only what is new.
 */

enum media_fmt { MF_NONE, MF_JPEG, MF_PNG, MF_WEBP, MF_AVIF, MF_GIF, MF_NFMT };

#define MEDIA_MAX_WIDTHS	8

#define MEDIA_GPS	0x1	/* EXIF holds a position */
#define MEDIA_META	0x2	/* EXIF, XMP or IPTC present */
#define MEDIA_ANIMATED	0x4	/* more than one frame: left as it is */

struct media_img {
	char		*rel;		/* in static/ and in the output */
	uint64_t	 hash;		/* of the file's bytes */
	int		 w, h;		/* as shown: orientation applied */
	enum media_fmt	 fmt;		/* what the bytes are */
	unsigned int	 flags;
	char		*err;		/* why it cannot be published, or NULL */
	/* the copies a reader gets: widths ascending, none wider than w */
	int		 widths[MEDIA_MAX_WIDTHS];
	int		 nwidths;
	enum media_fmt	 fallback;	/* format of the <img> itself */
};

struct media;

/*
 * The settings (images, image_widths, image_formats, image_quality...)
 * checked: errors name site.yaml. cache_dir: .ssg-cache of the site.
 * NULL only when a setting is wrong.
 */
struct media	*media_new(const struct site_config *c, const char *cache_dir,
		    struct diag *d);
void		 media_free(struct media *m);
/* 1 if the file at rel is an image media publishes (by its name). */
int		 media_wants(const char *rel);
/* Adds a file of static/ media_wants. */
void		 media_add(struct media *m, const char *path, const char *rel,
		    const struct stat *st);
/* Reads what each image added is, from the cache or the file (in
 * parallel); saves the cache. Problems are in each image's err. */
void		 media_probe(struct media *m, size_t threads);
/* A hash of what pages show of the images (names, sizes, contents). */
uint64_t	 media_hash(const struct media *m);
const struct media_img *media_find(const struct media *m, const char *rel);
/* Whether images are processed (images: true), and the formats of the
 * <source> elements, best first. */
int		 media_on(const struct media *m);
const enum media_fmt *media_formats(const struct media *m, size_t *n);
const char	*media_sizes(const struct media *m);
const char	*media_mime(enum media_fmt f);
/* The size in bytes of im's copy in format f at width w, as encoded (the
 * published file is these bytes); -1 when it is not there. */
long long	 media_copy_bytes(const struct media *m,
		    const struct media_img *im, enum media_fmt f, int w);
/* Appends the path (from the site's root, no leading slash) of im's
 * copy of width w in format f. */
void		 media_url(struct buf *out, const struct media_img *im,
		    enum media_fmt f, int w);

/* Progress while encoding: done of total images. */
typedef void	(*media_progress_fn)(size_t done, size_t total, void *arg);

/*
 * Encodes the copies the cache lacks (every core; all of them when
 * force), once a build: before the pages, so that an image that cannot be
 * converted is reported at the post that shows it. Returns how many
 * images were encoded.
 */
size_t		 media_encode(struct media *m, size_t threads, int force,
		    media_progress_fn progress, void *parg, struct diag *d);
/*
 * Encodes what media_encode has not, then hands each image's copies and
 * its original, stripped, to the output folder's sink (sink.h). Adds encoded images to *encoded.
 * Images with an error are reported once, here, and not published.
 */
void		 media_publish(struct media *m, struct sink *out,
		    size_t threads, int force,
		    media_progress_fn progress, void *parg, size_t *encoded,
		    size_t *written, struct diag *d);

/* Removes the EXIF and XMP chunks of a WebP file's bytes; 0, or -1 when
 * they are not a well-formed RIFF WebP (then w is unchanged or partly
 * rewritten and must not be published). */
int		 media_webp_strip(struct buf *w);
/* A JPEG's metadata stripped without decoding it, where nothing else need
 * change (media_encode.c); 0, or -1 to decode and encode it instead. */
int		 media_jpeg_strip(const struct buf *in, struct buf *out);

#endif
