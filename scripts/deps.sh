#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install from Debian what building and testing flowctl need.
# Skips what is installed; non-interactive as root; otherwise says what to run.
set -euo pipefail

PKGS=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves pkg-config
	clang llvm sparse
	linux-headers-amd64 linux-source-6.1
	busybox-static cpio kmod xz-utils zstd
	libmnl-dev libjansson-dev iproute2 ethtool iperf3 tcpdump tshark python3-scapy python3-yaml
	python3-jsonschema jq gnuplot-nox procps dkms openssl
	mininet bridge-utils iputils-ping
	rdma-core ibverbs-providers ibverbs-utils perftest
	nftables lldpad libconfig-dev libnl-3-dev autoconf automake libtool
	debhelper dh-dkms dh-python lintian man-db
)
# The 6.12 kernel (headers and image, unpacked into the cache) and its source come from bookworm-backports, and so
# does qemu: bookworm's qemu 7.2 double-faults 6.12 guests under multi-threaded
# TCG (Documentation/vm-run.md, "The emulator"); backports carries qemu 10.
QEMU_MIN=1:8

say() { printf 'deps: %s\n' "$*" >&2; }

need_root() {
	if [ "$(id -u)" -ne 0 ]; then
		say "not root; run: sudo $0"
		exit 1
	fi
}

have_pkg() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed'
}

qemu_new_enough() {
	local v
	have_pkg qemu-system-x86 || return 1
	v=$(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) || return 1
	[ -n "$v" ] && dpkg --compare-versions "$v" ge "$QEMU_MIN"
}

# The Debian mirror URI already configured on this machine (deb822 or one-line format).
mirror_uri() {
	local f uri=""
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		uri=$(awk '/^URIs:/ { u=$2 } /^Suites:/ { if ($0 ~ /bookworm( |$)/ && u !~ /security/) { print u; exit } }' "$f")
		[ -n "$uri" ] && break
	done
	if [ -z "$uri" ]; then
		uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		      awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }')
	fi
	printf '%s' "$uri"
}

add_backports() {
	if grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 1
	fi
	local uri
	uri=$(mirror_uri)
	if [ -z "$uri" ]; then
		say "no bookworm mirror found in the apt sources; cannot add bookworm-backports"
		exit 1
	fi
	say "adding bookworm-backports from the configured mirror"
	cat >/etc/apt/sources.list.d/flowctl-backports.sources <<SRC
Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	return 0
}

# The packages below are Debian 12's (bookworm, amd64) and so are the
# kernels the VM boots; elsewhere say what is needed instead of failing
# inside apt. FLOWCTL_DEPS_ANY=1 tries anyway (a Debian derivative).
check_host() {
	local id= ver= name= arch
	if [ -r /etc/os-release ]; then
		id=$(. /etc/os-release && echo "${ID:-}")
		ver=$(. /etc/os-release && echo "${VERSION_ID:-}")
		name=$(. /etc/os-release && echo "${PRETTY_NAME:-}")
	fi
	arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
	[ "$id" = debian ] && [ "$ver" = 12 ] && [ "$arch" = amd64 ] && return 0
	[ "${FLOWCTL_DEPS_ANY:-0}" = 1 ] && {
		say "not Debian 12 amd64 (${name:-unknown}, $arch); trying anyway (FLOWCTL_DEPS_ANY=1)"
		return 0
	}
	say "this script installs Debian 12 (bookworm) amd64 packages; this host is ${name:-unknown} ($arch)."
	say "flowctl is built and tested on Debian 12 amd64. Elsewhere, install by hand the"
	say "equivalents of: ${PKGS[*]}"
	say "and qemu-system-x86 >= 8, a 6.1 and/or 6.12 kernel image with its headers, then"
	say "run scripts/check (make check would call this script again)."
	say "The CLI alone needs only a C compiler, make, pkg-config, libmnl and jansson: make userland."
	say "FLOWCTL_DEPS_ANY=1 $0 tries the Debian package names anyway."
	exit 1
}

# promtool, Prometheus' own checker of the text format (the judge of
# flowctl metrics in the unit tests), from Debian's prometheus package,
# unpacked into the cache: the package itself would install and start a
# Prometheus server, which nothing here needs.
promtool_dir=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/flowctl/promtool
fetch_promtool() {
	local tmp
	command -v promtool >/dev/null 2>&1 && return 0
	[ -x "$promtool_dir/usr/bin/promtool" ] && return 0
	say "fetching promtool (Debian's prometheus package, unpacked into $promtool_dir)"
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download -q prometheus >/dev/null 2>&1) &&
		dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/x" &&
		mkdir -p "$promtool_dir/usr/bin" &&
		cp "$tmp/x/usr/bin/promtool" "$promtool_dir/usr/bin/promtool"; then
		rm -rf "$tmp"
		return 0
	fi
	rm -rf "$tmp"
	say "could not fetch promtool (apt-get download prometheus)"
	return 1
}

# iproute2 >= 6.2's dcb and tc, unpacked into the cache and never installed
# (the system's tc stays the one q_flowctl.so is built for): Debian 12's dcb
# 6.1 leaves the kernel's ACKs in its socket, so a failed "dcb pfc set" or
# "dcb ets set" exits 0, and it has no "dcb apptrust". selftests/dcb.sh
# judges refusals and APP trust with this dcb, and selftests/install.sh
# loads q_flowctl.so into this tc (bookworm-backports' iproute2).
dcb_new_dir=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/flowctl/iproute2-bpo
fetch_dcb_new() {
	local tmp
	[ -x "$dcb_new_dir/sbin/dcb" ] && [ -x "$dcb_new_dir/sbin/tc" ] && return 0
	say "fetching a newer dcb (bookworm-backports' iproute2, unpacked into $dcb_new_dir)"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	if (cd "$tmp" && apt-get download -q iproute2/bookworm-backports >/dev/null 2>&1) &&
		dpkg-deb -x "$tmp"/iproute2_*.deb "$tmp/x" &&
		mkdir -p "$dcb_new_dir/sbin" &&
		cp "$tmp/x/sbin/dcb" "$tmp/x/sbin/tc" "$dcb_new_dir/sbin/" &&
		"$dcb_new_dir/sbin/dcb" -V >/dev/null && "$dcb_new_dir/sbin/tc" -V >/dev/null; then
		rm -rf "$tmp"
		return 0
	fi
	rm -rf "$tmp" "$dcb_new_dir"
	say "could not fetch dcb from bookworm-backports (apt-get download iproute2/bookworm-backports)"
	return 1
}

# lldpd (Debian's, with libsnmp40 where that is not installed), unpacked
# into the cache and never installed: the package would start a daemon on
# every host port. selftests/dcbx.sh runs it in its namespaces (lldpd_start
# in selftests/lib.sh) as a DCBX partner and as the agent beside which
# flowctl dcbx refuses to run.
lldpd_dir=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/flowctl/lldpd
fetch_lldpd() {
	local tmp pkgs=lldpd f
	[ -x "$lldpd_dir/usr/sbin/lldpd" ] && return 0
	have_pkg libsnmp40 || pkgs="$pkgs libsnmp40 libsnmp-base"
	say "fetching $pkgs (apt-get download, unpacked into $lldpd_dir; not installed)"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	# shellcheck disable=SC2086 # a list of package names
	if (cd "$tmp" && apt-get download -q $pkgs >/dev/null 2>&1); then
		for f in "$tmp"/*.deb; do
			dpkg-deb -x "$f" "$tmp/x" || break
		done
		if mkdir -p "$lldpd_dir" && cp -a "$tmp/x/usr" "$lldpd_dir/" &&
			LD_LIBRARY_PATH="$lldpd_dir/usr/lib/x86_64-linux-gnu" \
				"$lldpd_dir/usr/sbin/lldpd" -v >/dev/null; then
			rm -rf "$tmp"
			return 0
		fi
	fi
	rm -rf "$tmp" "$lldpd_dir"
	say "could not fetch lldpd (apt-get download $pkgs)"
	return 1
}

# lldpad as Debian 13 ships it (1.1.1), built from its source package into
# the cache and never installed: Debian 12's lldpad (1.1+git20221028)
# wipes its CEE state each time it builds an LLDPDU (dcbx_gettlv's memset,
# fixed upstream in 2023), so its CEE mode never sends a CEE TLV, on any
# port. selftests/dcb.sh (lldpad_cee) judges flowctl's CEE door with this
# one. The source comes through a private apt configuration (trixie's
# deb-src on this machine's mirror, verified by apt with the archive
# keyring); the host's sources stay as they are.
lldpad_new_root=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/flowctl
fetch_lldpad_new() {
	local tmp uri o ver sha name dir
	ls "$lldpad_new_root"/lldpad-*/sbin/lldpad >/dev/null 2>&1 && return 0
	uri=$(mirror_uri)
	[ -n "$uri" ] || { say "no Debian mirror in the apt sources: no lldpad source"; return 1; }
	tmp=$(mktemp -d)
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri trixie main" \
		>"$tmp/sources.list"
	o=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o Dir::Etc::SourceParts=/nonexistent
	   -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache")
	say "fetching lldpad's source from Debian 13 (trixie deb-src, a private apt configuration)"
	if apt-get "${o[@]}" update -q >/dev/null 2>&1; then
		read -r ver sha name dir < <(apt-cache "${o[@]}" showsrc lldpad 2>/dev/null | awk '
			/^Package:/ { n++ } n != 1 { next }
			/^Version:/ { v = $2 } /^Directory:/ { d = $2 }
			/^Checksums-Sha256:/ { c = 1; next } /^[^ ]/ { c = 0 }
			c && $3 ~ /\.orig\.tar\./ { h = $1; f = $3 }
			END { if (f != "") print v, h, f, d }')
	fi
	if [ -n "${name:-}" ] && /usr/lib/apt/apt-helper download-file "$uri/$dir/$name" \
			"$tmp/$name" "SHA256:$sha" >/dev/null 2>&1; then
		local dest="$lldpad_new_root/lldpad-${ver%%-*}"
		say "building lldpad ${ver%%-*} into $dest (about two minutes)"
		mkdir -p "$tmp/src" && tar xf "$tmp/$name" -C "$tmp/src" --strip-components=1 &&
		if (cd "$tmp/src" && ./bootstrap.sh && ./configure -q --prefix="$dest" \
				--sysconfdir="$dest/etc" && make -s -j"$(nproc)" && make -s install) \
				>"$tmp/build.log" 2>&1 && "$dest/sbin/lldpad" -v >/dev/null 2>&1; then
			rm -rf "$tmp"
			return 0
		fi
		say "lldpad ${ver%%-*} did not build: $(tail -3 "$tmp/build.log" 2>/dev/null)"
		rm -rf "$dest"
	fi
	rm -rf "$tmp"
	say "could not fetch lldpad's source from trixie on $uri"
	return 1
}

# The 6.12 headers: bookworm-backports' linux-headers-6.12.*-amd64 depends
# on its image package (bookworm's 6.1 headers do not), so installing it
# would install a kernel and a boot entry. Instead the release's headers,
# their -common part and linux-kbuild are downloaded and unpacked into the
# cache beside that release's image, the absolute include in the headers'
# Makefile pointed at the cache (scripts/kver --kdir finds the tree).
# Their own dependencies (gcc-12, pahole, libelf) are installed packages.
kernels_dir=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/flowctl/kernels
fetch_headers() {
	local meta=$1 pkg rel d tmp deps p
	pkg=$(apt-cache depends "$meta" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-[0-9][^ ]*-amd64\)$/\1/p' | head -n 1)
	[ -n "$pkg" ] || { say "apt knows no $meta (is bookworm-backports in the sources?)"; return 1; }
	rel=${pkg#linux-headers-}
	d=$kernels_dir/$rel
	[ -e "/usr/src/linux-headers-$rel/Makefile" ] && return 0
	[ -e "$d/usr/src/linux-headers-$rel/Makefile" ] && return 0
	deps=$(apt-cache depends "$pkg" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common\|linux-kbuild-[^ ]*\)$/\1/p' | sort -u)
	say "fetching $pkg $(echo "$deps" | tr '\n' ' ')(apt-get download, unpacked into $d; not installed)"
	tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/flowctl-headers.XXXXXX")
	chmod 755 "$tmp"
	# shellcheck disable=SC2086 # package names
	if (cd "$tmp" && apt-get download -q "$pkg" $deps >/dev/null 2>&1); then
		for p in "$tmp"/*.deb; do dpkg-deb -x "$p" "$tmp/x" || break; done
		if [ -e "$tmp/x/usr/src/linux-headers-$rel/Makefile" ] &&
			sed -i "s|^include /usr/src/|include $d/usr/src/|" \
				"$tmp/x/usr/src/linux-headers-$rel/Makefile" &&
			mkdir -p "$d/usr" && rm -rf "$d/usr" && mv "$tmp/x/usr" "$d/usr"; then
			rm -rf "$tmp"
			return 0
		fi
	fi
	rm -rf "$tmp" "$d/usr"
	say "could not fetch the $rel headers (apt-get download $pkg $deps)"
	return 1
}

# The kernels the VM boots, one per release with headers (scripts/kver
# --list): Debian's image package downloaded and unpacked into the cache
# with its modules indexed (depmod -b), never installed by this script. An
# installed image of the same release is used as it is (scripts/kimage).
fetch_kernel() {
	local rel=$1 d=$kernels_dir/$1 tmp
	if [ "${FLOWCTL_KERNEL_FROM:-}" != cache ] && [ -r "/boot/vmlinuz-$rel" ] &&
		[ -d "/lib/modules/$rel/kernel" ]; then
		return 0
	fi
	[ -r "$d/boot/vmlinuz-$rel" ] && [ -e "$d/lib/modules/$rel/modules.dep" ] && return 0
	say "fetching linux-image-$rel (apt-get download, unpacked into $d; not installed)"
	tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/flowctl-kernel.XXXXXX")
	chmod 755 "$tmp"
	if (cd "$tmp" && apt-get download -q "linux-image-$rel" >/dev/null 2>&1) &&
		dpkg-deb -x "$tmp"/linux-image-*.deb "$tmp/x"; then
		# A merged-/usr package has usr/lib/modules.
		if [ ! -d "$tmp/x/lib/modules/$rel" ] && [ -d "$tmp/x/usr/lib/modules/$rel" ]; then
			mkdir -p "$tmp/x/lib/modules"
			mv "$tmp/x/usr/lib/modules/$rel" "$tmp/x/lib/modules/"
		fi
		if [ -r "$tmp/x/boot/vmlinuz-$rel" ] && depmod -b "$tmp/x" "$rel" &&
			mkdir -p "$d" && rm -rf "$d/boot" "$d/lib" &&
			mv "$tmp/x/boot" "$d/boot" && mkdir -p "$d/lib/modules" &&
			mv "$tmp/x/lib/modules/$rel" "$d/lib/modules/"; then
			rm -rf "$tmp"
			return 0
		fi
	fi
	rm -rf "$tmp" "$d/boot" "$d/lib"
	say "could not fetch the kernel image (apt-get download linux-image-$rel)"
	return 1
}

main() {
	local missing=() p plan=()
	check_host
	for p in "${PKGS[@]}"; do
		have_pkg "$p" || missing+=("$p")
	done
	local have612=0 newqemu=0
	"$(dirname "$0")/kver" --list | grep -q '^6\.12\.' &&
		ls /usr/src/linux-source-6.12.tar.xz >/dev/null 2>&1 && have612=1
	qemu_new_enough && newqemu=1
	if [ ${#missing[@]} -eq 0 ] && [ $have612 -eq 1 ] && [ $newqemu -eq 1 ]; then
		say "all packages present"
	else
		need_root
		# What changes on this host, said before it changes.
		grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
			plan+=("add the apt source bookworm-backports (/etc/apt/sources.list.d/flowctl-backports.sources, from the configured mirror)")
		[ ${#missing[@]} -eq 0 ] || plan+=("install: ${missing[*]}")
		[ $have612 -eq 1 ] ||
			plan+=("$(have_pkg linux-source-6.12 || echo "install linux-source-6.12; ")unpack the 6.12 headers into $kernels_dir (not installed: that package depends on its image)")
		[ $newqemu -eq 1 ] || plan+=("install qemu-system-x86 from bookworm-backports")
		say "this host will change:"
		for p in "${plan[@]}"; do say "  - $p"; done
		export DEBIAN_FRONTEND=noninteractive
		add_backports || true
		say "apt-get update"
		apt-get update -q >/dev/null
		if [ ${#missing[@]} -gt 0 ]; then
			say "installing: ${missing[*]}"
			apt-get install -y -q --no-install-recommends "${missing[@]}"
		fi
		if [ $have612 -eq 0 ]; then
			# Debian's 6.12 for bookworm (the generic flavour, not rt or
			# cloud): bookworm-backports carries it, and so may the security suite.
			have_pkg linux-source-6.12 || {
				say "installing linux-source-6.12"
				apt-get install -y -q --no-install-recommends linux-source-6.12
			}
			fetch_headers linux-headers-6.12-amd64 || exit 1
		fi
		if [ $newqemu -eq 0 ]; then
			say "installing qemu-system-x86 from bookworm-backports (bookworm's 7.2 crashes 6.12 guests under TCG)"
			apt-get install -y -q --no-install-recommends -t bookworm-backports \
				qemu-system-x86
			qemu_new_enough || { say "qemu is still older than $QEMU_MIN"; exit 1; }
		fi
	fi
	for p in $("$(dirname "$0")/kver" --list); do
		fetch_kernel "$p" || exit 1
	done
	fetch_promtool || exit 1
	fetch_dcb_new || exit 1
	fetch_lldpd || exit 1
	fetch_lldpad_new || exit 1
	say "done"
}

main "$@"
