# shellcheck shell=bash
# Shared by up.sh, down.sh and status.sh: pinned versions, paths, and helpers that install and run
# Apache Kafka (from Maven Central, on the local JDK 17+), MinIO (built with `go install`), a
# private PostgreSQL cluster (Debian's `postgresql`) and Keycloak (from Maven Central, on the JDK 17+)
# as plain local processes. Sourced, never run.

# ---- pinned versions ------------------------------------------------------------------------
# Kafka's version is pinned in kafka/pom.xml (kafka.version); the cache directory is keyed by a
# hash of that file, so editing it fetches into a fresh directory.
# MinIO publishes no semver tags; the Go module proxy serves its master as a pseudo-version.
MINIO_MODULE=github.com/minio/minio
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
KEYCLOAK_VERSION=26.4.0
MAILPIT_MODULE=github.com/axllent/mailpit
MAILPIT_VERSION=v1.33.1

# ---- ports (loopback only) ------------------------------------------------------------------
# DOCFLOW_INFRA_* run a second, private set of engines beside the shared one (the fault tests stop
# and restart theirs): other ports and another state directory; the install cache stays shared.
KAFKA_HOST=127.0.0.1
KAFKA_PORT=${DOCFLOW_INFRA_KAFKA_PORT:-19092}
KAFKA_CONTROLLER_PORT=${DOCFLOW_INFRA_KAFKA_CONTROLLER_PORT:-19093}
MINIO_HOST=127.0.0.1
MINIO_PORT=${DOCFLOW_INFRA_MINIO_PORT:-19000}
MINIO_CONSOLE_PORT=${DOCFLOW_INFRA_MINIO_CONSOLE_PORT:-19001}
POSTGRES_HOST=127.0.0.1
POSTGRES_PORT=${DOCFLOW_INFRA_POSTGRES_PORT:-15432}
KEYCLOAK_HOST=127.0.0.1
KEYCLOAK_PORT=${DOCFLOW_INFRA_KEYCLOAK_PORT:-18080}
KEYCLOAK_MANAGEMENT_PORT=${DOCFLOW_INFRA_KEYCLOAK_MANAGEMENT_PORT:-18081}
MAILPIT_HOST=127.0.0.1
MAILPIT_SMTP_PORT=${DOCFLOW_INFRA_MAILPIT_SMTP_PORT:-11025}
MAILPIT_HTTP_PORT=${DOCFLOW_INFRA_MAILPIT_HTTP_PORT:-18025}

# ---- bounds (seconds) -----------------------------------------------------------------------
KAFKA_READY_TIMEOUT=${KAFKA_READY_TIMEOUT:-90}
MINIO_READY_TIMEOUT=${MINIO_READY_TIMEOUT:-60}
POSTGRES_READY_TIMEOUT=${POSTGRES_READY_TIMEOUT:-30}
# Keycloak's first start builds its Quarkus application (~40 s of ~70 s on 2 busy cores).
KEYCLOAK_READY_TIMEOUT=${KEYCLOAK_READY_TIMEOUT:-240}
KEYCLOAK_INSTALL_TIMEOUT=${KEYCLOAK_INSTALL_TIMEOUT:-900}
STOP_TIMEOUT=${STOP_TIMEOUT:-30}
KAFKA_INSTALL_TIMEOUT=${KAFKA_INSTALL_TIMEOUT:-900}
MINIO_INSTALL_TIMEOUT=${MINIO_INSTALL_TIMEOUT:-1800}
MAILPIT_INSTALL_TIMEOUT=${MAILPIT_INSTALL_TIMEOUT:-900}
MAILPIT_READY_TIMEOUT=${MAILPIT_READY_TIMEOUT:-30}
PROGRESS_EVERY=${PROGRESS_EVERY:-20}

# ---- paths ----------------------------------------------------------------------------------
INFRA_LOCAL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$INFRA_LOCAL_DIR/../.." && pwd)
STATE_DIR="${DOCFLOW_INFRA_STATE_DIR:-$REPO_ROOT/.infra}"   # runtime data, pid and log files (gitignored)
ENV_FILE="$STATE_DIR/env"
CACHE_DIR="${DOCFLOW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/docflow}"  # heavy installs, shared by clones

KAFKA_STATE="$STATE_DIR/kafka"
KAFKA_DATA="$KAFKA_STATE/data"
KAFKA_LOGS="$KAFKA_STATE/logs"
KAFKA_PID="$KAFKA_STATE/kafka.pid"
KAFKA_OUT="$KAFKA_STATE/kafka.out"
KAFKA_PROPS="$KAFKA_STATE/server.properties"

MINIO_STATE="$STATE_DIR/minio"
MINIO_DATA="$MINIO_STATE/data"
MINIO_PID="$MINIO_STATE/minio.pid"
MINIO_LOG="$MINIO_STATE/minio.log"
MINIO_CREDS="$MINIO_STATE/credentials"

POSTGRES_STATE="$STATE_DIR/postgres"       # owned by the user the cluster runs as
POSTGRES_DATA="$POSTGRES_STATE/data"
POSTGRES_SOCKETS="$POSTGRES_STATE/run"     # its unix socket, instead of /var/run/postgresql
POSTGRES_LOG="$POSTGRES_STATE/postgres.log"
POSTGRES_CREDS="$STATE_DIR/postgres.credentials"   # the invoking user's, 0600
POSTGRES_MAJOR=15

MAILPIT_STATE="$STATE_DIR/mailpit"
MAILPIT_PID="$MAILPIT_STATE/mailpit.pid"
MAILPIT_LOG="$MAILPIT_STATE/mailpit.log"

KEYCLOAK_STATE="$STATE_DIR/keycloak"
KEYCLOAK_RUN_HOME="$KEYCLOAK_STATE/home"   # this checkout's Keycloak home (its build and import dir)
KEYCLOAK_PID="$KEYCLOAK_STATE/keycloak.pid"
KEYCLOAK_LOG="$KEYCLOAK_STATE/keycloak.log"
KEYCLOAK_CREDS="$KEYCLOAK_STATE/admin.credentials"
KEYCLOAK_REALM_FILE="$REPO_ROOT/infra/keycloak/realm-docflow.json"
KEYCLOAK_REALM=docflow

# (contents only, not paths: every clone on the machine shares the install)
kafka_pom_hash() { cat "$INFRA_LOCAL_DIR/kafka/pom.xml" "$INFRA_LOCAL_DIR/kafka/KafkaReady.java" | sha256sum | cut -c1-12; }
kafka_version() { sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$INFRA_LOCAL_DIR/kafka/pom.xml"; }
KAFKA_HOME="$CACHE_DIR/kafka/$(kafka_version)-$(kafka_pom_hash)"   # libs/ + classes/
MINIO_HOME="$CACHE_DIR/minio/$MINIO_VERSION"                          # bin/minio
KEYCLOAK_HOME="$CACHE_DIR/keycloak/$KEYCLOAK_VERSION"                 # the unzipped distribution
MAILPIT_HOME="$CACHE_DIR/mailpit/$MAILPIT_VERSION"                    # bin/mailpit
GO_CACHE_ROOT="$CACHE_DIR/go"                                         # GOMODCACHE + GOCACHE for the build
M2_REPO="$CACHE_DIR/maven-repository"

# ---- output helpers ---------------------------------------------------------------------------
T0=$(date +%s)
log() { printf '[infra %4ss] %s\n' "$(($(date +%s) - T0))" "$*"; }
warn() { log "WARNING: $*" >&2; }
die() { printf '[infra] ERROR: %s\n' "$*" >&2; exit 1; }

# tail_log FILE... — the last lines of an engine's logs, for error messages.
tail_log() {
  local f
  for f in "$@"; do
    [[ -s $f ]] || continue
    printf -- '----- last lines of %s -----\n' "${f#"$REPO_ROOT"/}" >&2
    tail -n 30 "$f" >&2
  done
}

# run_with_progress LABEL TIMEOUT LOGFILE CMD... — runs CMD with output to LOGFILE, printing the
# elapsed time every PROGRESS_EVERY seconds; kills it after TIMEOUT seconds. Returns CMD's status.
run_with_progress() {
  local label=$1 limit=$2 logfile=$3; shift 3
  local start pid rc=0 last=0 now
  start=$(date +%s)
  "$@" >"$logfile" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    now=$(($(date +%s) - start))
    if ((now >= limit)); then
      kill -TERM "$pid" 2>/dev/null || true
      sleep 2
      kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      log "$label: gave up after ${limit}s"
      tail_log "$logfile"
      return 124
    fi
    if ((now - last >= PROGRESS_EVERY)); then
      log "$label: still running (${now}s elapsed)"
      last=$now
    fi
  done
  wait "$pid" || rc=$?
  now=$(($(date +%s) - start))
  if ((rc == 0)); then
    log "$label: done in ${now}s"
  else
    log "$label: failed (exit $rc) after ${now}s"
    tail_log "$logfile"
  fi
  return "$rc"
}

# with_lock LOCKFILE CMD... — serialises installs between concurrent runs and clones (bounded).
with_lock() {
  local lockfile=$1; shift
  mkdir -p "$(dirname "$lockfile")"
  (
    flock -w 1800 9 || die "could not lock $lockfile within 1800s"
    "$@"
  ) 9>"$lockfile"
}

# ---- process helpers --------------------------------------------------------------------------
# pid_alive PIDFILE PATTERN — true when the pid in PIDFILE runs and its command line has PATTERN.
pid_alive() {
  local pidfile=$1 pattern=$2 pid
  [[ -s $pidfile ]] || return 1
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  [[ -r /proc/$pid/cmdline ]] || return 1
  { tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "$pattern"
}

# find_pid PATTERN... — the pid of a process whose command line contains every PATTERN (used to
# re-adopt an engine of this checkout whose pid file was lost; the patterns include absolute paths
# under this checkout's .infra/, so no other process matches).
find_pid() {
  local f pid cmd p
  for f in /proc/[0-9]*/cmdline; do
    pid=${f#/proc/}
    pid=${pid%/cmdline}
    cmd=$({ tr '\0' ' ' <"$f"; } 2>/dev/null) || continue
    for p in "$@"; do
      [[ $cmd == *"$p"* ]] || continue 2
    done
    echo "$pid"
    return 0
  done
  return 1
}

# adopt NAME PIDFILE PATTERN... — writes PIDFILE for a running engine of this checkout that has none.
adopt() {
  local name=$1 pidfile=$2 pid; shift 2
  [[ -s $pidfile ]] && kill -0 "$(<"$pidfile")" 2>/dev/null && return 0
  pid=$(find_pid "$@") || return 0
  echo "$pid" >"$pidfile"
  log "$name: found running without a pid file (pid $pid), adopted"
}

# port_open HOST PORT — a TCP connect succeeds (bash's /dev/tcp, bounded by timeout).
# shellcheck disable=SC2016 # $1/$2 expand in the inner bash
port_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null; }

# start_detached PIDFILE LOGFILE CMD... — starts CMD in its own session, detached from this shell.
start_detached() {
  local pidfile=$1 logfile=$2; shift 2
  # setsid execs CMD in place (this shell's children are never process-group leaders), so $! is
  # the engine's own pid. The lock descriptors (8, 9) are closed: an engine must not hold them.
  setsid nohup "$@" >>"$logfile" 2>&1 </dev/null 8>&- 9>&- &
  echo $! >"$pidfile"
}

# stop_pid NAME PIDFILE PATTERN — SIGTERM, wait up to STOP_TIMEOUT seconds, then SIGKILL.
stop_pid() {
  local name=$1 pidfile=$2 pattern=$3 pid i
  if ! pid_alive "$pidfile" "$pattern"; then
    rm -f "$pidfile"
    log "$name: not running"
    return 0
  fi
  pid=$(<"$pidfile")
  log "$name: stopping (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < STOP_TIMEOUT; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$pid" 2>/dev/null; then
    warn "$name: still running after ${STOP_TIMEOUT}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for ((i = 0; i < 10; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 1
    done
  fi
  # Remove the pid file only if it still names the process stopped here.
  if [[ -s $pidfile && $(<"$pidfile") == "$pid" ]]; then rm -f "$pidfile"; fi
  log "$name: stopped"
}

# ---- toolchains ---------------------------------------------------------------------------------
java_bin() {
  if [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then echo "$JAVA_HOME/bin/java"; else command -v java || true; fi
}
javac_bin() {
  if [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/javac ]]; then echo "$JAVA_HOME/bin/javac"; else command -v javac || true; fi
}
require_java17() {
  local java major
  java=$(java_bin)
  [[ -n $java ]] || die "Kafka needs Java 17 or newer: no 'java' on PATH (Debian: apt-get install -y openjdk-17-jdk-headless)"
  major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  major=${major%%.*}
  if ! [[ $major =~ ^[0-9]+$ ]] || ((major < 17)); then
    die "Kafka needs Java 17 or newer; $java is ${major:-unknown}"
  fi
}

# ---- Kafka ----------------------------------------------------------------------------------
kafka_installed() { [[ -f $KAFKA_HOME/.complete ]]; }

_kafka_install_locked() {
  kafka_installed && return 0
  command -v mvn >/dev/null || die "fetching Kafka needs Maven ('mvn'; Debian: apt-get install -y maven)"
  local javac tmp
  javac=$(javac_bin)
  [[ -n $javac ]] || die "compiling the Kafka readiness probe needs a JDK ('javac')"
  tmp="$KAFKA_HOME.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp/libs" "$tmp/classes" "$M2_REPO"
  log "kafka: fetching org.apache.kafka:kafka_2.13:$(kafka_version) and its runtime dependencies from Maven Central into ${KAFKA_HOME}"
  run_with_progress "kafka: maven fetch" "$KAFKA_INSTALL_TIMEOUT" "$tmp/install.log" \
    mvn -q -B -ntp -f "$INFRA_LOCAL_DIR/kafka/pom.xml" \
      -Dmaven.repo.local="$M2_REPO" \
      dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$tmp/libs" \
    || { rm -rf "$tmp"; die "kafka: Maven could not fetch the broker (log above)"; }
  "$javac" -nowarn -d "$tmp/classes" -cp "$tmp/libs/*" "$INFRA_LOCAL_DIR/kafka/KafkaReady.java" \
    || { rm -rf "$tmp"; die "kafka: could not compile the readiness probe"; }
  log "kafka: $(find "$tmp/libs" -name '*.jar' | wc -l) jars, $(du -sh "$tmp/libs" | cut -f1)"
  touch "$tmp/.complete"
  rm -rf "$KAFKA_HOME"
  mv "$tmp" "$KAFKA_HOME"
}
kafka_install() {
  kafka_installed && return 0
  require_java17
  with_lock "$CACHE_DIR/kafka/.install.lock" _kafka_install_locked
}

kafka_running() {
  pid_alive "$KAFKA_PID" "kafka.Kafka" && return 0
  adopt kafka "$KAFKA_PID" "kafka.Kafka" "$KAFKA_PROPS"
  pid_alive "$KAFKA_PID" "kafka.Kafka"
}

# kafka_cmd [JVM-OPTION...] MAINCLASS [ARG...] — sets KAFKA_CMD to a java command line with
# Kafka's classpath and log configuration.
kafka_cmd() {
  KAFKA_CMD=("$(java_bin)" -Djava.awt.headless=true -Djava.net.preferIPv4Stack=true
    -Dkafka.logs.dir="$KAFKA_LOGS"
    -Dlog4j2.configurationFile="$INFRA_LOCAL_DIR/kafka/log4j2.properties"
    -cp "$KAFKA_HOME/libs/*:$KAFKA_HOME/classes" "$@")
}
# Short-lived tool JVMs: small heap, C1 only (starts faster).
KAFKA_TOOL_OPTS=(-Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto)

kafka_write_props() {
  mkdir -p "$KAFKA_DATA" "$KAFKA_LOGS"
  cat >"$KAFKA_PROPS" <<EOF
# Generated by infra/local/up.sh — single-node KRaft broker+controller for local development.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@${KAFKA_HOST}:${KAFKA_CONTROLLER_PORT}
listeners=PLAINTEXT://${KAFKA_HOST}:${KAFKA_PORT},CONTROLLER://${KAFKA_HOST}:${KAFKA_CONTROLLER_PORT}
advertised.listeners=PLAINTEXT://${KAFKA_HOST}:${KAFKA_PORT}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${KAFKA_DATA}
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=10
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
log.retention.hours=24
EOF
}

kafka_format_if_needed() {
  [[ -f $KAFKA_DATA/meta.properties ]] && return 0
  local id
  log "kafka: formatting storage in ${KAFKA_DATA#"$REPO_ROOT"/}"
  kafka_cmd "${KAFKA_TOOL_OPTS[@]}" kafka.tools.StorageTool random-uuid
  id=$("${KAFKA_CMD[@]}" 2>"$KAFKA_STATE/format.log" | tail -n 1)
  [[ $id =~ ^[A-Za-z0-9_-]{22}$ ]] || die "kafka: StorageTool random-uuid printed '$id'"
  kafka_cmd "${KAFKA_TOOL_OPTS[@]}" kafka.tools.StorageTool format -t "$id" -c "$KAFKA_PROPS"
  "${KAFKA_CMD[@]}" >>"$KAFKA_STATE/format.log" 2>&1 \
    || { tail_log "$KAFKA_STATE/format.log"; die "kafka: storage format failed"; }
}

kafka_ready() {
  port_open "$KAFKA_HOST" "$KAFKA_PORT" || return 1
  kafka_cmd "${KAFKA_TOOL_OPTS[@]}" KafkaReady "$KAFKA_HOST:$KAFKA_PORT" 4000
  "${KAFKA_CMD[@]}" >"$KAFKA_STATE/ready.log" 2>&1
}

kafka_start() {
  kafka_install
  mkdir -p "$KAFKA_STATE"
  if kafka_running; then
    log "kafka: already running (pid $(<"$KAFKA_PID"))"
  else
    port_open "$KAFKA_HOST" "$KAFKA_PORT" && die "kafka: port $KAFKA_PORT is taken by another process (not ours: no live $KAFKA_PID)"
    port_open "$KAFKA_HOST" "$KAFKA_CONTROLLER_PORT" && die "kafka: port $KAFKA_CONTROLLER_PORT is taken by another process"
    kafka_write_props
    kafka_format_if_needed
    log "kafka: starting $(kafka_version) on $KAFKA_HOST:$KAFKA_PORT (controller :$KAFKA_CONTROLLER_PORT)"
    kafka_cmd -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError \
      kafka.Kafka "$KAFKA_PROPS"
    : >"$KAFKA_OUT"
    : >"$KAFKA_STATE/ready.log"
    start_detached "$KAFKA_PID" "$KAFKA_OUT" "${KAFKA_CMD[@]}"
  fi
}

# ---- MinIO ----------------------------------------------------------------------------------
MINIO_BIN="$MINIO_HOME/bin/minio"
minio_installed() { [[ -x $MINIO_BIN ]]; }

require_go() {
  command -v go >/dev/null || die "building MinIO and Mailpit needs Go 1.24 or newer ('go'; https://go.dev/doc/install or Debian backports)"
  local v
  v=$(go env GOVERSION)                # e.g. go1.26.8
  v=${v#go}
  local major=${v%%.*} rest=${v#*.}
  local minor=${rest%%.*}
  ((major > 1 || (major == 1 && minor >= 24))) || die "building MinIO and Mailpit needs Go 1.24 or newer; found go$v (GOTOOLCHAIN=local: no toolchain download)"
}

# _go_install_locked NAME MODULE@VERSION HOME LIMIT — builds one binary into HOME/bin (pinned, CGO off,
# -trimpath), through a temporary directory so a half-built install never counts.
_go_install_locked() {
  local name=$1 module=$2 home=$3 limit=$4
  [[ -x $home/bin/$name ]] && return 0
  local tmp="$home.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp/bin" "$GO_CACHE_ROOT/mod" "$GO_CACHE_ROOT/build"
  log "$name: go install $module (go $(go env GOVERSION), CGO off, -trimpath)"
  run_with_progress "$name: go install" "$limit" "$tmp/install.log" \
    env GOBIN="$tmp/bin" GOMODCACHE="$GO_CACHE_ROOT/mod" GOCACHE="$GO_CACHE_ROOT/build" \
      GOPATH="$GO_CACHE_ROOT/path" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false -modcacherw" \
      go install -ldflags "-s -w" "$module" \
    || { rm -rf "$tmp"; die "$name: go install failed (log above)"; }
  [[ -x $tmp/bin/$name ]] || { rm -rf "$tmp"; die "$name: go install produced no binary"; }
  log "$name: built $(du -sh "$tmp/bin/$name" | cut -f1) binary"
  rm -rf "$home"
  mv "$tmp" "$home"
}
minio_install() {
  minio_installed && return 0
  require_go
  # cold: several minutes on 2 cores
  with_lock "$CACHE_DIR/minio/.install.lock" _go_install_locked minio "$MINIO_MODULE@$MINIO_VERSION" "$MINIO_HOME" "$MINIO_INSTALL_TIMEOUT"
}

minio_running() {
  pid_alive "$MINIO_PID" "minio server" && return 0
  adopt minio "$MINIO_PID" "minio server" "$MINIO_DATA"
  pid_alive "$MINIO_PID" "minio server"
}

# minio_credentials — loads (or once per data dir creates) loopback-only dev credentials.
minio_credentials() {
  mkdir -p "$MINIO_STATE"
  if [[ ! -s $MINIO_CREDS ]]; then
    (
      umask 077
      printf 'MINIO_ROOT_USER=docflow\nMINIO_ROOT_PASSWORD=%s\n' \
        "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$MINIO_CREDS"
    )
  fi
  MINIO_ROOT_USER=$(sed -n 's/^MINIO_ROOT_USER=//p' "$MINIO_CREDS")
  MINIO_ROOT_PASSWORD=$(sed -n 's/^MINIO_ROOT_PASSWORD=//p' "$MINIO_CREDS")
  [[ -n $MINIO_ROOT_USER && ${#MINIO_ROOT_PASSWORD} -ge 8 ]] || die "minio: bad credentials file $MINIO_CREDS (delete it together with $MINIO_DATA)"
}

minio_ready() { curl -fsS --max-time 2 -o /dev/null "http://$MINIO_HOST:$MINIO_PORT/minio/health/ready" 2>/dev/null; }

minio_start() {
  minio_install
  minio_credentials
  if minio_running; then
    log "minio: already running (pid $(<"$MINIO_PID"))"
    return 0
  fi
  port_open "$MINIO_HOST" "$MINIO_PORT" && die "minio: port $MINIO_PORT is taken by another process (not ours: no live $MINIO_PID)"
  port_open "$MINIO_HOST" "$MINIO_CONSOLE_PORT" && die "minio: port $MINIO_CONSOLE_PORT is taken by another process"
  mkdir -p "$MINIO_DATA"
  log "minio: starting on $MINIO_HOST:$MINIO_PORT (console :$MINIO_CONSOLE_PORT), data in ${MINIO_DATA#"$REPO_ROOT"/}"
  : >"$MINIO_LOG"
  (
    export MINIO_ROOT_USER MINIO_ROOT_PASSWORD
    export MINIO_UPDATE=off MINIO_BROWSER_REDIRECT=off
    start_detached "$MINIO_PID" "$MINIO_LOG" "$MINIO_BIN" server "$MINIO_DATA" \
      --address "$MINIO_HOST:$MINIO_PORT" --console-address "$MINIO_HOST:$MINIO_CONSOLE_PORT" --anonymous
  )
}

# ---- Mailpit (SMTP catcher) ------------------------------------------------------------------
# Catches the e-mail notifications: SMTP in, messages read back through its HTTP API (the tests).
# Built with `go install` like MinIO; its messages live in memory (nothing on disk to purge).
MAILPIT_BIN="$MAILPIT_HOME/bin/mailpit"
mailpit_installed() { [[ -x $MAILPIT_BIN ]]; }
mailpit_install() {
  mailpit_installed && return 0
  require_go
  with_lock "$CACHE_DIR/mailpit/.install.lock" _go_install_locked mailpit "$MAILPIT_MODULE@$MAILPIT_VERSION" "$MAILPIT_HOME" "$MAILPIT_INSTALL_TIMEOUT"
}
mailpit_running() {
  pid_alive "$MAILPIT_PID" "$MAILPIT_BIN" && return 0
  adopt mailpit "$MAILPIT_PID" "$MAILPIT_BIN" "$MAILPIT_HOST:$MAILPIT_SMTP_PORT"
  pid_alive "$MAILPIT_PID" "$MAILPIT_BIN"
}
mailpit_ready() { curl -fsS --max-time 2 -o /dev/null "http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT/readyz" 2>/dev/null; }
mailpit_start() {
  mailpit_install
  if mailpit_running; then
    log "mailpit: already running (pid $(<"$MAILPIT_PID"))"
    return 0
  fi
  port_open "$MAILPIT_HOST" "$MAILPIT_SMTP_PORT" && die "mailpit: port $MAILPIT_SMTP_PORT is taken by another process (not ours: no live $MAILPIT_PID)"
  port_open "$MAILPIT_HOST" "$MAILPIT_HTTP_PORT" && die "mailpit: port $MAILPIT_HTTP_PORT is taken by another process"
  mkdir -p "$MAILPIT_STATE"
  log "mailpit: starting, SMTP on $MAILPIT_HOST:$MAILPIT_SMTP_PORT, HTTP on :$MAILPIT_HTTP_PORT"
  : >"$MAILPIT_LOG"
  start_detached "$MAILPIT_PID" "$MAILPIT_LOG" "$MAILPIT_BIN" \
    --smtp "$MAILPIT_HOST:$MAILPIT_SMTP_PORT" --listen "$MAILPIT_HOST:$MAILPIT_HTTP_PORT" \
    --smtp-auth-accept-any --smtp-auth-allow-insecure --disable-version-check
}

# ---- PostgreSQL -------------------------------------------------------------------------------
# A private cluster (initdb) of Debian's PostgreSQL 15 under .infra/postgres, on a loopback port and
# a unix socket of its own; the system's own cluster (/var/lib/postgresql) is left alone. As root the
# cluster runs as the `postgres` user (the server refuses to run as root), otherwise as the caller.
postgres_bin_dir() { echo "/usr/lib/postgresql/$POSTGRES_MAJOR/bin"; }
postgres_installed() { [[ -x $(postgres_bin_dir)/initdb && -x $(postgres_bin_dir)/pg_ctl ]]; }

postgres_install() {
  postgres_installed && return 0
  ((EUID == 0)) || die "postgres: PostgreSQL $POSTGRES_MAJOR is missing; install it with: sudo apt-get install -y postgresql-$POSTGRES_MAJOR"
  command -v apt-get >/dev/null || die "postgres: PostgreSQL $POSTGRES_MAJOR is missing and there is no apt-get to install it"
  log "postgres: apt-get install postgresql-$POSTGRES_MAJOR"
  mkdir -p "$CACHE_DIR"
  run_with_progress "postgres: apt-get update" 600 "$CACHE_DIR/postgres-apt.log" apt-get update \
    || die "postgres: apt-get update failed (log above)"
  run_with_progress "postgres: apt-get install" 900 "$CACHE_DIR/postgres-apt.log" \
    env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "postgresql-$POSTGRES_MAJOR" \
    || die "postgres: apt-get install failed (log above)"
  postgres_installed || die "postgres: installed, but $(postgres_bin_dir)/initdb is missing"
}

# as_postgres CMD... — runs a PostgreSQL tool as the user that owns the cluster.
as_postgres() {
  if ((EUID == 0)); then runuser -u postgres -- "$@"; else "$@"; fi
}

postgres_running() {
  [[ -f $POSTGRES_DATA/PG_VERSION ]] || return 1
  as_postgres "$(postgres_bin_dir)/pg_ctl" status -D "$POSTGRES_DATA" >/dev/null 2>&1
}

postgres_ready() {
  "$(postgres_bin_dir)/pg_isready" -q -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" -d docflow -t 2 2>/dev/null
}

# postgres_credentials — loads (or once per cluster creates) the password of the `docflow` role.
postgres_credentials() {
  if [[ ! -s $POSTGRES_CREDS ]]; then
    (
      umask 077
      printf 'POSTGRES_PASSWORD=%s\n' "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$POSTGRES_CREDS"
    )
  fi
  POSTGRES_PASSWORD=$(sed -n 's/^POSTGRES_PASSWORD=//p' "$POSTGRES_CREDS")
  [[ ${#POSTGRES_PASSWORD} -ge 16 ]] || die "postgres: bad credentials file $POSTGRES_CREDS (delete it together with $POSTGRES_STATE)"
}

# The cluster's directory must be reachable by its owner: as root, `postgres` needs to pass every
# directory above it (traverse only; nothing in .infra becomes readable).
_postgres_prepare_dirs() {
  mkdir -p "$POSTGRES_STATE"
  if ((EUID == 0)); then
    chown postgres: "$POSTGRES_STATE"
    chmod 700 "$POSTGRES_STATE"
    runuser -u postgres -- test -x "$POSTGRES_STATE" || chmod o+x "$STATE_DIR"
    runuser -u postgres -- test -x "$POSTGRES_STATE" \
      || die "postgres: the user 'postgres' cannot reach $POSTGRES_STATE (a parent directory is closed to it)"
  fi
  as_postgres mkdir -p -m 700 "$POSTGRES_SOCKETS"
}

postgres_init_if_needed() {
  [[ -f $POSTGRES_DATA/PG_VERSION ]] && return 0
  local pwfile="$POSTGRES_STATE/initdb.pw"
  log "postgres: initdb in ${POSTGRES_DATA#"$REPO_ROOT"/} (superuser docflow, password auth on loopback)"
  as_postgres rm -rf "$POSTGRES_DATA"
  # The password reaches initdb in a file only the cluster's owner reads, removed right after.
  as_postgres sh -c 'umask 077 && cat >"$1"' _ "$pwfile" <<<"$POSTGRES_PASSWORD"
  as_postgres "$(postgres_bin_dir)/initdb" -D "$POSTGRES_DATA" -U docflow --pwfile="$pwfile" \
    -E UTF8 --locale=C.UTF-8 --auth-local=scram-sha-256 --auth-host=scram-sha-256 \
    >"$POSTGRES_STATE/initdb.log" 2>&1 \
    || { as_postgres rm -f "$pwfile"; tail_log "$POSTGRES_STATE/initdb.log"; die "postgres: initdb failed"; }
  as_postgres rm -f "$pwfile"
}

postgres_start() {
  postgres_install
  postgres_credentials
  _postgres_prepare_dirs
  if postgres_running; then
    log "postgres: already running ($(postgres_pid_of))"
    return 0
  fi
  port_open "$POSTGRES_HOST" "$POSTGRES_PORT" && die "postgres: port $POSTGRES_PORT is taken by another process (not this checkout's cluster)"
  postgres_init_if_needed
  log "postgres: starting $POSTGRES_MAJOR on $POSTGRES_HOST:$POSTGRES_PORT, data in ${POSTGRES_DATA#"$REPO_ROOT"/}"
  # pg_ctl starts the server in the background and returns; wait_ready then waits for pg_isready.
  as_postgres touch "$POSTGRES_LOG"
  as_postgres "$(postgres_bin_dir)/pg_ctl" start -D "$POSTGRES_DATA" -l "$POSTGRES_LOG" -W \
    -o "-c listen_addresses=$POSTGRES_HOST -p $POSTGRES_PORT -k $POSTGRES_SOCKETS -c max_connections=300" \
    >/dev/null 8>&- 9>&- || { tail_log "$POSTGRES_LOG"; die "postgres: pg_ctl start failed"; }
}

# The `docflow` database, made once the server answers (it connects to `postgres` for that).
postgres_create_db() {
  local exists
  exists=$(PGPASSWORD=$POSTGRES_PASSWORD "$(postgres_bin_dir)/psql" -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" -U docflow \
    -d postgres -XAtqc "SELECT 1 FROM pg_database WHERE datname = 'docflow'") \
    || die "postgres: cannot connect as docflow (see ${POSTGRES_LOG#"$REPO_ROOT"/})"
  [[ $exists == 1 ]] && return 0
  PGPASSWORD=$POSTGRES_PASSWORD "$(postgres_bin_dir)/createdb" -h "$POSTGRES_HOST" -p "$POSTGRES_PORT" -U docflow docflow \
    || die "postgres: could not create the docflow database"
  log "postgres: created database docflow"
}

postgres_pid_of() {
  if [[ -s $POSTGRES_DATA/postmaster.pid ]] && as_postgres test -r "$POSTGRES_DATA/postmaster.pid"; then
    echo "pid $(as_postgres head -n 1 "$POSTGRES_DATA/postmaster.pid")"
  fi
}

postgres_stop() {
  if ! postgres_running; then
    log "postgres: not running"
    return 0
  fi
  log "postgres: stopping ($(postgres_pid_of))"
  as_postgres "$(postgres_bin_dir)/pg_ctl" stop -D "$POSTGRES_DATA" -m fast -t "$STOP_TIMEOUT" >/dev/null \
    || die "postgres: pg_ctl stop failed (log: ${POSTGRES_LOG#"$REPO_ROOT"/})"
  log "postgres: stopped"
}

postgres_url() { echo "postgres://docflow:$POSTGRES_PASSWORD@$POSTGRES_HOST:$POSTGRES_PORT/docflow"; }

# ---- Keycloak ---------------------------------------------------------------------------------
# The distribution is unzipped once into the cache. Each checkout runs it from a home of its own
# under .infra/keycloak/home (a copy of everything but the 150 MB of jars, which are linked), because
# Keycloak writes its build (lib/quarkus) and reads its realm imports (data/import) under its home.
# `start-dev` with the in-memory database: every start imports the committed realm afresh.
keycloak_installed() { [[ -f $KEYCLOAK_HOME/.complete ]]; }

_keycloak_install_locked() {
  keycloak_installed && return 0
  command -v mvn >/dev/null || die "fetching Keycloak needs Maven ('mvn'; Debian: apt-get install -y maven)"
  local tmp="$KEYCLOAK_HOME.tmp.$$" zip
  zip="$M2_REPO/org/keycloak/keycloak-quarkus-dist/$KEYCLOAK_VERSION/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
  rm -rf "$tmp"
  mkdir -p "$tmp" "$M2_REPO"
  log "keycloak: fetching org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip from Maven Central into $KEYCLOAK_HOME"
  run_with_progress "keycloak: maven fetch" "$KEYCLOAK_INSTALL_TIMEOUT" "$tmp/install.log" \
    mvn -q -B -ntp -Dmaven.repo.local="$M2_REPO" dependency:get \
      -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" -Dtransitive=false \
    || { rm -rf "$tmp"; die "keycloak: Maven could not fetch the distribution (log above)"; }
  # unzip when there is one, else the JDK's jar (which drops the scripts' execute bits).
  if command -v unzip >/dev/null; then
    unzip -q "$zip" -d "$tmp" || { rm -rf "$tmp"; die "keycloak: could not unzip $zip"; }
  else
    (cd "$tmp" && "$(dirname "$(javac_bin)")/jar" xf "$zip") || { rm -rf "$tmp"; die "keycloak: could not unpack $zip"; }
    chmod +x "$tmp/keycloak-$KEYCLOAK_VERSION"/bin/*.sh
  fi
  mv "$tmp/keycloak-$KEYCLOAK_VERSION"/* "$tmp/" && rmdir "$tmp/keycloak-$KEYCLOAK_VERSION"
  touch "$tmp/.complete"
  rm -rf "$KEYCLOAK_HOME"
  mv "$tmp" "$KEYCLOAK_HOME"
}
keycloak_install() {
  keycloak_installed && return 0
  require_java17
  with_lock "$CACHE_DIR/keycloak/.install.lock" _keycloak_install_locked
}

# The checkout's home: made once per install (its build is kept across starts); the realm every start.
keycloak_prepare_home() {
  if [[ ! -f $KEYCLOAK_RUN_HOME/.from || $(<"$KEYCLOAK_RUN_HOME/.from") != "$KEYCLOAK_HOME" ]]; then
    rm -rf "$KEYCLOAK_RUN_HOME"
    mkdir -p "$KEYCLOAK_RUN_HOME/lib"
    cp -a "$KEYCLOAK_HOME/bin" "$KEYCLOAK_HOME/conf" "$KEYCLOAK_HOME/providers" "$KEYCLOAK_HOME/themes" \
      "$KEYCLOAK_HOME/version.txt" "$KEYCLOAK_RUN_HOME/"
    cp -a "$KEYCLOAK_HOME/lib/app" "$KEYCLOAK_HOME/lib/quarkus" "$KEYCLOAK_HOME/lib/quarkus-run.jar" "$KEYCLOAK_RUN_HOME/lib/"
    ln -s "$KEYCLOAK_HOME/lib/lib" "$KEYCLOAK_RUN_HOME/lib/lib"
    echo "$KEYCLOAK_HOME" >"$KEYCLOAK_RUN_HOME/.from"
  fi
  mkdir -p "$KEYCLOAK_RUN_HOME/data/import"
  cp "$KEYCLOAK_REALM_FILE" "$KEYCLOAK_RUN_HOME/data/import/"
}

# The home by its real path: kc.sh names it so to java (-Dkc.home.dir), and is started by it.
keycloak_home_real() { realpath -m "$KEYCLOAK_RUN_HOME"; }
keycloak_running() {
  pid_alive "$KEYCLOAK_PID" "$(keycloak_home_real)/" && return 0
  adopt keycloak "$KEYCLOAK_PID" "kc.home.dir" "$(keycloak_home_real)/"
  pid_alive "$KEYCLOAK_PID" "$(keycloak_home_real)/"
}

# keycloak_credentials — loads (or once per checkout creates) the master realm's admin, loopback only.
keycloak_credentials() {
  mkdir -p "$KEYCLOAK_STATE"
  if [[ ! -s $KEYCLOAK_CREDS ]]; then
    (
      umask 077
      printf 'KEYCLOAK_ADMIN_USER=admin\nKEYCLOAK_ADMIN_PASSWORD=%s\n' \
        "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$KEYCLOAK_CREDS"
    )
  fi
  KEYCLOAK_ADMIN_USER=$(sed -n 's/^KEYCLOAK_ADMIN_USER=//p' "$KEYCLOAK_CREDS")
  KEYCLOAK_ADMIN_PASSWORD=$(sed -n 's/^KEYCLOAK_ADMIN_PASSWORD=//p' "$KEYCLOAK_CREDS")
}

keycloak_url() { echo "http://$KEYCLOAK_HOST:$KEYCLOAK_PORT"; }
keycloak_ready() {
  curl -fsS --max-time 2 -o /dev/null "$(keycloak_url)/realms/$KEYCLOAK_REALM/.well-known/openid-configuration" 2>/dev/null
}

keycloak_start() {
  keycloak_install
  keycloak_credentials
  if keycloak_running; then
    log "keycloak: already running (pid $(<"$KEYCLOAK_PID"))"
    return 0
  fi
  port_open "$KEYCLOAK_HOST" "$KEYCLOAK_PORT" && die "keycloak: port $KEYCLOAK_PORT is taken by another process (not ours: no live $KEYCLOAK_PID)"
  port_open "$KEYCLOAK_HOST" "$KEYCLOAK_MANAGEMENT_PORT" && die "keycloak: port $KEYCLOAK_MANAGEMENT_PORT is taken by another process"
  keycloak_prepare_home
  log "keycloak: starting $KEYCLOAK_VERSION (start-dev, in-memory database, realm ${KEYCLOAK_REALM_FILE#"$REPO_ROOT"/}) on $(keycloak_url)"
  : >"$KEYCLOAK_LOG"
  (
    export KC_BOOTSTRAP_ADMIN_USERNAME=$KEYCLOAK_ADMIN_USER KC_BOOTSTRAP_ADMIN_PASSWORD=$KEYCLOAK_ADMIN_PASSWORD
    export JAVA_OPTS_KC_HEAP="-Xms64m -Xmx512m"
    start_detached "$KEYCLOAK_PID" "$KEYCLOAK_LOG" "$(keycloak_home_real)/bin/kc.sh" start-dev \
      --http-host "$KEYCLOAK_HOST" --http-port "$KEYCLOAK_PORT" \
      --http-management-port "$KEYCLOAK_MANAGEMENT_PORT" --db dev-mem --import-realm
  )
}

# kc.sh runs java as its child (execs it only after a rebuild): the signal goes to the whole process
# group, which start_detached's setsid made with kc.sh as its leader.
keycloak_stop() {
  if keycloak_running; then kill -TERM -- "-$(<"$KEYCLOAK_PID")" 2>/dev/null || true; fi
  stop_pid keycloak "$KEYCLOAK_PID" "$(keycloak_home_real)/"
}

# ---- readiness and the env file ---------------------------------------------------------------
# wait_ready NAME TIMEOUT CHECKFN RUNNINGFN LOGFILE... — polls CHECKFN until it succeeds; fails
# fast when the process dies, and after TIMEOUT seconds, showing the engine's log tail.
wait_ready() {
  local name=$1 limit=$2 check=$3 running=$4; shift 4
  local start now last=0
  start=$(date +%s)
  while :; do
    if "$check"; then
      log "$name: ready after $(($(date +%s) - start))s"
      return 0
    fi
    now=$(($(date +%s) - start))
    if ! "$running"; then
      tail_log "$@"
      die "$name: the process exited while starting (logs above)"
    fi
    if ((now >= limit)); then
      tail_log "$@"
      die "$name: not ready within ${limit}s (still running; logs above). Stop it with: bash infra/local/down.sh $name"
    fi
    if ((now - last >= 10)); then
      log "$name: waiting for readiness (${now}s)"
      last=$now
    fi
    sleep 1
  done
}

# write_env — .infra/env with the connection settings of every engine that is up.
write_env() {
  local tmp="$ENV_FILE.tmp.$$" any=0
  mkdir -p "$STATE_DIR"
  : >"$tmp"
  if kafka_running && port_open "$KAFKA_HOST" "$KAFKA_PORT"; then
    printf 'KAFKA_BROKERS=%s:%s\n' "$KAFKA_HOST" "$KAFKA_PORT" >>"$tmp"
    any=1
  fi
  if minio_running && minio_ready; then
    minio_credentials
    printf 'MINIO_ENDPOINT=%s:%s\nMINIO_ACCESS_KEY=%s\nMINIO_SECRET_KEY=%s\nMINIO_USE_SSL=false\n' \
      "$MINIO_HOST" "$MINIO_PORT" "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >>"$tmp"
    any=1
  fi
  if postgres_running && postgres_ready; then
    postgres_credentials
    printf 'POSTGRES_URL=%s\n' "$(postgres_url)" >>"$tmp"
    any=1
  fi
  if mailpit_running && mailpit_ready; then
    printf 'MAILPIT_SMTP=smtp://%s:%s\nMAILPIT_API=http://%s:%s\n' \
      "$MAILPIT_HOST" "$MAILPIT_SMTP_PORT" "$MAILPIT_HOST" "$MAILPIT_HTTP_PORT" >>"$tmp"
    any=1
  fi
  if keycloak_running && keycloak_ready; then
    printf 'KEYCLOAK_URL=%s\nKEYCLOAK_ISSUER=%s/realms/%s\n' "$(keycloak_url)" "$(keycloak_url)" "$KEYCLOAK_REALM" >>"$tmp"
    any=1
  fi
  if ((any)); then
    chmod 600 "$tmp"
    mv "$tmp" "$ENV_FILE"
  else
    rm -f "$tmp" "$ENV_FILE"
  fi
}

# parse_targets ARGS... — sets TARGETS to the engines named (default: all of them).
parse_targets() {
  TARGETS=()
  local a
  for a in "$@"; do
    case $a in
      kafka | minio | postgres | keycloak | mailpit) TARGETS+=("$a") ;;
      all) TARGETS=(kafka minio postgres keycloak mailpit) ;;
      *) die "unknown engine '$a' (expected: kafka, minio, postgres, keycloak, mailpit or all)" ;;
    esac
  done
  ((${#TARGETS[@]})) || TARGETS=(kafka minio postgres keycloak mailpit)
}
targets_has() {
  local t
  for t in "${TARGETS[@]}"; do [[ $t == "$1" ]] && return 0; done
  return 1
}

# state_lock — one up/down at a time per checkout (bounded wait).
state_lock() {
  mkdir -p "$STATE_DIR"
  exec 8>"$STATE_DIR/scripts.lock"
  flock -w 600 8 || die "another infra/local script holds $STATE_DIR/scripts.lock for more than 600s"
}
