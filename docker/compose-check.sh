#!/usr/bin/env bash
# Brings docker-compose.yml up, checks that a request passes from host a's service through its sidecar to the
# master group and out through host b's sidecar and service, that killing the group's leader loses no session, that
# logging a client out everywhere (the active-session registry in PostgreSQL counting its sessions) ends its sessions
# on both hosts, and brings it down again (also on failure).
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

# Masters and sidecars talk mutual TLS with certificates of a development CA (docker-compose.yml mounts docker/tls/dev).
if [ ! -s docker/tls/dev/ca.pem ] || [ ! -s docker/tls/dev/sidecar-b.pem ]; then
  docker/tls/make-dev-certs.sh docker/tls/dev master-1 master-2 master-3 sidecar-a sidecar-b >/dev/null
fi

# The sidecars' admin endpoints are published, so they need a token: a fresh one for this check.
export SESSIONMESH_ADMIN_TOKEN=${SESSIONMESH_ADMIN_TOKEN:-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')}
admin=(-H "Authorization: Bearer $SESSIONMESH_ADMIN_TOKEN")
log "up (base image ${BASE_IMAGE:-eclipse-temurin:17-jre})"
compose up -d --build >/tmp/sessionmesh-compose-up.log 2>&1 || { cat /tmp/sessionmesh-compose-up.log; fail "docker-compose up"; }

# Every container healthy (compose v1 has no --wait): up to 3 minutes; one that exited or went unhealthy fails at once.
states=""
for i in $(seq 1 90); do
  ids=$(compose ps -a -q)
  [ "$(printf '%s\n' "$ids" | grep -c .)" -eq 8 ] || fail "expected 8 containers, found: $ids"
  states=$(printf '%s\n' "$ids" | xargs docker inspect -f '{{.Name}} {{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}') \
    || fail "docker inspect"
  if grep -qE ' (unhealthy|exited|dead)$' <<<"$states"; then fail "a container failed: $states"; fi
  grep -qv ' healthy$' <<<"$states" || break
  sleep 2
done
grep -qv ' healthy$' <<<"$states" && fail "not healthy after 3 minutes: $states"
log "all eight containers healthy"

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
