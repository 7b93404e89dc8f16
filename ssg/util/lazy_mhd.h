#ifndef SSG_LAZY_MHD_H
#define SSG_LAZY_MHD_H

/*
 * libmicrohttpd, opened on first use (see dynlib.h). Include this
 * instead of the library's header, after every system header; call
 * lazy_mhd_load() before the first function of the library.
 */
#include <microhttpd.h>

#include "diag.h"

#define LAZY_MHD_FUNCS(X) \
	X(MHD_add_response_header) \
	X(MHD_create_response_from_buffer) \
	X(MHD_create_response_from_callback) \
	X(MHD_create_response_from_fd) \
	X(MHD_destroy_response) \
	X(MHD_queue_response) \
	X(MHD_start_daemon) \
	X(MHD_stop_daemon)

struct lazy_mhd {
#define LAZY_MHD_SLOT(f)	__typeof__(f) *f;
	LAZY_MHD_FUNCS(LAZY_MHD_SLOT)
#undef LAZY_MHD_SLOT
};
extern struct lazy_mhd lazy_mhd;

/* 0, or -1 with the reason in d (defined in dynlib.c). */
int	lazy_mhd_load(struct diag *d);

#ifndef LAZY_MHD_IMPL
#define MHD_add_response_header	(lazy_mhd.MHD_add_response_header)
#define MHD_create_response_from_buffer	(lazy_mhd.MHD_create_response_from_buffer)
#define MHD_create_response_from_callback	(lazy_mhd.MHD_create_response_from_callback)
#define MHD_create_response_from_fd	(lazy_mhd.MHD_create_response_from_fd)
#define MHD_destroy_response	(lazy_mhd.MHD_destroy_response)
#define MHD_queue_response	(lazy_mhd.MHD_queue_response)
#define MHD_start_daemon	(lazy_mhd.MHD_start_daemon)
#define MHD_stop_daemon	(lazy_mhd.MHD_stop_daemon)
#endif

#endif
