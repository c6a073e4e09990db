#!/usr/bin/env bash
# Builds the local base image the project's images can be built on when no registry can be reached:
# Debian 12 (bookworm, minbase) with openjdk-17-jre-headless, made with debootstrap and loaded with
# `docker import`. The Debian mirror is the one this machine's apt already uses (read from its sources),
# so nothing here names a registry.
#
#   docker/build-base-image.sh [image-name]     default: sessionmesh/debian-jre:17
#
# Skips the work when the image already exists (set REBUILD=1 to force). Needs root, debootstrap and a
# running Docker engine. Takes a few minutes the first time (about 70 MB of packages).
set -euo pipefail
image=${1:-sessionmesh/debian-jre:17}
suite=${SUITE:-bookworm}

if [ "${REBUILD:-0}" != 1 ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "[base-image] $image already exists"
  exit 0
fi
command -v debootstrap >/dev/null 2>&1 || { echo "[base-image] debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }

# The mirror apt already uses: a deb822 'URIs:' line or a one-line 'deb <uri> <suite>' entry.
mirror=${DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(awk '/^URIs:/ && !/security/ && !found {print $2; found=1}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
fi
[ -n "$mirror" ] || { echo "[base-image] no Debian mirror found in apt's sources; set DEBIAN_MIRROR" >&2; exit 1; }

root=$(mktemp -d /var/tmp/sessionmesh-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
echo "[base-image] debootstrap $suite (minbase + openjdk-17-jre-headless) into $root"
debootstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates "$suite" "$root" "$mirror" \
  > "$root.log" 2>&1 || { tail -n 30 "$root.log" >&2; exit 1; }
rm -f "$root.log"
# Smaller image: no package lists, caches or docs.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
  "$root"/usr/share/doc/* "$root"/usr/share/man/*
echo "[base-image] importing as $image"
tar -C "$root" -c . | docker import \
  --change 'ENV LANG=C.UTF-8' \
  --change 'ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64' \
  --change 'CMD ["/bin/bash"]' \
  - "$image" >/dev/null
# Not `| head -n 1`: under pipefail, head's early exit kills the JVM's remaining output with SIGPIPE (status 141).
version=$(docker run --rm "$image" java -version 2>&1)
echo "[base-image] $image: ${version%%$'\n'*}"
