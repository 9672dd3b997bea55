# A throwaway PostgreSQL server for tests and benchmarks, from Debian's packages: a cluster made by
# initdb in a temporary folder, listening on a free loopback port and a socket in that folder, with
# trust authentication for loopback only; stopped and deleted when the calling script exits.
#   source Scripts/lib/postgres.sh; postgres_start    # exports ASSETC_TEST_POSTGRES=postgres://...
# No system service is started or needed. As root, the server runs as the `postgres` user (the
# server refuses root), which Debian's postgresql package creates.

postgres_bindir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
  done | sort -V | tail -1
}

postgres_install() {
  if [ -n "$(postgres_bindir)" ] && command -v psql >/dev/null 2>&1; then return 0; fi
  echo "postgres: installing Debian's postgresql package"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql postgresql-client >/dev/null
}

postgres_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

postgres_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

postgres_start() {
  postgres_install
  local bin
  bin="$(postgres_bindir)"
  if [ -z "$bin" ]; then echo "postgres: no initdb found after installing" >&2; return 1; fi
  POSTGRES_DIR="$(mktemp -d /tmp/assetc-postgres.XXXXXX)"
  chmod 755 "$POSTGRES_DIR"
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$POSTGRES_DIR"; fi
  postgres_as_owner "$bin/initdb" -D "$POSTGRES_DIR/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$POSTGRES_DIR/initdb.log" 2>&1 \
    || { cat "$POSTGRES_DIR/initdb.log" >&2; return 1; }
  POSTGRES_PORT="$(postgres_free_port)"
  # Enough connections for two indexers, two workers and a service's pool at once. Tests skip
  # fsync (the cluster is thrown away); benchmarks set POSTGRES_DURABLE=1 to run as a real server.
  local durability="-c fsync=off"
  if [ "${POSTGRES_DURABLE:-0}" = 1 ]; then durability=""; fi
  postgres_as_owner "$bin/pg_ctl" -D "$POSTGRES_DIR/data" -l "$POSTGRES_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $POSTGRES_PORT -k $POSTGRES_DIR -c max_connections=300 $durability" start >/dev/null \
    || { cat "$POSTGRES_DIR/server.log" >&2; return 1; }
  POSTGRES_BIN="$bin"
  export ASSETC_TEST_POSTGRES="postgres://postgres@127.0.0.1:$POSTGRES_PORT/postgres?sslmode=disable"
  trap postgres_stop EXIT
  echo "postgres: test server on 127.0.0.1:$POSTGRES_PORT ($("$bin/postgres" --version))"
}

postgres_stop() {
  if [ -n "${POSTGRES_DIR:-}" ] && [ -d "$POSTGRES_DIR/data" ]; then
    postgres_as_owner "$POSTGRES_BIN/pg_ctl" -D "$POSTGRES_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$POSTGRES_DIR"
  fi
  POSTGRES_DIR=""
}
