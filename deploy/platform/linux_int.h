#ifndef DEPLOY_LINUX_INT_H
#define DEPLOY_LINUX_INT_H

/*
 * The linux-netns driver's own parts (driver_linux.c, linux_util.c,
 * linux_net.c, linux_jail.c); nothing else includes this.
 */

#include <sys/types.h>

#include "buf.h"
#include "diag.h"
#include "driver.h"
#include "proc.h"
#include "spec.h"

#define NETNS_DIR	"/run/netns"
#define JAIL_TABLE	"deploy_jail"

struct ldrv {
	struct driver	 pub;
};

#define MUST(d, ...) proc_must((d), (char *const[]){ __VA_ARGS__, NULL })
#define QUIET(...) proc_run((char *const[]){ __VA_ARGS__, NULL }, NULL)

/* linux_util.c */
int	lx_is_proxy(const char *jail);
/* The Gemini jail ("gemini"); a site's jail is neither. */
int	lx_is_gemini(const char *jail);
int	lx_is_site(const char *jail);
/* The prefix of the host's namespaces and table (spec.h's prefix). */
const char *lx_prefix(const struct spec *s);
/*
 * A jail left under the name it had before its host, one of a fleet of
 * several, had a prefix of its own (NAME-JAIL, now NAME-LABEL-JAIL):
 * observe reports it as "old:JAIL", which apply removes.
 */
#define LX_OLD	"old:"
int	lx_is_old(const char *jail);
/* The namespace of a jail: PREFIX-JAIL (NAME-JAIL for an old one). */
void	lx_ns_name(struct buf *b, const struct spec *s, const char *jail);
uint32_t	lx_jail_addr(const struct spec *s, const char *jail);
void	lx_veth_name(struct buf *b, const struct spec *s, uint32_t addr);
void	lx_mac_of(char out[18], uint32_t a);
void	lx_jail_dir(struct buf *b, const struct spec *s, const char *jail);
void	lx_table_name(struct buf *b, const struct spec *s);
int	lx_exists(const char *path);
int	lx_read_text(const char *path, struct buf *out);
int	lx_write_text(const char *path, const char *text, mode_t mode,
    struct diag *d);
int	lx_mkdirs(const char *path, mode_t mode, struct diag *d);
int	lx_jail_dirs(const struct spec *s, const char *jail, struct diag *d);

/* linux_net.c */
void	lx_jail_descriptor(struct buf *b, const struct spec *s,
    const char *jail);
void	lx_firewall_descriptor(struct buf *b, const struct spec *s);
int	lx_network_create(const struct spec *s, struct diag *d);
int	lx_jail_destroy(const struct spec *s, const char *jail,
    struct diag *d);
int	lx_jail_create(const struct spec *s, const char *jail, struct diag *d);
int	lx_firewall_load(const struct spec *s, struct diag *d);
int	lx_firewall_remove(const struct spec *s, struct diag *d);
int	lx_data_remove(const struct spec *s, const char *jail, struct diag *d);

/* linux_jail.c */
ino_t	lx_netns_inode(const char *path);
pid_t	lx_pid_in_jail(const struct spec *s, const char *jail,
    const char *pidfile);
pid_t	lx_server_pid(const struct spec *s, const char *jail);
int	lx_enter_netns(const struct spec *s, const char *jail);
int	lx_site_root(const struct spec *s, const char *jail,
    const char *newroot);
int	lx_gemini_cert(const struct spec *s, struct diag *d);
char **lx_caddy_env(const struct spec *s);
int	lx_conf_path(struct buf *b, const struct spec *s, const char *jail);
int	lx_start(struct ldrv *ld, const char *jail, struct diag *d);
int	lx_stop(struct ldrv *ld, const char *jail, struct diag *d);
int	lx_reload(struct ldrv *ld, const char *jail, struct diag *d);
/* The driver's force_renewal for the Caddy proxy (driver.h). */
int	lx_caddy_renewal(const struct spec *s, const char *const *names,
	    size_t n, struct diag *d);

#endif
