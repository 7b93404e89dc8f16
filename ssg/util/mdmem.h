#ifndef SSG_MDMEM_H
#define SSG_MDMEM_H

#include <cmark-gfm.h>

/*
 * An allocator for cmark that hands out memory from blocks of the calling
 * thread and frees nothing until mdmem_reset, which frees everything the
 * thread got from it: for one parse and render at a time per thread.
 */
cmark_mem	*mdmem(void);
void		 mdmem_reset(void);

#endif
