#!/bin/sh
# deploy: 7 actions for www (platform freebsd-jail, host ssh://root@203.0.113.10),
# FreeBSD 14.3-RELEASE, external interface vtnet0. Runs as root on the host.
set -eu

# 1/7 remove-firewall www
pfctl -d || true
sysrc pf_enable=NO
mv /etc/pf.conf /etc/pf.conf.removed-by-deploy

# 2/7 stop-server proxy caddy
jexec www-proxy service caddy stop || true

# 3/7 destroy-jail proxy
service jail stop www-proxy || true
sysrc jail_list-=www-proxy
rm -f /etc/jail.conf.d/www-proxy.conf /usr/local/jails/www-proxy.fstab
chflags -R 0 /usr/local/jails/www-proxy || true
rm -rf /usr/local/jails/www-proxy
rm -f /var/db/deploy/www/caddy-renew.sh

# 4/7 stop-server blog nginx
jexec www-blog service nginx stop || true

# 5/7 destroy-jail blog
service jail stop www-blog || true
umount /usr/local/jails/www-blog/usr/local/www/site || true
test '!' -e /usr/local/jails/www-blog/usr/local/www/site/current
sysrc jail_list-=www-blog
rm -f /etc/jail.conf.d/www-blog.conf /usr/local/jails/www-blog.fstab
chflags -R 0 /usr/local/jails/www-blog || true
rm -rf /usr/local/jails/www-blog

# 6/7 remove-data blog
rm -rf /usr/local/deploy/sites/blog /var/db/deploy/www/socks/blog

# 7/7 destroy-network bastille0
ifconfig bastille0 destroy || true
sysrc cloned_interfaces-=lo1
sysrc -x ifconfig_lo1_name ifconfig_bastille0 || true
