#ifndef SSG_LAZY_ARCHIVE_H
#define SSG_LAZY_ARCHIVE_H

/*
 * libarchive, opened on first use (see dynlib.h). Include this
 * instead of the library's header, after every system header; call
 * lazy_archive_load() before the first function of the library.
 */
#include <archive.h>
#include <archive_entry.h>

#include "diag.h"

#define LAZY_ARCHIVE_FUNCS(X) \
	X(archive_entry_filetype) \
	X(archive_entry_free) \
	X(archive_entry_hardlink) \
	X(archive_entry_mtime) \
	X(archive_entry_new) \
	X(archive_entry_pathname) \
	X(archive_entry_perm) \
	X(archive_entry_set_filetype) \
	X(archive_entry_set_mtime) \
	X(archive_entry_set_pathname) \
	X(archive_entry_set_perm) \
	X(archive_entry_set_size) \
	X(archive_entry_size) \
	X(archive_error_string) \
	X(archive_read_data) \
	X(archive_read_data_block) \
	X(archive_read_free) \
	X(archive_read_new) \
	X(archive_read_next_header) \
	X(archive_read_open_filename) \
	X(archive_read_support_filter_gzip) \
	X(archive_read_support_format_tar) \
	X(archive_write_add_filter_gzip) \
	X(archive_write_close) \
	X(archive_write_data) \
	X(archive_write_free) \
	X(archive_write_header) \
	X(archive_write_new) \
	X(archive_write_open_filename) \
	X(archive_write_set_format_pax_restricted)

struct lazy_archive {
#define LAZY_ARCHIVE_SLOT(f)	__typeof__(f) *f;
	LAZY_ARCHIVE_FUNCS(LAZY_ARCHIVE_SLOT)
#undef LAZY_ARCHIVE_SLOT
};
extern struct lazy_archive lazy_archive;

/* 0, or -1 with the reason in d (defined in dynlib.c). */
int	lazy_archive_load(struct diag *d);

#ifndef LAZY_ARCHIVE_IMPL
#define archive_entry_filetype	(lazy_archive.archive_entry_filetype)
#define archive_entry_free	(lazy_archive.archive_entry_free)
#define archive_entry_hardlink	(lazy_archive.archive_entry_hardlink)
#define archive_entry_mtime	(lazy_archive.archive_entry_mtime)
#define archive_entry_new	(lazy_archive.archive_entry_new)
#define archive_entry_pathname	(lazy_archive.archive_entry_pathname)
#define archive_entry_perm	(lazy_archive.archive_entry_perm)
#define archive_entry_set_filetype	(lazy_archive.archive_entry_set_filetype)
#define archive_entry_set_mtime	(lazy_archive.archive_entry_set_mtime)
#define archive_entry_set_pathname	(lazy_archive.archive_entry_set_pathname)
#define archive_entry_set_perm	(lazy_archive.archive_entry_set_perm)
#define archive_entry_set_size	(lazy_archive.archive_entry_set_size)
#define archive_entry_size	(lazy_archive.archive_entry_size)
#define archive_error_string	(lazy_archive.archive_error_string)
#define archive_read_data	(lazy_archive.archive_read_data)
#define archive_read_data_block	(lazy_archive.archive_read_data_block)
#define archive_read_free	(lazy_archive.archive_read_free)
#define archive_read_new	(lazy_archive.archive_read_new)
#define archive_read_next_header	(lazy_archive.archive_read_next_header)
#define archive_read_open_filename	(lazy_archive.archive_read_open_filename)
#define archive_read_support_filter_gzip	(lazy_archive.archive_read_support_filter_gzip)
#define archive_read_support_format_tar	(lazy_archive.archive_read_support_format_tar)
#define archive_write_add_filter_gzip	(lazy_archive.archive_write_add_filter_gzip)
#define archive_write_close	(lazy_archive.archive_write_close)
#define archive_write_data	(lazy_archive.archive_write_data)
#define archive_write_free	(lazy_archive.archive_write_free)
#define archive_write_header	(lazy_archive.archive_write_header)
#define archive_write_new	(lazy_archive.archive_write_new)
#define archive_write_open_filename	(lazy_archive.archive_write_open_filename)
#define archive_write_set_format_pax_restricted	(lazy_archive.archive_write_set_format_pax_restricted)
#endif

#endif
