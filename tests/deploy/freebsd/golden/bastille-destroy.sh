#!/bin/sh
# deploy: 13 actions for www (platform freebsd-bastille, host ssh://root@203.0.113.10),
# FreeBSD 14.3-RELEASE, external interface vtnet0. Runs as root on the host.
set -eu

# 1/13 remove-firewall www
pfctl -d || true
sysrc pf_enable=NO
mv /etc/pf.conf /etc/pf.conf.removed-by-deploy

# 2/13 stop-server proxy caddy
bastille service www-proxy caddy stop || true

# 3/13 destroy-jail proxy
bastille umount www-proxy /var/deploy/sites || true
bastille destroy -a -y www-proxy
rm -f /var/db/deploy/www/caddy-renew.sh

# 4/13 stop-server blog nginx
bastille service www-blog nginx stop || true

# 5/13 destroy-jail blog
bastille umount www-blog /usr/local/www/site || true
bastille umount www-blog /var/deploy/sock || true
bastille destroy -a -y www-blog

# 6/13 stop-server docs nginx
bastille service www-docs nginx stop || true

# 7/13 destroy-jail docs
bastille umount www-docs /usr/local/www/site || true
bastille umount www-docs /var/deploy/sock || true
bastille destroy -a -y www-docs

# 8/13 stop-server shop nginx
bastille service www-shop nginx stop || true

# 9/13 destroy-jail shop
bastille umount www-shop /usr/local/www/site || true
bastille umount www-shop /var/deploy/sock || true
bastille destroy -a -y www-shop

# 10/13 remove-data blog
rm -rf /usr/local/deploy/sites/blog /var/db/deploy/www/jails/blog /var/db/deploy/www/socks/blog

# 11/13 remove-data docs
rm -rf /usr/local/deploy/sites/docs /var/db/deploy/www/jails/docs /var/db/deploy/www/socks/docs

# 12/13 remove-data shop
rm -rf /usr/local/deploy/sites/shop /var/db/deploy/www/jails/shop /var/db/deploy/www/socks/shop

# 13/13 destroy-network bastille0
ifconfig bastille0 destroy || true
sysrc cloned_interfaces-=lo1
sysrc -x ifconfig_lo1_name ifconfig_bastille0 || true
