#ifndef SSG_MIME_H
#define SSG_MIME_H

/* The media type of path by its extension, as the dev server sends it and
 * feeds name an enclosure's ("text/html; charset=utf-8"), or
 * application/octet-stream. Never NULL; a static string. */
const char	*mime_type(const char *path);

#endif
