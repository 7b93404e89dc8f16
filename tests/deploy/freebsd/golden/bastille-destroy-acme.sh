#!/bin/sh
# deploy: 12 actions for www (platform freebsd-bastille, host ssh://root@203.0.113.10),
# FreeBSD 14.3-RELEASE, external interface vtnet0. Runs as root on the host.
set -eu

# 1/12 remove-firewall www
pfctl -d || true
sysrc pf_enable=NO
mv /etc/pf.conf /etc/pf.conf.removed-by-deploy

# 2/12 destroy-jail proxy
bastille umount www-proxy /var/deploy/sites || true
bastille destroy -a -y www-proxy
rm -f /usr/local/etc/cron.d/deploy-www /var/db/deploy/www/acme-renew.sh

# 3/12 stop-server blog nginx
bastille service www-blog nginx stop || true

# 4/12 destroy-jail blog
bastille umount www-blog /usr/local/www/site || true
bastille umount www-blog /var/deploy/sock || true
bastille destroy -a -y www-blog

# 5/12 stop-server docs nginx
bastille service www-docs nginx stop || true

# 6/12 destroy-jail docs
bastille umount www-docs /usr/local/www/site || true
bastille umount www-docs /var/deploy/sock || true
bastille destroy -a -y www-docs

# 7/12 stop-server shop nginx
bastille service www-shop nginx stop || true

# 8/12 destroy-jail shop
bastille umount www-shop /usr/local/www/site || true
bastille umount www-shop /var/deploy/sock || true
bastille destroy -a -y www-shop

# 9/12 remove-data blog
rm -rf /usr/local/deploy/sites/blog /var/db/deploy/www/jails/blog /var/db/deploy/www/socks/blog

# 10/12 remove-data docs
rm -rf /usr/local/deploy/sites/docs /var/db/deploy/www/jails/docs /var/db/deploy/www/socks/docs

# 11/12 remove-data shop
rm -rf /usr/local/deploy/sites/shop /var/db/deploy/www/jails/shop /var/db/deploy/www/socks/shop

# 12/12 destroy-network bastille0
ifconfig bastille0 destroy || true
sysrc cloned_interfaces-=lo1
sysrc -x ifconfig_lo1_name ifconfig_bastille0 || true
