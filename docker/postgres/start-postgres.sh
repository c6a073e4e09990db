#!/usr/bin/env bash
# The registry database's start (docker/postgres/Dockerfile): sets the password of the role sessionmesh to the
# registry-password of the mounted registry settings file, on a server that listens on no network address, then
# runs PostgreSQL in the foreground on port 5432. Setting it at every start (not once) lets a changed file take
# effect on a restart.
# registry-user, if the file has it, must be sessionmesh: the role this image has.
set -euo pipefail
settings=/etc/sessionmesh/registry.properties
fail() { printf 'registry-postgres: %s\n' "$*" >&2; exit 2; }

[ -r "$settings" ] || fail "$settings cannot be read: mount the registry settings file there (docker-compose.yml does)"
# One key of a properties file, as java.util.Properties reads it for the values allowed here (no escapes).
setting() { sed -n "s/^[[:space:]]*$1[[:space:]]*[=:][[:space:]]*//p" "$settings" | sed -n '$s/[[:space:]]*$//p'; }
user=$(setting registry-user)
[ -z "$user" ] || [ "$user" = sessionmesh ] || fail "$settings: registry-user = $user; this image's role is sessionmesh"
password=$(setting registry-password)
[ -n "$password" ] || fail "$settings has no registry-password"
# Backslashes and spaces would mean something else to the Java side's properties reader: refuse them rather than
# let the two sides disagree.
case "$password" in
  *[!A-Za-z0-9._~+/=-]*) fail "$settings: registry-password has characters other than letters, digits and ._~+/=-" ;;
esac

pg_ctl --pgdata "$PGDATA" --options "-c listen_addresses=''" --silent --wait start >/dev/null
# The password goes in on psql's standard input, as a variable psql quotes (:'...'): never on a command line.
psql -X -q -v ON_ERROR_STOP=1 --dbname postgres <<SQL
\\set password $password
ALTER ROLE sessionmesh PASSWORD :'password';
SQL
pg_ctl --pgdata "$PGDATA" --mode fast --silent --wait stop >/dev/null
echo "registry-postgres: role sessionmesh has the password of $settings; starting on port 5432"
exec postgres -D "$PGDATA"
