#!/usr/bin/env bash
# Makes a development certificate authority and one certificate per peer, for mutual TLS between sidecars and masters
# (docs/operations.md "TLS between sidecars and masters", docs/security.md). Development and tests only: the CA's key
# sits beside the certificates it signed. In production, certificates come from your own PKI; SessionMesh only reads PEM
# files.
#
#   docker/tls/make-dev-certs.sh OUT_DIR NAME[:SAN,SAN...] ...
#
# For each NAME it writes OUT_DIR/NAME.pem (the certificate, then the CA's: the chain a peer presents) and
# OUT_DIR/NAME.key (its PKCS#8 private key, mode 0600: masters and sidecars refuse a key others may read), with the
# subject CN=NAME and the subject alternative names
# given after the colon (DNS names or IP addresses; a master's certificate must name every address sidecars use to
# reach it: sidecars check it). Every certificate may serve and connect (extended key usage serverAuth and
# clientAuth): masters also connect to masters. OUT_DIR/ca.pem is the CA's certificate, the file each peer trusts.
# An existing CA in OUT_DIR is reused, so certificates can be added later. Needs the openssl command (Debian's
# openssl package).
#
#   docker/tls/make-dev-certs.sh docker/tls/dev master-1:master-1,localhost,127.0.0.1 sidecar-a sidecar-b
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2
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

for spec in "$@"; do
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
  alt=${alt#,}
  ext=$(mktemp)
  trap 'rm -f "$ext"' EXIT
  printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
    "extendedKeyUsage=serverAuth,clientAuth" "subjectAltName=$alt" > "$ext"
  (umask 077 && openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$out/$name.key" 2>/dev/null)
  chmod 0600 "$out/$name.key"  # only its owner: the master and the sidecar refuse a key others may read
  openssl req -new -key "$out/$name.key" -subj "/CN=$name" -out "$out/$name.csr"
  openssl x509 -req -in "$out/$name.csr" -CA "$out/ca.pem" -CAkey "$out/ca.key" -CAcreateserial -sha256 \
    -days "$DAYS" -extfile "$ext" -out "$out/$name.crt" 2>/dev/null
  cat "$out/$name.crt" "$out/ca.pem" > "$out/$name.pem"
  rm -f "$out/$name.csr" "$out/$name.crt" "$ext"
  echo "$out/$name.pem ($alt)"
done
