#!/usr/bin/env bash
# The PostgreSQL workloads on a throwaway server: builds the CLI and the benchmarks with the
# PostgreSQL trait, starts PostgreSQL (Debian's postgresql and postgresql-contrib) in a temporary
# directory on 127.0.0.1 and a free port, runs `CatalogueBenchmarks --workloads postgres`, then
# stops the server and removes it.
#
#   Benchmarks/postgres.sh --sizes 1000000 --rounds 20 --output /tmp/postgres.md
#
# Arguments are passed to CatalogueBenchmarks. Server settings: shared_buffers 1 GB (the
# catalogue fits in memory, as SQLite's file does in the page cache), everything else default
# (fsync on). As root, the server runs as the `postgres` user (initdb refuses root).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ] || ! compgen -G "/usr/share/postgresql/*/extension/pg_trgm.control" >/dev/null; then
    echo "postgres.sh: needs PostgreSQL with pg_trgm: apt-get install postgresql postgresql-contrib" >&2
    exit 1
fi
command -v pgbench >/dev/null || { echo "postgres.sh: needs pgbench (postgresql-contrib)" >&2; exit 1; }

swift build -c release --traits PostgreSQL --product catalogue
swift build -c release --package-path Benchmarks --traits PostgreSQL --product CatalogueBenchmarks

run_as=()
directory="$(mktemp -d /tmp/catalogue-postgres-bench.XXXXXX)"
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$directory"
    run_as=(setpriv --reuid=postgres --regid=postgres --clear-groups)
fi
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
stop() {
    "${run_as[@]}" "$bin/pg_ctl" -D "$directory/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$directory"
}
trap stop EXIT
"${run_as[@]}" "$bin/initdb" -D "$directory/data" -U catalogue --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${run_as[@]}" "$bin/pg_ctl" -D "$directory/data" -l "$directory/server.log" -w start -o \
    "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$directory -c shared_buffers=1GB -c max_connections=50" >/dev/null

Benchmarks/.build/release/CatalogueBenchmarks --workloads postgres \
    --postgres "postgres://catalogue@127.0.0.1:$port/postgres" --catalogue "$PWD/.build/release/catalogue" "$@"
