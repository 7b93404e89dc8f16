#ifndef SSG_LAZY_VIPS_H
#define SSG_LAZY_VIPS_H

/*
 * libvips, opened on first use (see dynlib.h): a site without images, and
 * every build that finds its images cached, loads none of its forty
 * libraries. Include this instead of vips.h, after every system header;
 * call lazy_vips_load() before the first function of the library.
 */
#include <vips/vips.h>
#include <vips/vector.h>

#include "diag.h"

#define LAZY_VIPS_FUNCS(X) \
	X(g_object_unref) \
	X(vips_cache_set_max) \
	X(vips_concurrency_set) \
	X(vips_error_buffer) \
	X(vips_error_clear) \
	X(vips_image_get_height) \
	X(vips_image_get_n_pages) \
	X(vips_image_get_string) \
	X(vips_image_get_typeof) \
	X(vips_image_copy_memory) \
	X(vips_image_get_width) \
	X(vips_image_get_orientation_swap) \
	X(vips_image_new_from_buffer) \
	X(vips_image_write_to_file) \
	X(vips_init) \
	X(vips_shutdown) \
	X(vips_thumbnail_buffer) \
	X(vips_vector_set_enabled) \
	X(vips_version_string)

struct lazy_vips {
#define LAZY_VIPS_SLOT(f)	__typeof__(f) *f;
	LAZY_VIPS_FUNCS(LAZY_VIPS_SLOT)
#undef LAZY_VIPS_SLOT
};
extern struct lazy_vips lazy_vips;

/* 0, or -1 with the reason in d (defined in dynlib.c). */
int	lazy_vips_load(struct diag *d);

#ifndef LAZY_VIPS_IMPL
#define g_object_unref	(lazy_vips.g_object_unref)
#define vips_cache_set_max	(lazy_vips.vips_cache_set_max)
#define vips_concurrency_set	(lazy_vips.vips_concurrency_set)
#define vips_error_buffer	(lazy_vips.vips_error_buffer)
#define vips_error_clear	(lazy_vips.vips_error_clear)
#define vips_image_get_height	(lazy_vips.vips_image_get_height)
#define vips_image_get_n_pages	(lazy_vips.vips_image_get_n_pages)
#define vips_image_get_string	(lazy_vips.vips_image_get_string)
#define vips_image_get_typeof	(lazy_vips.vips_image_get_typeof)
#define vips_image_copy_memory	(lazy_vips.vips_image_copy_memory)
#define vips_image_get_width	(lazy_vips.vips_image_get_width)
#define vips_image_get_orientation_swap	(lazy_vips.vips_image_get_orientation_swap)
#define vips_image_new_from_buffer	(lazy_vips.vips_image_new_from_buffer)
#define vips_image_write_to_file	(lazy_vips.vips_image_write_to_file)
#define vips_init	(lazy_vips.vips_init)
#define vips_shutdown	(lazy_vips.vips_shutdown)
#define vips_thumbnail_buffer	(lazy_vips.vips_thumbnail_buffer)
#define vips_vector_set_enabled	(lazy_vips.vips_vector_set_enabled)
#define vips_version_string	(lazy_vips.vips_version_string)
#endif

#endif
