#!/usr/bin/env bash
# Installs (if missing) and starts the real local engines as plain processes, waits until they
# answer, then writes .infra/env. Usage: bash infra/local/up.sh [kafka|minio|postgres|keycloak|mailpit|all]...
# Idempotent: engines already running are left alone (and checked again).
set -euo pipefail
# shellcheck source=infra/local/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

parse_targets "$@"
state_lock
log "engines: ${TARGETS[*]}; cache: $CACHE_DIR; state: ${STATE_DIR#"$REPO_ROOT"/}"

# Cold installs: Kafka's Maven fetch (network-bound) runs beside MinIO's Go build (CPU-bound).
kafka_bg=""
if targets_has kafka && ! kafka_installed; then
  require_java17
  kafka_install &
  kafka_bg=$!
fi
keycloak_bg=""
if targets_has keycloak && ! keycloak_installed; then
  require_java17
  keycloak_install &
  keycloak_bg=$!
fi
# Mailpit's Go build beside MinIO's: its own module set, so the two share the cores, not a lock.
mailpit_bg=""
if targets_has mailpit && ! mailpit_installed; then
  mailpit_install &
  mailpit_bg=$!
fi
if targets_has minio; then minio_install; fi
if [[ -n $mailpit_bg ]]; then wait "$mailpit_bg" || die "mailpit: install failed"; fi
if [[ -n $kafka_bg ]]; then wait "$kafka_bg" || die "kafka: install failed"; fi
if [[ -n $keycloak_bg ]]; then wait "$keycloak_bg" || die "keycloak: install failed"; fi

# Keycloak first: its start (a minute the first time) overlaps the others' and their readiness waits.
if targets_has keycloak; then keycloak_start; fi
if targets_has kafka; then kafka_start; fi
if targets_has minio; then minio_start; fi
if targets_has postgres; then postgres_start; fi
if targets_has mailpit; then mailpit_start; fi
if targets_has kafka; then
  wait_ready kafka "$KAFKA_READY_TIMEOUT" kafka_ready kafka_running "$KAFKA_OUT" "$KAFKA_LOGS/server.log" "$KAFKA_STATE/ready.log"
fi
if targets_has minio; then
  wait_ready minio "$MINIO_READY_TIMEOUT" minio_ready minio_running "$MINIO_LOG"
fi
if targets_has postgres; then
  wait_ready postgres "$POSTGRES_READY_TIMEOUT" postgres_ready postgres_running "$POSTGRES_LOG"
  postgres_create_db
fi
if targets_has mailpit; then
  wait_ready mailpit "$MAILPIT_READY_TIMEOUT" mailpit_ready mailpit_running "$MAILPIT_LOG"
fi
if targets_has keycloak; then
  wait_ready keycloak "$KEYCLOAK_READY_TIMEOUT" keycloak_ready keycloak_running "$KEYCLOAK_LOG"
fi

write_env
log "wrote ${ENV_FILE#"$REPO_ROOT"/}: $(cut -d= -f1 "$ENV_FILE" | paste -sd' ')"
log "up in $(($(date +%s) - T0))s"
