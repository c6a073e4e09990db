#!/usr/bin/env bash
# Brings docker-compose.yml up, checks that a request passes from host a's service through its sidecar to the
# master group and out through host b's sidecar and service, that both load balancers (HAProxy, nginx) keep every
# request of a session on one node whose sidecar answers it from its cache, that killing the group's leader loses no
# session, that logging a client out everywhere (the active-session registry in PostgreSQL counting its sessions)
# ends its sessions on both hosts, and brings it down again (also on failure).
#
#   docker/compose-check.sh        needs the jars (mvn package) and, with no image registry, BASE_IMAGE set to a local
#                                  image (docker/build-base-image.sh; .ci/run does both)
set -euo pipefail
# Under pipefail a reader that stops early (head, grep -q) kills its writer with SIGPIPE and fails the pipeline:
# match strings with here-strings, not pipes.
cd "$(dirname "$0")/.."
project=${COMPOSE_PROJECT_NAME:-sessionmesh-check}
compose() {
  if command -v docker-compose >/dev/null 2>&1; then docker-compose -p "$project" "$@"; else docker compose -p "$project" "$@"; fi
}
log() { printf '[compose] %s\n' "$*"; }
fail() {
  log "FAILED: $*"
  compose ps || true
  compose logs --tail 40 || true
  exit 1
}
trap 'compose down --volumes --remove-orphans >/dev/null 2>&1 || true' EXIT

# Masters and sidecars talk mutual TLS with certificates of a development CA (docker-compose.yml mounts each its own).
if [ ! -s docker/tls/dev/ca.pem ] || [ ! -s docker/tls/dev/sidecar-b.pem ]; then
  docker/tls/make-dev-certs.sh docker/tls/dev --role replica master-1 master-2 master-3 --role sidecar sidecar-a sidecar-b >/dev/null
fi

# The keys are 0600 and the servers refuse others' reading them (keys an earlier script made 0644 are made 0600 here):
# the containers run as the keys' owner.
chmod 0600 docker/tls/dev/*.key
export SESSIONMESH_UID=${SESSIONMESH_UID:-$(stat -c %u docker/tls/dev/master-1.key)}
export SESSIONMESH_GID=${SESSIONMESH_GID:-$(stat -c %g docker/tls/dev/master-1.key)}
# The sidecars' admin endpoints are published, so they need a token: a fresh one for this check.
export SESSIONMESH_ADMIN_TOKEN=${SESSIONMESH_ADMIN_TOKEN:-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')}
admin=(-H "Authorization: Bearer $SESSIONMESH_ADMIN_TOKEN")
log "up (base image ${BASE_IMAGE:-eclipse-temurin:17-jre})"
compose up -d --build >/tmp/sessionmesh-compose-up.log 2>&1 || { cat /tmp/sessionmesh-compose-up.log; fail "docker-compose up"; }

# Every container healthy (compose v1 has no --wait): up to 3 minutes; one that exited or went unhealthy fails at once.
states=""
for i in $(seq 1 90); do
  ids=$(compose ps -a -q)
  [ "$(printf '%s\n' "$ids" | grep -c .)" -eq 12 ] || fail "expected 12 containers, found: $ids"
  states=$(printf '%s\n' "$ids" | xargs docker inspect -f '{{.Name}} {{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}') \
    || fail "docker inspect"
  if grep -qE ' (unhealthy|exited|dead)$' <<<"$states"; then fail "a container failed: $states"; fi
  grep -qv ' healthy$' <<<"$states" || break
  sleep 2
done
grep -qv ' healthy$' <<<"$states" && fail "not healthy after 3 minutes: $states"
log "all twelve containers healthy"

login=$(curl -sf -X POST http://127.0.0.1:8080/deposits/login/C42) || fail "login on host a"
id=$(printf '%s' "$login" | sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p')
[ -n "$id" ] || fail "no session id in $login"
misses_before=$(curl -sf "${admin[@]}" http://127.0.0.1:7511/admin/stats | sed -n 's/.*"misses":\([0-9]*\).*/\1/p') || fail "admin stats of host b"
offer=$(curl -sf -H "X-Session-Id: $id" http://127.0.0.1:8081/deposits/offer) || fail "offer on host b"
grep -q '"currency":"RUB"' <<<"$offer" || fail "host b's offer lacks the session's currency: $offer"
misses_after=$(curl -sf "${admin[@]}" http://127.0.0.1:7511/admin/stats | sed -n 's/.*"misses":\([0-9]*\).*/\1/p') || fail "admin stats of host b"
case "$misses_before$misses_after" in ''|*[!0-9]*) fail "no miss counts in host b's admin stats" ;; esac
[ "$misses_after" -gt "$misses_before" ] || fail "host b's sidecar did not go to the master ($misses_before -> $misses_after misses)"
log "a session made on host a (service-a -> sidecar-a -> master) was read on host b (service-b -> sidecar-b -> master): ok"

cards=$(curl -sf -H "X-Session-Id: $id" http://127.0.0.1:8080/cards) || fail "cards on host a"
grep -q '"EUR"' <<<"$cards" && fail "host a shows a limit nobody set: $cards"
curl -sf -X PUT -H "X-Session-Id: $id" -H 'Content-Type: application/json' -d '{"currency": "EUR", "amount": 2500}' \
  http://127.0.0.1:8081/cards/limit >/dev/null || fail "limit on host b"
cards=$(curl -sf -H "X-Session-Id: $id" http://127.0.0.1:8080/cards) || fail "cards on host a"
grep -q '"EUR":2500' <<<"$cards" || fail "host a still shows the old limits after host b's write: $cards"
log "host b wrote a section host a had cached; host a's next read shows the write (the master invalidated it): ok"

# Stickiness at real load balancers: HAProxy on 8090 and nginx on 8091 (docker/haproxy, docker/nginx) in front of four
# nodes, a1 and a2 on host a (sharing sidecar-a), b1 and b2 on host b. Through each: sessions logged in (round robin:
# no session yet), then every read of a session, with the X-Session-Id header as a service sends it or with the
# cookies only as a browser does, must land on the one node the balancer's hash picks, and that host's sidecar must
# answer them from its cache: after the session's first read (a miss when the login was served on the other host),
# its hits grow by one a read and its misses (whole or partial) not at all. The sessions must spread over more than
# one node, or the balancer is not balancing, and the logins (round robin) must reach all four nodes, or the balancer
# holds one for down. Each balancer says which node answered: HAProxy's X-Served-By header names the server, nginx's
# X-Upstream gives its address (the host's IP on the compose network, the node's port).
lb_sessions=8
lb_reads=40   # after each session's first read: odd ones with the header, even ones with the cookies only
lb_tmp=$(mktemp -d)
trap 'rm -rf "$lb_tmp"; compose down --volumes --remove-orphans >/dev/null 2>&1 || true' EXIT
address_of() { docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(compose ps -q "$1")"; }
ip_a=$(address_of sidecar-a) && ip_b=$(address_of sidecar-b) || fail "the hosts' addresses (docker inspect)"
[ -n "$ip_a" ] && [ -n "$ip_b" ] || fail "no address for sidecar-a ($ip_a) or sidecar-b ($ip_b)"
# The node that answered, from a response's headers: a1, a2, b1 or b2, or nothing when no header names one of them
# (nginx retrying a second node would give two addresses: nothing).
node_of() {
  local v
  v=$(tr -d '\r' <<<"$1" | sed -n 's/^x-served-by: *//Ip; s/^x-upstream: *//Ip')
  case "$v" in
    a1|a2|b1|b2) printf '%s' "$v" ;;
    "$ip_a:8080") printf a1 ;; "$ip_a:8082") printf a2 ;; "$ip_b:8080") printf b1 ;; "$ip_b:8082") printf b2 ;;
  esac
}
# GET /deposits/offer through a balancer (port, then curl's header flags): prints the node that answered; fails
# unless the answer is 200 with the session's currency and names a node.
offer_node() {
  local port=$1 headers node
  shift
  headers=$(curl -sf -D - -o "$lb_tmp/offer" "$@" "http://127.0.0.1:$port/deposits/offer") || return 1
  grep -q '"currency":"RUB"' "$lb_tmp/offer" || return 1
  node=$(node_of "$headers")
  [ -n "$node" ] || return 1
  printf '%s' "$node"
}
# One figure of a sidecar's /admin/stats answer.
stat_of() { sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" <<<"$1"; }
# A sidecar's reads answered from its cache and those that went to the master (whole or partial misses), by its
# admin port: "<hits> <misses>"; fails when the answer lacks them.
cache_figures() {
  local stats h m p
  stats=$(curl -sf "${admin[@]}" "http://127.0.0.1:$1/admin/stats") || return 1
  h=$(stat_of "$stats" hits); m=$(stat_of "$stats" misses); p=$(stat_of "$stats" partial_hits)
  [ -n "$h" ] && [ -n "$m" ] && [ -n "$p" ] || return 1
  printf '%s %s' "$h" "$((m + p))"
}
lb_check() {
  local lb=$1 port=$2
  local s client headers id cookie_id route login_node first host admin_port r node on_first
  local hits_before misses_before hits_after misses_after dh dm figures
  local requests=0 on_one=0 hits=0 misses=0 logins="" used=""
  for s in $(seq 1 "$lb_sessions"); do
    client="LB-$lb-$s"
    headers=$(curl -sf -D - -o "$lb_tmp/login" -X POST "http://127.0.0.1:$port/deposits/login/$client") \
      || fail "login of $client through $lb"
    id=$(sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' "$lb_tmp/login")
    cookie_id=$(tr -d '\r' <<<"$headers" | sed -n 's/^set-cookie: *SESSIONMESH=\([^;]*\).*/\1/Ip')
    route=$(tr -d '\r' <<<"$headers" | sed -n 's/^set-cookie: *SMROUTE=\([^;]*\).*/\1/Ip')
    [ -n "$id" ] && [ "$cookie_id" = "$id" ] && [ -n "$route" ] \
      || fail "the login of $client through $lb did not answer its id in the body and the cookies: $headers"
    login_node=$(node_of "$headers")
    [ -n "$login_node" ] || fail "the login of $client through $lb names no node: $headers"
    logins="$logins $login_node"
    first=$(offer_node "$port" -H "X-Session-Id: $id") || fail "the first read of $client's session through $lb"
    host=${first:0:1}
    admin_port=7501; [ "$host" = b ] && admin_port=7511
    figures=$(cache_figures "$admin_port") || fail "no hits and misses in the admin stats of host $host"
    read -r hits_before misses_before <<<"$figures"
    on_first=1
    for r in $(seq 1 "$lb_reads"); do
      if [ $((r % 2)) = 1 ]; then
        node=$(offer_node "$port" -H "X-Session-Id: $id") || fail "read $r of $client's session through $lb (header)"
      else
        node=$(offer_node "$port" -H "Cookie: SESSIONMESH=$id; SMROUTE=$route") \
          || fail "read $r of $client's session through $lb (cookies only)"
      fi
      if [ "$node" = "$first" ]; then on_first=$((on_first + 1)); fi
    done
    figures=$(cache_figures "$admin_port") || fail "no hits and misses in the admin stats of host $host"
    read -r hits_after misses_after <<<"$figures"
    requests=$((requests + lb_reads + 1))
    on_one=$((on_one + on_first))
    [ "$on_first" = $((lb_reads + 1)) ] \
      || fail "$lb: only $on_first of the $((lb_reads + 1)) reads of $client's session landed on $first, the node of its first read"
    dh=$((hits_after - hits_before))
    dm=$((misses_after - misses_before))
    [ "$dh" -ge "$lb_reads" ] && [ "$dm" = 0 ] \
      || fail "$lb: host $host's sidecar answered $client's $lb_reads reads after the first with $dh hits and $dm misses (expected $lb_reads hits and no miss)"
    hits=$((hits + dh))
    misses=$((misses + dm))
    used="$used $first"
  done
  local distinct
  distinct=$(tr ' ' '\n' <<<"$used" | sed '/^$/d' | sort | uniq -c | awk '{printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1}')
  [ "$(wc -w <<<"$distinct")" -gt 1 ] || fail "$lb sent all $lb_sessions sessions to one node ($distinct): it is not balancing"
  # Round robin over four nodes: eight logins reach each (one missing is a node the balancer thinks is down).
  for node in a1 a2 b1 b2; do
    grep -qw "$node" <<<"$logins" || fail "$lb sent none of $lb_sessions logins to $node (logins on$logins)"
  done
  log "$lb (127.0.0.1:$port): $lb_sessions sessions, $requests reads (each session's: 1 + $lb_reads, half with X-Session-Id, half with cookies only), sessions by node $distinct, $((100 * on_one / requests))% of each session's reads on one node; serving sidecars +$hits hits, +$misses misses after each first read; logins on$logins: ok"
}
lb_check haproxy 8090
lb_check nginx 8091

# The group's leader dies (SIGKILL): the session lives on in the other two replicas, and a write after the failover
# is seen on both hosts.
health=$(curl -sf "${admin[@]}" http://127.0.0.1:7511/admin/health) || fail "admin health of host b"
leader=$(printf '%s' "$health" | sed -n 's/.*"leader":"\(master-[123]\):7400".*/\1/p')
[ -n "$leader" ] || fail "host b's sidecar names no leader of the group: $health"
compose kill "$leader" >/dev/null 2>&1 || fail "kill $leader"
log "killed the group's leader, $leader"
written=""
for i in $(seq 1 30); do
  if curl -sf -X PUT -H "X-Session-Id: $id" -H 'Content-Type: application/json' -d '{"currency": "EUR", "amount": 3100}'       http://127.0.0.1:8081/cards/limit >/dev/null 2>&1; then written=yes; break; fi
  sleep 1
done
[ -n "$written" ] || fail "no write on host b within 30 s of killing $leader"
cards=""
for i in $(seq 1 15); do
  cards=$(curl -sf -H "X-Session-Id: $id" http://127.0.0.1:8080/cards) && grep -q '"EUR":3100' <<<"$cards" && break
  sleep 1
done
grep -q '"EUR":3100' <<<"$cards" || fail "host a does not show host b's write after the failover: $cards"
log "after $leader's death the session was still there, host b wrote it and host a read the write: ok"
# Nothing reaches a master without a certificate: a PING frame in plain TCP from inside host a gets no frame back
# (the master's TLS handler closes the connection on bytes that are not a TLS record).
alive=master-1; [ "$leader" = master-1 ] && alive=master-2
reply=$(compose exec -T sidecar-a bash -c 'exec 3<>/dev/tcp/'"$alive"'/7400 && printf "SMMF\x01\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00" >&3 && timeout 5 head -c 4 <&3 | od -An -c' 2>/dev/null || true)
[ -n "$reply" ] || reply="(nothing)"
grep -q 'S   M   M   F' <<<"$reply" && fail "$alive answered a plaintext PING: $reply"
health=$(curl -sf "${admin[@]}" http://127.0.0.1:7501/admin/health) || fail "admin health of host a"
grep -qE '"status": ?"UP"' <<<"$health" || fail "sidecar-a is not UP over TLS: $health"
log "a plaintext PING to $alive got no frame back ($reply); the sidecars reach the masters over mutual TLS: ok"

# Log a client out everywhere (the group still without its killed replica): a session on each host, both counted in
# the registry (which the group's new leader writes); one logout through host a's sidecar deletes both on the master,
# and neither session answers on either host afterwards.
client=C77
sessions=()
for port in 8080 8081; do
  login=$(curl -sf -X POST "http://127.0.0.1:$port/deposits/login/$client") || fail "login of $client on 127.0.0.1:$port"
  sid=$(sed -n 's/.*"sessionId":"\([^"]*\)".*/\1/p' <<<"$login")
  [ -n "$sid" ] || fail "no session id in $login"
  sessions+=("$sid")
done
# The HTTP status of the offer page for a session id through one host's service.
offer_status() { curl -s -o /dev/null -w '%{http_code}' -H "X-Session-Id: $1" "http://127.0.0.1:$2/deposits/offer" || true; }
for sid in "${sessions[@]}"; do
  for port in 8080 8081; do
    code=$(offer_status "$sid" "$port")
    [ "$code" = 200 ] || fail "session of $client from its login answers $code on 127.0.0.1:$port"
  done
done
log "$client logged in on host a and on host b: two sessions, each answering 200 on both hosts: ok"
# The registry is written behind the masters' answers (a batch every 20 ms or so): wait up to 15 s for both rows.
counts=""
for i in $(seq 1 15); do
  counts=$(curl -sf "${admin[@]}" 'http://127.0.0.1:7511/admin/registry/count?by=principal') \
    && grep -qE "\"$client\": ?2[,}]" <<<"$counts" && break
  sleep 1
done
grep -qE "\"$client\": ?2[,}]" <<<"$counts" \
  || fail "the registry does not count 2 sessions of $client: $counts; $(curl -s "${admin[@]}" http://127.0.0.1:7511/admin/registry/health || true)"
log "the registry counts them (host b's sidecar, GET /admin/registry/count?by=principal): $counts"
logout=$(curl -sf -X POST "${admin[@]}" "http://127.0.0.1:7501/admin/principals/$client/logout") \
  || fail "logout of $client through host a's sidecar"
grep -qE '"deleted": ?2[,}]' <<<"$logout" || fail "the logout did not delete 2 sessions of $client: $logout"
grep -qE '"complete": ?true' <<<"$logout" || fail "the logout did not reach every master: $logout"
log "POST /admin/principals/$client/logout (host a's sidecar): $logout"
# No waiting: each sidecar's copy is invalidated before the master answers the logout. The example service answers
# 404 for a session its sidecar does not know (SessionMeshErrorAdvice).
for sid in "${sessions[@]}"; do
  for port in 8080 8081; do
    code=$(offer_status "$sid" "$port")
    [ "$code" = 404 ] || fail "a session of $client answers $code on 127.0.0.1:$port after the logout (expected 404)"
  done
done
log "after the logout both sessions answer 404 on both hosts: ok"
for i in $(seq 1 15); do
  counts=$(curl -sf "${admin[@]}" 'http://127.0.0.1:7511/admin/registry/count?by=principal') \
    && ! grep -q "\"$client\"" <<<"$counts" && break
  sleep 1
done
grep -q "\"$client\"" <<<"$counts" && fail "the registry still counts sessions of $client after the logout: $counts"
listed=$(curl -sf "${admin[@]}" "http://127.0.0.1:7511/admin/principals/$client/sessions") || fail "sessions of $client"
grep -qE '"count": ?0[,}]' <<<"$listed" || fail "the registry still lists sessions of $client: $listed"
log "the registry no longer counts or lists them: $counts: ok"
log "down"
