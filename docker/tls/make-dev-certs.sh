#!/usr/bin/env bash
# Makes a development certificate authority and one certificate per peer, for mutual TLS between sidecars and masters
# (docs/operations.md "TLS between sidecars and masters", docs/security.md). Development and tests only: the CA's key
# sits beside the certificates it signed. In production, certificates come from your own PKI; SessionMesh only reads PEM
# files.
#
#   docker/tls/make-dev-certs.sh OUT_DIR --role ROLE NAME[:SAN,SAN...] ... [--role ROLE NAME ...]
#
# Each certificate carries the role of the peer it is for (SECURITY.md, "Roles"), as the URI subject alternative name
# urn:sessionmesh:role:ROLE; --role applies to the names after it:
#   replica   a master replica: Raft between replicas, GROUP_APPLY and GROUP_IMPORT (server and client use)
#   sidecar   a sidecar: the data operations and REGISTER (client use only)
#   operator  the operator's `groups` command: GROUP_CHANGE and the cluster map (client use only)
# For each NAME it writes OUT_DIR/NAME.pem (the certificate, then the CA's: the chain a peer presents) and
# OUT_DIR/NAME.key (its PKCS#8 private key, mode 0600: masters and sidecars refuse a key
# others may read), with the subject CN=NAME and the DNS names or IP addresses given after the
# colon (NAME alone by default). A replica's certificate must name every address sidecars and other replicas use to
# reach it: they check it, and a replica is known by the host its certificate names (the host of --replicas).
# OUT_DIR/ca.pem is the CA's certificate, the file each peer trusts. An existing CA in OUT_DIR is reused, so
# certificates can be added later. Needs the openssl command (Debian's openssl package).
#
#   docker/tls/make-dev-certs.sh docker/tls/dev --role replica master-1:master-1,localhost,127.0.0.1 \
#     --role sidecar sidecar-a sidecar-b --role operator operator
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
command -v openssl >/dev/null || { echo "make-dev-certs: openssl is not installed (apt-get install openssl)" >&2; exit 1; }

out=$1
shift
mkdir -p "$out"
# Validity of the development certificates, in days.
DAYS=825

if [ ! -s "$out/ca.pem" ] || [ ! -s "$out/ca.key" ]; then
  (umask 077 && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/ca.key" 2>/dev/null)
  openssl req -x509 -new -key "$out/ca.key" -sha256 -days "$DAYS" -subj "/CN=SessionMesh development CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out "$out/ca.pem"
fi

role=
for spec in "$@"; do
  if [ "$spec" = --role ]; then
    role=next
    continue
  fi
  if [ "$role" = next ]; then
    case "$spec" in
      replica|sidecar|operator) role=$spec; continue ;;
      *) echo "make-dev-certs: unknown role '$spec' (replica, sidecar or operator)" >&2; exit 2 ;;
    esac
  fi
  if [ -z "$role" ]; then
    echo "make-dev-certs: say the role of '$spec' first: --role replica|sidecar|operator" >&2
    exit 2
  fi
  name=${spec%%:*}
  sans=
  [ "$spec" != "$name" ] && sans=${spec#*:}
  case "$name" in
    ''|*/*|*' '*) echo "make-dev-certs: bad name '$name' (no spaces or slashes)" >&2; exit 2 ;;
  esac
  alt=
  IFS=',' read -ra parts <<< "${sans:-$name}"
  for s in "${parts[@]}"; do
    [ -z "$s" ] && continue
    if [[ "$s" =~ ^[0-9.]+$ || "$s" == *:* ]]; then alt="$alt,IP:$s"; else alt="$alt,DNS:$s"; fi
  done
  alt="URI:urn:sessionmesh:role:$role$alt"
  # a replica serves (sidecars and replicas dial it) and connects (to other replicas); the others only connect
  usage=clientAuth
  [ "$role" = replica ] && usage=serverAuth,clientAuth
  ext=$(mktemp)
  trap 'rm -f "$ext"' EXIT
  printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
    "extendedKeyUsage=$usage" "subjectAltName=$alt" > "$ext"
  (umask 077 && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/$name.key" 2>/dev/null)
  chmod 0600 "$out/$name.key"  # only its owner: the master and the sidecar refuse a key others may read
  openssl req -new -key "$out/$name.key" -subj "/CN=$name" -out "$out/$name.csr"
  openssl x509 -req -in "$out/$name.csr" -CA "$out/ca.pem" -CAkey "$out/ca.key" -CAcreateserial -sha256 \
    -days "$DAYS" -extfile "$ext" -out "$out/$name.crt" 2>/dev/null
  cat "$out/$name.crt" "$out/ca.pem" > "$out/$name.pem"
  rm -f "$out/$name.csr" "$out/$name.crt" "$ext"
  echo "$out/$name.pem ($role: $alt)"
done
