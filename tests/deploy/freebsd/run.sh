#!/bin/sh
# FreeBSD drivers without a FreeBSD host: plans from recorded host outputs
# compared with golden scripts, every script through sh -n and shellcheck,
# every generated nginx config through nginx -t and Caddyfile through
# caddy validate (paths moved under a temporary folder), pf.conf checked
# for its rules and their order, parsers on sample outputs, and hosts that
# already match the spec giving an empty plan. UPDATE=1 rewrites goldens.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

for tool in shellcheck nginx caddy unshare openssl; do
	command -v "$tool" >/dev/null 2>&1 ||
	    { echo "$tool is missing (make deps-test)"; echo "0 passed, 1 failed"; exit 1; }
done
fbplan=$here/fbplan
[ -x "$fbplan" ] && [ -x "$top/tests/unit/test_freebsd" ] || {
	echo "build first: make tests/deploy/freebsd/fbplan tests/unit/test_freebsd"
	echo "0 passed, 1 failed"; exit 1; }
# (short: a socket path in a config nginx -t reads holds 107 bytes)
T=$(mktemp -d "${TMPDIR:-/tmp}/fb.XXXXXX")
trap 'rm -rf "$T"' EXIT

# Parsers, pf.conf shape, sh quoting (C unit test).
res=$(cd "$top" && "$top/tests/unit/test_freebsd" 2>&1)
echo "$res" | grep '^FAIL' || true
last=$(echo "$res" | tail -n 1)
p=${last%% passed*}; f=${last#*passed, }; f=${f%% failed}
pass=$((pass + p)); fail=$((fail + f))

# The nginx proxy fixture names these files; they must exist.
mkdir -p /tmp/deploy-fbtest/tls
if [ ! -s /tmp/deploy-fbtest/tls/example.key ]; then
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
	    -nodes -days 2 -subj /CN=example.org \
	    -keyout /tmp/deploy-fbtest/tls/example.key \
	    -out /tmp/deploy-fbtest/tls/example.crt >/dev/null 2>&1
fi

cd "$here" || exit 1
# A host where the three-site spec is applied: hand-written outputs plus
# the configs as the driver would read them back.
cp -r obs/three-bastille "$T/three"
"$fbplan" -k "$T/three" specs/bastille-three.yaml obs/three-bastille \
    >/dev/null 2>"$T/err" || { ko "converged state: $(cat "$T/err")"; }
cp -r obs/one-jail "$T/onejail"
"$fbplan" -k "$T/onejail" specs/jail-one.yaml obs/one-jail \
    >/dev/null 2>"$T/err" || { ko "converged jail state: $(cat "$T/err")"; }

# name | fbplan arguments
cases='
bastille-one|specs/bastille-one.yaml obs/fresh-bastille
bastille-three|specs/bastille-three.yaml obs/fresh-bastille
bastille-nginx|specs/bastille-nginx.yaml obs/fresh-bastille
jail-one|specs/jail-one.yaml obs/fresh-jail
jail-nginx|specs/jail-nginx.yaml obs/fresh-jail
bastille-nginx-acme|specs/bastille-nginx-acme.yaml obs/fresh-bastille
jail-nginx-acme|specs/jail-nginx-acme.yaml obs/fresh-jail
bastille-gemini|specs/bastille-gemini.yaml obs/fresh-bastille
jail-gemini|specs/jail-gemini.yaml obs/fresh-jail
bastille-add-site|specs/bastille-four.yaml THREE
bastille-remove-site|specs/bastille-two.yaml THREE
bastille-destroy-site|-s shop specs/bastille-three.yaml THREE
bastille-destroy|-d specs/bastille-three.yaml THREE
bastille-destroy-acme|-d specs/bastille-nginx-acme.yaml THREE
jail-destroy|-d specs/jail-one.yaml ONEJAIL
'
echo "$cases" | while IFS='|' read -r name args; do
	[ -n "$name" ] || continue
	args=$(echo "$args" | sed "s|THREE|$T/three|; s|ONEJAIL|$T/onejail|")
	# shellcheck disable=SC2086
	if ! "$fbplan" $args >"$T/$name.sh" 2>"$T/$name.err"; then
		echo "ko plan $name: $(cat "$T/$name.err")"
		continue
	fi
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$T/$name.sh" "golden/$name.sh"
	fi
	if cmp -s "$T/$name.sh" "golden/$name.sh"; then
		echo "ok"
	else
		echo "ko golden $name differs:"
		diff -u "golden/$name.sh" "$T/$name.sh" | head -40
	fi
	if sh -n "$T/$name.sh" 2>"$T/e"; then echo ok; else
		echo "ko sh -n $name: $(cat "$T/e")"; fi
	if shellcheck -s sh "$T/$name.sh" >"$T/e" 2>&1; then echo ok; else
		echo "ko shellcheck $name:"; head -30 "$T/e"; fi
	# Every here-document the script writes ends where it should.
	opened=$(grep -c "<<'DEPLOY_EOF'" "$T/$name.sh")
	closed=$(grep -c '^DEPLOY_EOF$' "$T/$name.sh")
	if [ "$opened" = "$closed" ]; then echo ok; else
		echo "ko $name: $opened here-documents, $closed ends"; fi
done >"$T/golden.out"
grep -v '^ok$' "$T/golden.out" | sed 's/^ko /FAIL: /'
pass=$((pass + $(grep -c '^ok$' "$T/golden.out")))
fail=$((fail + $(grep -c '^ko ' "$T/golden.out")))

# The Gemini jail: gmid, its config checked by gmid -n before it is used,
# the capsule's releases and the certificate folder mounted read-only, the
# certificate made only when missing (kept across applies).
for g in golden/bastille-gemini.sh golden/jail-gemini.sh; do
	if grep -q '^# [0-9]*/[0-9]* create-jail gemini 10.17.0.9$' "$g" &&
	    grep -q 'install -y gmid$' "$g" &&
	    grep -q 'gmid -n -c /usr/local/etc/gmid.conf.new$' "$g" &&
	    grep -q '^test -s /var/db/deploy/www/jails/gemini/tls/cert.pem || openssl req -x509 ' "$g" &&
	    grep -q '/usr/local/deploy/sites/blog .*/usr/local/www/site nullfs ro' "$g" &&
	    grep -q '/var/db/deploy/www/jails/gemini/tls .*/var/deploy/tls nullfs ro' "$g" &&
	    grep -q '^# [0-9]*/[0-9]* start-server gemini gmid$' "$g"; then ok
	else ko "$g: the Gemini jail is not planned as expected"; fi
done

# A jail.conf host with the Gemini jail in place: nothing to do; gmid
# stopped: started; its rdr of 1965 not loaded: the firewall reloaded.
cp -r obs/gemini-jail "$T/gemini"
"$fbplan" -k "$T/gemini" specs/jail-gemini.yaml obs/gemini-jail \
    >/dev/null 2>"$T/err" || ko "converged gemini state: $(cat "$T/err")"
out=$("$fbplan" specs/jail-gemini.yaml "$T/gemini" 2>&1)
if [ "$out" = "nothing to do" ]; then ok; else
	ko "converged gemini host: got $(echo "$out" | grep '^# [0-9]')"; fi
cp -r "$T/gemini" "$T/gmidoff"
rm "$T/gmidoff/jexec_www-gemini_service_gmid_status"
out=$("$fbplan" specs/jail-gemini.yaml "$T/gmidoff" 2>&1 | grep '^# [0-9]')
if [ "$out" = "# 1/1 start-server gemini gmid" ]; then ok; else
	ko "stopped gmid: got $out"; fi
cp -r "$T/gemini" "$T/nordr"
grep -v 'port 1965' "$T/gemini/pfctl_-sn" >"$T/nordr/pfctl_-sn"
out=$("$fbplan" specs/jail-gemini.yaml "$T/nordr" 2>&1 | grep '^# [0-9]')
if [ "$out" = "# 1/1 load-firewall www host ports to proxy" ]; then ok; else
	ko "1965 rdr not loaded: got $out"; fi

# nginx with tls acme: lego on the host, the challenge folder inside the
# proxy jail, a renewal script (sh -n, shellcheck) that runs once nginx is
# up and twice a day from cron, both removed with the proxy.
for g in golden/bastille-nginx-acme.sh golden/jail-nginx-acme.sh; do
	awk '/^cat > .*acme-renew.sh <</ { on = 1; next } /^DEPLOY_EOF$/ { on = 0 }
	    on' "$g" >"$T/renew.sh"
	if [ -s "$T/renew.sh" ] && sh -n "$T/renew.sh" 2>"$T/e" &&
	    shellcheck -s sh "$T/renew.sh" >"$T/e" 2>&1; then ok
	else ko "$g: renewal script: $(cat "$T/e")"; fi
	if grep -q "^renew 'blog' 'blog.example.org' 'www.blog.example.org'\$" "$T/renew.sh" &&
	    grep -q "^renew 'docs' 'docs.example.org'\$" "$T/renew.sh" &&
	    grep -q 'start + (end - start) \* 2 / 3' "$T/renew.sh"; then ok
	else ko "$g: renewal script names and 2/3 rule"; fi
	start=$(grep -n '^# [0-9]*/[0-9]* start-server proxy nginx$' "$g" | cut -d: -f1)
	run=$(grep -n '^/var/db/deploy/www/acme-renew.sh$' "$g" | tail -n 1 | cut -d: -f1)
	if grep -q '^pkg install -y lego$' "$g" &&
	    grep -q '^mkdir -p .*/var/deploy/acme/webroot/.well-known/acme-challenge$' "$g" &&
	    grep -q '^[0-9]* 3,15 \* \* \* root /var/db/deploy/www/acme-renew.sh ' "$g" &&
	    [ -n "$start" ] && [ -n "$run" ] && [ "$run" -gt "$start" ]; then ok
	else ko "$g: lego, the challenge folder, the schedule, the first run after nginx"; fi
done
if grep -q '^rm -f /usr/local/etc/cron.d/deploy-www /var/db/deploy/www/acme-renew.sh$' \
    golden/bastille-destroy-acme.sh; then ok
else ko "destroy leaves the renewal schedule"; fi

# Caddy with tls acme: a script that forces a renewal now through Caddy's
# admin socket (sh -n, shellcheck), naming every domain and redirect name,
# written with the proxy's config and removed with the proxy.
for g in golden/bastille-three.sh golden/jail-one.sh; do
	awk '/^cat > .*caddy-renew.sh <</ { on = 1; next } /^DEPLOY_EOF$/ { on = 0 }
	    on' "$g" >"$T/caddy-renew.sh"
	if [ -s "$T/caddy-renew.sh" ] && sh -n "$T/caddy-renew.sh" 2>"$T/e" &&
	    shellcheck -s sh "$T/caddy-renew.sh" >"$T/e" 2>&1; then ok
	else ko "$g: Caddy renewal script: $(cat "$T/e")"; fi
	if grep -q '^sock=.*/var/run/caddy/caddy.sock.$' "$T/caddy-renew.sh" &&
	    grep -q '^conf=.*/usr/local/etc/caddy/Caddyfile.$' "$T/caddy-renew.sh" &&
	    grep -q 'renewal_window_ratio' "$T/caddy-renew.sh" &&
	    grep -q '^chmod 700 /var/db/deploy/www/caddy-renew.sh$' "$g"; then ok
	else ko "$g: Caddy renewal script: socket, Caddyfile, ratio, mode"; fi
done
grep -q '^names="blog.example.org example.org docs.example.org shop.example.org"$' \
    golden/bastille-three.sh && ok || ko "Caddy renewal script: names"
if grep -q '^rm -f /var/db/deploy/www/caddy-renew.sh$' golden/bastille-destroy.sh &&
    grep -q '^rm -f /var/db/deploy/www/caddy-renew.sh$' golden/jail-destroy.sh; then ok
else ko "destroy leaves the Caddy renewal script"; fi

# Hosts that match their spec: nothing to do.
for c in "specs/bastille-three.yaml $T/three" "specs/jail-one.yaml $T/onejail"; do
	# shellcheck disable=SC2086
	out=$("$fbplan" $c 2>&1)
	if [ "$out" = "nothing to do" ]; then ok; else
		ko "converged ${c%% *}: expected nothing to do, got: $(echo "$out" | grep '^# [0-9]')"
	fi
done
# One changed fact, one action set: a stopped site server is started.
cp -r "$T/three" "$T/stopped"
rm "$T/stopped/jexec_www-docs_service_nginx_status"
out=$("$fbplan" specs/bastille-three.yaml "$T/stopped" 2>&1 | grep '^# [0-9]')
if [ "$out" = "# 1/1 start-server docs nginx" ]; then ok; else
	ko "stopped server: got $out"; fi
# pf.conf edited by hand on the host: the firewall is reloaded.
cp -r "$T/three" "$T/pfedit"
echo "pass in all" >>"$T/pfedit/cat__etc_pf.conf"
out=$("$fbplan" specs/bastille-three.yaml "$T/pfedit" 2>&1 | grep '^# [0-9]')
if [ "$out" = "# 1/1 load-firewall www host ports to proxy" ]; then ok; else
	ko "edited pf.conf: got $out"; fi
# pf.conf right but rules not loaded (pf disabled): reloaded too.
cp -r "$T/three" "$T/pfoff"
: >"$T/pfoff/pfctl_-sr"
out=$("$fbplan" specs/bastille-three.yaml "$T/pfoff" 2>&1 | grep -c '^# [0-9]/[0-9] load-firewall')
if [ "$out" = 1 ]; then ok; else ko "pf not loaded: no load-firewall"; fi

# The proxy changed kind (nginx found in the Caddy jail): made again,
# with its config written into the new jail.
cp -r "$T/three" "$T/kind"
cp "$T/kind/cat__usr_local_bastille_jails_www-proxy_root_usr_local_etc_caddy_Caddyfile" \
    "$T/kind/cat__usr_local_bastille_jails_www-proxy_root_usr_local_etc_nginx_nginx.conf"
out=$("$fbplan" specs/bastille-three.yaml "$T/kind" 2>&1 | grep '^# [0-9]' | tr '\n' ';')
want='# 1/5 stop-server proxy caddy;# 2/5 destroy-jail proxy;# 3/5 create-jail proxy 10.17.0.2;'
want="$want# 4/5 write-config proxy /usr/local/bastille/jails/www-proxy/root/usr/local/etc/caddy/Caddyfile;"
want="$want# 5/5 start-server proxy caddy;"
if [ "$out" = "$want" ]; then ok; else ko "proxy kind change: got $out"; fi

# A jail.conf.d file of this spec that it no longer names: removed.
cp -r "$T/onejail" "$T/stray"
printf 'www-blog.conf\nwww-old.conf\nother.conf\n' >"$T/stray/ls_-1__etc_jail.conf.d_"
echo "# Jail old of www" >"$T/stray/cat__etc_jail.conf.d_www-old.conf"
out=$("$fbplan" specs/jail-one.yaml "$T/stray" 2>&1 | grep '^# [0-9]' | tr '\n' ';')
if [ "$out" = "# 1/1 destroy-jail old;" ]; then ok; else ko "stray jail: got $out"; fi

# Generated configs, checked by the servers themselves.
for spec in specs/*.yaml; do
	n=$(basename "$spec" .yaml)
	obs=obs/fresh-bastille
	case $n in jail-*) obs=obs/fresh-jail ;; esac
	d=$T/c-$n
	mkdir -p "$d" "$d/var/deploy/logs" "$d/var/deploy/run" \
	    "$d/var/deploy/tmp" "$d/var/deploy/sock" "$d/site/current" "$d/caddy"
	if ! "$fbplan" -c "$d" "$spec" "$obs" >/dev/null 2>"$T/e"; then
		ko "configs $n: $(cat "$T/e")"; continue
	fi
	for f in "$d"/*.conf; do
		case $f in */pf.conf) continue ;; esac
		# gmid is not packaged for Debian: its config's shape instead
		# (the plan runs gmid -n on the host before using it).
		case $f in */gemini.conf)
			if grep -qx 'user "www"' "$f" &&
			    grep -qx 'chroot "/usr/local/www/site"' "$f" &&
			    grep -qx 'server "blog.example.org" {' "$f" &&
			    grep -qx '	listen on \* port 1965' "$f" &&
			    grep -qx '	cert "/var/deploy/tls/cert.pem"' "$f" &&
			    grep -qx '	key "/var/deploy/tls/key.pem"' "$f" &&
			    grep -qx '	root "/current/.capsule"' "$f" &&
			    [ "$(grep -c '{' "$f")" = "$(grep -c '}' "$f")" ] &&
			    ! grep -v '^#' "$f" | grep -q '\$'; then ok
			else ko "gmid.conf $n: unexpected shape: $(cat "$f")"; fi
			continue ;;
		esac
		sed -e "s|/var/deploy|$d/var/deploy|g" \
		    -e "s|/usr/local/etc/nginx/mime.types|/etc/nginx/mime.types|" \
		    -e "s|/usr/local/www/site|$d/site|g" \
		    -e 's|^user www;|user nobody nogroup;|' "$f" >"$f.t"
		if grep -q '^# Proxy' "$f" && grep -q '^{' "$f"; then
			sed -e "s|/var/run/caddy/caddy.sock|$d/caddy/admin.sock|" \
			    -e "s|/var/db/caddy/data/caddy|$d/caddy/data|" \
			    "$f" >"$f.t"
			if HOME=$d XDG_DATA_HOME=$d/caddy XDG_CONFIG_HOME=$d/caddy \
			    caddy validate --config "$f.t" --adapter caddyfile \
			    >"$T/e" 2>&1; then ok; else
				ko "caddy validate $n/$(basename "$f"):"
				grep -i error "$T/e" | head -5
			fi
		elif unshare --net nginx -t -q -c "$f.t" >"$T/e" 2>&1; then ok
		else ko "nginx -t $n/$(basename "$f"): $(cat "$T/e")"; fi
	done
	# pf.conf: the rules in the order pf evaluates them by section.
	pf=$d/pf.conf
	order=$(awk '
		/^nat on \$ext_if from \$jail_net/ && !a { a = NR }
		/^rdr pass on \$ext_if .* port 443 -> \$proxy port 443$/ && !b { b = NR }
		/^block in all$/ && !c { c = NR }
		/^pass in quick on \$ext_if inet proto tcp .* port 22 flags any keep state$/ && !e { e = NR }
		END { print (a && a < b && b < c && c < e) ? "ordered" : "wrong " a " " b " " c " " e }' "$pf")
	if [ "$order" = ordered ]; then ok; else ko "pf.conf $n: $order"; fi
	case $n in *-gemini)
		if grep -qx 'gemini="10.17.0.9"' "$pf" &&
		    grep -qx 'rdr pass on $ext_if inet proto tcp from any to ($ext_if) port 1965 -> $gemini port 1965' "$pf" &&
		    [ "$(grep -n 'port 1965 -> $gemini' "$pf" | cut -d: -f1)" -lt "$(grep -nx 'block in all' "$pf" | cut -d: -f1)" ]
		then ok; else ko "pf.conf $n: no rdr of 1965 to the Gemini jail before block"; fi ;;
	*)
		if grep -q '1965' "$pf"; then ko "pf.conf $n: 1965 without gemini"; else ok; fi ;;
	esac
	if grep -q '<jails>' "$pf" && ! grep -q 'from <jails>' "$pf"; then ok
	else ko "pf.conf $n: NAT must not rely on the <jails> table"; fi
	anchors=$(grep -c '^rdr-anchor "rdr/\*"$\|^anchor "bastille/\*"$' "$pf")
	case $n in
	bastille-*) want=2 ;;
	*) want=0 ;;
	esac
	if [ "$anchors" = "$want" ]; then ok; else
		ko "pf.conf $n: $anchors Bastille anchors, want $want"; fi
done

# Bastillefiles: every line a comment or a hook Bastille 1.0 knows.
for g in golden/bastille-*.sh; do
	awk '/^cat > .*\/Bastillefile <</ { on = 1; next } /^DEPLOY_EOF$/ { on = 0 }
	    on' "$g" >"$T/bf"
	[ -s "$T/bf" ] || continue
	bad=$(grep -v '^#' "$T/bf" | awk '{ print $1 }' | grep -vxE 'ARG|CMD|CONFIG|CP|INCLUDE|LIMITS|LINE_IN_FILE|MOUNT|PKG|RDR|RENDER|RESTART|SERVICE|SYSRC|TAGS' || true)
	if [ -z "$bad" ]; then ok; else ko "$g: Bastillefile hooks $bad"; fi
done

# --known-hosts and --identity reach the ssh that runs host commands: an
# ssh in PATH that records its words and fails stands in for the host.
mkdir -p "$T/fakebin"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/ssh.argv"\necho "ssh: connect to host: Connection refused" >&2\nexit 255\n' "$T" > "$T/fakebin/ssh"
chmod +x "$T/fakebin/ssh"
PATH="$T/fakebin:$PATH" "$top/bin/deploy" plan -c "$here/specs/bastille-one.yaml" \
    --known-hosts "$T/kh" --identity "$T/id" > "$T/plan.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && [ -s "$T/ssh.argv" ]; then ok; else
	ko "plan over a failing ssh: exit $rc, ssh run: $(test -s "$T/ssh.argv" && echo yes || echo no)"; fi
if grep -qx "UserKnownHostsFile=$T/kh" "$T/ssh.argv" &&
    grep -qx "StrictHostKeyChecking=yes" "$T/ssh.argv" &&
    grep -A1 -x -- "-i" "$T/ssh.argv" | grep -qx "$T/id"; then ok; else
	ko "ssh was not given the known hosts file and key: $(tr '\n' ' ' < "$T/ssh.argv")"; fi

# Caddy's tls internal root, read on the host for checks made elsewhere:
# what `cat` prints there, nothing when Caddy has made none yet.
sed 's/tls: acme/tls: internal/; /email:/d' specs/jail-one.yaml > "$T/jail-internal.yaml"
cp -r obs/fresh-jail "$T/ca"
printf -- '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' \
    > "$T/ca/cat__usr_local_jails_www-proxy_var_db_caddy_data_caddy_pki_authorities_local_root.crt"
out=$("$fbplan" -a "$T/jail-internal.yaml" "$T/ca" 2>&1)
if [ "$out" = "$(printf -- '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----')" ]; then ok; else
	ko "the proxy's CA read on the host: '$out'"; fi
out=$("$fbplan" -a "$T/jail-internal.yaml" obs/fresh-jail 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then ok; else ko "no CA yet: exit $rc, '$out'"; fi
out=$("$fbplan" -a specs/jail-one.yaml "$T/ca" 2>&1)
if [ -z "$out" ]; then ok; else ko "tls acme has no CA of its own: '$out'"; fi

# HTTP/3: pf sends UDP 443 to the proxy only when it is on, and Caddy
# is told so; sh -n still takes the plan.
sed 's/^  hsts: 31536000$/  hsts: 31536000\n  http3: true/' specs/bastille-one.yaml > "$T/h3.yaml"
"$fbplan" "$T/h3.yaml" obs/fresh-bastille > "$T/h3.sh" 2>&1
if grep -q '^rdr pass on $ext_if inet proto udp from any to ($ext_if) port 443 -> $proxy port 443$' "$T/h3.sh" &&
    grep -q '^		protocols h1 h2 h3$' "$T/h3.sh" && sh -n "$T/h3.sh"; then ok; else
	ko "http3: no UDP rdr or no h3 in the plan"; fi
if ! grep -q 'proto udp' golden/bastille-one.sh && grep -q '^		protocols h1 h2$' golden/bastille-one.sh; then ok; else
	ko "http3 off by default: UDP rdr or h3 in bastille-one"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
