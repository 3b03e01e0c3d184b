#!/usr/bin/env bash
# Stops the local engines (SIGTERM, then SIGKILL after STOP_TIMEOUT=30s) and removes .infra/env
# (or rewrites it for the engines still up). Data is kept unless --purge is given.
# Usage: bash infra/local/down.sh [--purge] [kafka|minio|postgres|keycloak|mailpit|all]...
set -euo pipefail
# shellcheck source=infra/local/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

purge=0
args=()
for a in "$@"; do
  if [[ $a == --purge ]]; then purge=1; else args+=("$a"); fi
done
parse_targets "${args[@]+"${args[@]}"}"
state_lock

# Stop both at once: Kafka's controlled shutdown takes a few seconds. (*_running first re-adopts
# an engine of this checkout whose pid file was lost.)
pids=()
if targets_has kafka; then kafka_running >/dev/null || true; fi
if targets_has minio; then minio_running >/dev/null || true; fi
if targets_has mailpit; then mailpit_running >/dev/null || true; fi
if targets_has kafka; then stop_pid kafka "$KAFKA_PID" "kafka.Kafka" & pids+=($!); fi
if targets_has minio; then stop_pid minio "$MINIO_PID" "minio server" & pids+=($!); fi
if targets_has mailpit; then stop_pid mailpit "$MAILPIT_PID" "$MAILPIT_BIN" & pids+=($!); fi
if targets_has postgres; then postgres_stop & pids+=($!); fi
if targets_has keycloak; then keycloak_stop & pids+=($!); fi
for p in "${pids[@]}"; do wait "$p"; done

if ((purge)); then
  if targets_has kafka; then rm -rf "$KAFKA_STATE" && log "kafka: data removed"; fi
  if targets_has minio; then rm -rf "$MINIO_STATE" && log "minio: data and credentials removed"; fi
  if targets_has postgres; then rm -rf "$POSTGRES_STATE" "$POSTGRES_CREDS" && log "postgres: cluster and credentials removed"; fi
  if targets_has keycloak; then rm -rf "$KEYCLOAK_STATE" && log "keycloak: home and credentials removed"; fi
fi
write_env
if [[ -f $ENV_FILE ]]; then
  log "${ENV_FILE#"$REPO_ROOT"/} now lists: $(cut -d= -f1 "$ENV_FILE" | paste -sd' ')"
else
  log "removed ${ENV_FILE#"$REPO_ROOT"/}"
fi
