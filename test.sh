#!/usr/bin/env bash
# The whole test suite, on a fresh Debian or Ubuntu machine with nothing installed by hand:
#
#   ./test.sh
#
# 1. installs what the suite needs and the machine lacks, from the distribution's packages (a JDK 17 and Maven;
#    Redis and PostgreSQL; promtool, which checks the /metrics text; Chromium and ChromeDriver, which drive the
#    operators' page; Docker, docker-compose and debootstrap, for the container tests; iproute2 and iptables, for the
#    test hosts tests), everything else from Maven Central;
# 2. starts the services the tests reach on loopback, if they are not up: Redis (6379), PostgreSQL (5432) and a
#    Docker engine, with the project's base image built locally (docker/build-base-image.sh: no image is pulled);
# 3. runs `mvn -B -ntp verify` over every module, the container tests required (they fail, never skip, without
#    Docker; the base image builds beside Maven's first modules), then brings docker-compose.yml up and checks
#    requests through it (docker/compose-check.sh);
# 4. stops what it started.
#
# Installing needs root, or sudo. Exit status: 0 when everything passed. Extra arguments go to Maven
# (./test.sh -pl wire -am), and then the compose check is left out (it needs every module's jar).
# Long runs are opt-in and not part of it: docs/development.md lists them.
set -euo pipefail
cd "$(dirname "$0")"

log() { printf '[test] %s\n' "$*"; }
first_line() { sed -n 1p; }   # reads all its input: `head -n 1` would SIGPIPE the writer under pipefail

as_root=()
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then as_root=(sudo); fi
fi
apt_updated=0
apt_install() {
  if [ "$(id -u)" != 0 ] && [ ${#as_root[@]} = 0 ]; then
    log "missing, and neither root nor sudo to install it: apt-get install $*"
    exit 1
  fi
  command -v apt-get >/dev/null 2>&1 || { log "missing, and no apt-get to install it: $*"; exit 1; }
  if [ "$apt_updated" = 0 ]; then "${as_root[@]}" apt-get update -qq; apt_updated=1; fi
  log "installing: $*"
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}
need() { # need <command> <package...>: installs the packages when the command is missing
  local cmd=$1; shift
  command -v "$cmd" >/dev/null 2>&1 || apt_install "$@"
}

need java openjdk-17-jdk-headless
need mvn maven
need redis-server redis-server
need pg_ctlcluster postgresql
# promtool (Debian's prometheus package) checks the sidecar's and the master's /metrics text (MetricsEndpointsIT).
if ! command -v promtool >/dev/null 2>&1; then
  apt_install --no-install-recommends prometheus
  # only promtool is wanted: on a host with systemd the package also starts a Prometheus server
  if command -v systemctl >/dev/null 2>&1 && systemctl is-system-running >/dev/null 2>&1; then
    "${as_root[@]}" systemctl disable --now prometheus >/dev/null 2>&1 || true
  fi
fi
# OperatorsPageIT drives the sidecar's operators' page in headless Chromium (nothing is downloaded at test time).
need chromium --no-install-recommends chromium chromium-driver
need chromedriver --no-install-recommends chromium chromium-driver
need dockerd docker.io
need docker-compose docker-compose
need debootstrap debootstrap
need curl curl
# The test hosts tests (testing/, docs/testing-hosts.md) make network namespaces with ip and faults with iptables.
need ip iproute2
need iptables iptables
# docker/tls/make-dev-certs.sh makes the certificates of the TLS tests and of docker-compose.yml.
need openssl openssl
log "java: $(java -version 2>&1 | first_line); maven: $(mvn -v 2>/dev/null | first_line)"
if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then
  log "second JDK: $(/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -version 2>&1 | first_line): the serialization tests and DepositFlowIT run on it too"
else
  log "no JDK at /usr/lib/jvm/temurin-25-jdk-amd64: the second run of the serialization tests on JDK 25 is left out (-Djdk25.java=<java> names another)"
fi

# Services on loopback, started the way this machine kind starts them; stopped at the end if this script started them.
started=()
dockerd_pid=
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
cleanup() {
  for s in "${started[@]:-}"; do
    case "$s" in
      dockerd)
        "${as_root[@]}" kill "$dockerd_pid" 2>/dev/null || true
        for i in $(seq 1 30); do "${as_root[@]}" kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 1; done ;;
      redis) redis-cli -p 6379 shutdown nosave >/dev/null 2>&1 || true ;;
      postgresql) "${as_root[@]}" pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | first_line)" main stop || true ;;
    esac
  done
}
trap cleanup EXIT
if ! port_open 6379; then
  log "starting redis"
  "${as_root[@]}" mkdir -p /var/lib/redis /var/log/redis
  "${as_root[@]}" redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  started+=(redis)
fi
if ! port_open 5432; then
  log "starting postgresql"
  "${as_root[@]}" pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | first_line)" main start
  started+=(postgresql)
fi
for i in $(seq 1 30); do port_open 6379 && port_open 5432 && break; sleep 1; done
port_open 6379 || { log "redis is not up on 127.0.0.1:6379"; exit 1; }
port_open 5432 || { log "postgresql is not up on 127.0.0.1:5432"; exit 1; }

if ! "${as_root[@]}" docker info >/dev/null 2>&1; then
  log "starting dockerd"
  dockerd_log=${TMPDIR:-/tmp}/sessionmesh-dockerd.log
  "${as_root[@]}" dockerd > "$dockerd_log" 2>&1 &   # under sudo, sudo passes the TERM of cleanup on to dockerd
  dockerd_pid=$!
  started+=(dockerd)
  for i in $(seq 1 60); do "${as_root[@]}" docker info >/dev/null 2>&1 && break; sleep 1; done
  "${as_root[@]}" docker info >/dev/null 2>&1 || { tail -n 20 "$dockerd_log"; log "dockerd did not start"; exit 1; }
fi
log "docker: $("${as_root[@]}" docker version --format '{{.Server.Version}}' 2>/dev/null)"
# The base image (debootstrap, about a minute when it is not there yet) is built beside Maven's first modules: only
# container-tests, near the end of the build, needs it. Its output goes to a log; a failed build fails the run.
image_log=${TMPDIR:-/tmp}/sessionmesh-base-image.log
"${as_root[@]}" docker/build-base-image.sh sessionmesh/debian-jre:17 > "$image_log" 2>&1 &
image_pid=$!
export SESSIONMESH_DOCKER_REQUIRED=true

mvn_status=0
mvn -B -ntp verify "$@" || mvn_status=$?
image_status=0
wait "$image_pid" || image_status=$?
if [ "$image_status" != 0 ]; then
  tail -n 30 "$image_log"
  log "the base image sessionmesh/debian-jre:17 did not build (exit status $image_status; log: $image_log)"
  exit 1
fi
log "base image: $(tail -n 1 "$image_log")"
[ "$mvn_status" = 0 ] || exit "$mvn_status"

# docker-compose.yml: up, a request through both hosts' services and sidecars to the master group, every request of
# a session on one node through each load balancer (HAProxy, nginx), a leader killed, a logout everywhere through
# the registry, down. Compose builds the registry's and the balancers' images itself, on the same base image.
if [ $# = 0 ]; then
  BASE_IMAGE=sessionmesh/debian-jre:17 "${as_root[@]}" docker/compose-check.sh
fi
log "passed"
