/* The media type of a file, by its extension (mime.h). */

#include "mime.h"

#include <stddef.h>
#include <strings.h>

#include "fsutil.h"

static const struct {
	const char *ext, *type;
} mime_types[] = {
	{ "html", "text/html; charset=utf-8" },
	{ "htm", "text/html; charset=utf-8" },
	{ "css", "text/css; charset=utf-8" },
	{ "js", "text/javascript; charset=utf-8" },
	{ "json", "application/json" },
	{ "xml", "application/xml; charset=utf-8" },
	{ "txt", "text/plain; charset=utf-8" },
	{ "md", "text/plain; charset=utf-8" },
	{ "svg", "image/svg+xml" },
	{ "png", "image/png" },
	{ "jpg", "image/jpeg" },
	{ "jpeg", "image/jpeg" },
	{ "gif", "image/gif" },
	{ "webp", "image/webp" },
	{ "avif", "image/avif" },
	{ "ico", "image/x-icon" },
	{ "woff2", "font/woff2" },
	{ "woff", "font/woff" },
	{ "pdf", "application/pdf" },
	{ "mp4", "video/mp4" },
	{ "webm", "video/webm" },
	{ "mp3", "audio/mpeg" },
	{ "gz", "application/gzip" },
};

const char *
mime_type(const char *path)
{
	const char *ext = path_ext(path);
	size_t i;

	for (i = 0; i < sizeof(mime_types) / sizeof(mime_types[0]); i++)
		if (strcasecmp(ext, mime_types[i].ext) == 0)
			return mime_types[i].type;
	return "application/octet-stream";
}

