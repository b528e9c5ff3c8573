#!/usr/bin/env bash
# Starts a throwaway MariaDB server for the integration tests and exports
# POOLKIT_MYSQL_DSN, the go-sql-driver/mysql DSN they read.
#
# Use it from bash in one of two ways:
#
#   source .ci/mariadb.sh     # starts the server, exports POOLKIT_MYSQL_DSN,
#                             # and stops it (and deletes its files) on EXIT
#
#   eval "$(.ci/mariadb.sh)"  # starts it and prints export lines, including
#   ...                       # POOLKIT_MARIADB_DIR; the server keeps running
#   .ci/mariadb.sh stop       # stops the server in $POOLKIT_MARIADB_DIR
#
# It installs Debian's mariadb-server if mariadbd is missing (apt-get update
# once, noninteractive; as root or through sudo), creates a data directory in
# a fresh temp folder with mariadb-install-db, and starts mariadbd on a unix
# socket in that folder with networking off, so it neither needs nor takes a
# port. When run as root the server runs as the mysql user, which the Debian
# package creates. The DSN logs in as root without a password over the
# socket; the server accepts no other connections.

poolkit_mariadb_log() { echo "mariadb.sh: $*" >&2; }

poolkit_mariadb_install() {
	if command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; then
		return 0
	fi
	local sudo=""
	if [ "$(id -u)" != 0 ]; then
		sudo="sudo"
	fi
	poolkit_mariadb_log "installing mariadb-server (apt-get)"
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 || return 1
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		mariadb-server mariadb-client >&2 || return 1
}

poolkit_mariadb_start() {
	poolkit_mariadb_install || { poolkit_mariadb_log "could not install mariadb-server"; return 1; }
	export PATH="$PATH:/usr/sbin"

	local dir user=""
	dir="$(mktemp -d /tmp/poolkit-mariadb.XXXXXX)" || return 1
	mkdir -p "$dir/data" "$dir/tmp"
	if [ "$(id -u)" = 0 ]; then
		# mariadbd refuses to run as root unless told to; run it as mysql.
		user="mysql"
		chown -R mysql: "$dir"
		chmod 755 "$dir"
	fi
	POOLKIT_MARIADB_DIR="$dir"
	export POOLKIT_MARIADB_DIR

	poolkit_mariadb_log "initialising $dir/data"
	if ! mariadb-install-db --no-defaults ${user:+--user=$user} --datadir="$dir/data" \
		--auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1; then
		cat "$dir/install.log" >&2
		poolkit_mariadb_log "mariadb-install-db failed"
		return 1
	fi

	poolkit_mariadb_log "starting mariadbd on $dir/mysqld.sock"
	mariadbd --no-defaults ${user:+--user=$user} --datadir="$dir/data" --tmpdir="$dir/tmp" \
		--socket="$dir/mysqld.sock" --skip-networking --pid-file="$dir/mysqld.pid" \
		--log-error="$dir/error.log" --innodb-buffer-pool-size=16M \
		--character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
		</dev/null >/dev/null 2>&1 &
	echo $! >"$dir/launcher.pid"

	local i
	for i in $(seq 1 120); do
		if mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot ping >/dev/null 2>&1; then
			POOLKIT_MYSQL_DSN="root@unix($dir/mysqld.sock)/"
			export POOLKIT_MYSQL_DSN
			poolkit_mariadb_log "ready: POOLKIT_MYSQL_DSN=$POOLKIT_MYSQL_DSN ($(mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot version 2>/dev/null | sed -n 's/^Server version[[:space:]]*//p'))"
			return 0
		fi
		if ! kill -0 "$(cat "$dir/launcher.pid")" 2>/dev/null; then
			break
		fi
		sleep 0.5
	done
	cat "$dir/error.log" >&2 2>/dev/null
	poolkit_mariadb_log "mariadbd did not answer on $dir/mysqld.sock"
	poolkit_mariadb_stop
	return 1
}

poolkit_mariadb_stop() {
	local dir="${POOLKIT_MARIADB_DIR:-}"
	case "$dir" in
	/tmp/poolkit-mariadb.*) ;;
	*) return 0 ;; # nothing of ours to stop
	esac
	if [ -S "$dir/mysqld.sock" ]; then
		mariadb-admin --no-defaults --socket="$dir/mysqld.sock" -uroot shutdown >/dev/null 2>&1 || true
	fi
	local pid i
	pid="$(cat "$dir/launcher.pid" 2>/dev/null || true)"
	if [ -n "$pid" ]; then
		for i in $(seq 1 40); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.25
		done
		kill "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
	unset POOLKIT_MARIADB_DIR POOLKIT_MYSQL_DSN
	poolkit_mariadb_log "stopped"
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
	# Sourced: start, and stop on exit of the sourcing shell.
	poolkit_mariadb_start || return 1
	trap poolkit_mariadb_stop EXIT
else
	set -euo pipefail
	case "${1:-start}" in
	start)
		poolkit_mariadb_start
		printf 'export POOLKIT_MARIADB_DIR=%q\nexport POOLKIT_MYSQL_DSN=%q\n' "$POOLKIT_MARIADB_DIR" "$POOLKIT_MYSQL_DSN"
		;;
	stop) poolkit_mariadb_stop ;;
	*)
		echo "usage: $0 [start|stop]   (or: source $0)" >&2
		exit 2
		;;
	esac
fi
