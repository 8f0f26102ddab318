#!/usr/bin/env bash
# A streaming replica of the test PostgreSQL (127.0.0.1:5432) on 127.0.0.1:5433, for the read
# replica tests (packages/sql/test/replicas.test.ts, the library example's suite): a second
# cluster of the same version, made with pg_createcluster and filled by pg_basebackup -R, so that
# it follows the primary's WAL (hot standby: read-only queries). Idempotent: a replica that
# exists is started (or left running); one that cannot follow the primary any more is made anew.
#
#   .ci/replica.sh          start it (make it first if needed), wait until it streams
#   .ci/replica.sh stop     stop it (the tests that kill it mid-load start it again)
#   .ci/replica.sh remake   drop it and make it anew
set -euo pipefail

VERSION="${PG_VERSION:-$(ls /etc/postgresql | sort -n | tail -n 1)}"
NAME=replica
PORT="${REPLICA_PORT:-5433}"
PRIMARY_PORT=5432
CONF="/etc/postgresql/$VERSION/$NAME"
DATA="/var/lib/postgresql/$VERSION/$NAME"
as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
primary() { psql -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -d postgres -tAqc "$1"; }
replica() { psql -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -tAqc "$1"; }

# Whether the replica answers and its WAL receiver streams from the primary.
streaming() { [ "$(replica "select count(*) from pg_stat_wal_receiver where status = 'streaming'" 2>/dev/null)" = 1 ]; }

wait_streaming() {
  for _ in $(seq 1 60); do streaming && return 0; sleep 1; done
  return 1
}

# The primary lets replication connections from 127.0.0.1 in (the same trust as its other
# entries: a test machine's), with wal_level=replica (PostgreSQL's default) and WAL senders.
allow_replication() {
  local hba
  hba="$(primary 'show hba_file')"
  if ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$hba"; then
    echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
    primary 'select pg_reload_conf()' >/dev/null
  fi
  local level
  level="$(primary 'show wal_level')"
  if [ "$level" = minimal ]; then
    echo "the primary runs with wal_level=minimal: set it to replica and restart it" >&2
    exit 1
  fi
}

make_replica() {
  echo "making the streaming replica $VERSION/$NAME on port $PORT"
  allow_replication
  if [ -d "$CONF" ]; then pg_dropcluster --stop "$VERSION" "$NAME"; fi
  pg_createcluster "$VERSION" "$NAME" -p "$PORT" >/dev/null
  # The primary's client authentication (trust from 127.0.0.1 on this machine), and read-only
  # queries while it replays; hot_standby_feedback keeps the primary's vacuum from cancelling them.
  cp "/etc/postgresql/$VERSION/main/pg_hba.conf" "$CONF/pg_hba.conf"
  cat >>"$CONF/postgresql.conf" <<CONFIG
listen_addresses = '127.0.0.1'
hot_standby = on
hot_standby_feedback = on
max_connections = 100
CONFIG
  # pg_createcluster made the directory (postgres may not make one in its parent): emptied for the base backup.
  find "$DATA" -mindepth 1 -delete
  as_postgres pg_basebackup -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DATA" -R -X stream -c fast
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$NAME" start
}

case "${1:-start}" in
  stop)
    if [ -d "$CONF" ]; then pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$NAME" stop -m fast || true; fi
    exit 0
    ;;
  remake)
    make_replica
    ;;
  start)
    if streaming; then exit 0; fi
    if [ -f "$DATA/standby.signal" ]; then
      pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$NAME" start 2>/dev/null || true
      # Stopped long enough for the primary to recycle the WAL it needs: made anew.
      wait_streaming || make_replica
    else
      make_replica
    fi
    ;;
  *)
    echo "usage: $0 [start|stop|remake]" >&2
    exit 2
    ;;
esac
if ! wait_streaming; then
  echo "the replica on port $PORT does not stream from the primary (see /var/log/postgresql/postgresql-$VERSION-$NAME.log)" >&2
  exit 1
fi
echo "the streaming replica answers on 127.0.0.1:$PORT"
