#!/usr/bin/env bash
# Shows whether each local engine is installed, running and ready. Exit 0 when every engine named
# (default: all) is ready, 1 otherwise. Usage: bash infra/local/status.sh [kafka|minio|postgres|keycloak|mailpit|all]...
set -euo pipefail
# shellcheck source=infra/local/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

parse_targets "$@"
ok=0
line() { printf '%-6s %-10s %-8s %s\n' "$@"; }
line engine state pid detail
if targets_has kafka; then
  if kafka_running; then
    if kafka_ready; then
      line kafka ready "$(<"$KAFKA_PID")" "$KAFKA_HOST:$KAFKA_PORT — $(tail -n 1 "$KAFKA_STATE/ready.log")"
    else
      line kafka starting "$(<"$KAFKA_PID")" "$KAFKA_HOST:$KAFKA_PORT not answering yet (log: ${KAFKA_LOGS#"$REPO_ROOT"/}/server.log)"; ok=1
    fi
  else
    line kafka stopped - "$(kafka_installed && echo "installed: $KAFKA_HOME" || echo "not installed (up.sh fetches it)")"; ok=1
  fi
fi
if targets_has minio; then
  if minio_running; then
    if minio_ready; then
      line minio ready "$(<"$MINIO_PID")" "http://$MINIO_HOST:$MINIO_PORT (console http://$MINIO_HOST:$MINIO_CONSOLE_PORT)"
    else
      line minio starting "$(<"$MINIO_PID")" "health check failing (log: ${MINIO_LOG#"$REPO_ROOT"/})"; ok=1
    fi
  else
    line minio stopped - "$(minio_installed && echo "installed: $MINIO_BIN" || echo "not installed (up.sh builds it)")"; ok=1
  fi
fi
if targets_has postgres; then
  if postgres_running; then
    if postgres_ready; then
      line postgres ready "$(postgres_pid_of | sed 's/^pid //')" "$POSTGRES_HOST:$POSTGRES_PORT database docflow (data: ${POSTGRES_DATA#"$REPO_ROOT"/})"
    else
      line postgres starting "$(postgres_pid_of | sed 's/^pid //')" "not answering yet (log: ${POSTGRES_LOG#"$REPO_ROOT"/})"; ok=1
    fi
  else
    line postgres stopped - "$(postgres_installed && echo "installed: $(postgres_bin_dir)" || echo "not installed (up.sh installs postgresql-$POSTGRES_MAJOR)")"; ok=1
  fi
fi
if targets_has keycloak; then
  if keycloak_running; then
    if keycloak_ready; then
      line keycloak ready "$(<"$KEYCLOAK_PID")" "$(keycloak_url)/realms/$KEYCLOAK_REALM (admin console: credentials in ${KEYCLOAK_CREDS#"$REPO_ROOT"/})"
    else
      line keycloak starting "$(<"$KEYCLOAK_PID")" "realm $KEYCLOAK_REALM not answering yet (log: ${KEYCLOAK_LOG#"$REPO_ROOT"/})"; ok=1
    fi
  else
    line keycloak stopped - "$(keycloak_installed && echo "installed: $KEYCLOAK_HOME" || echo "not installed (up.sh fetches it)")"; ok=1
  fi
fi
if targets_has mailpit; then
  if mailpit_running; then
    if mailpit_ready; then
      line mailpit ready "$(<"$MAILPIT_PID")" "SMTP $MAILPIT_HOST:$MAILPIT_SMTP_PORT, messages http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT"
    else
      line mailpit starting "$(<"$MAILPIT_PID")" "not answering yet (log: ${MAILPIT_LOG#"$REPO_ROOT"/})"; ok=1
    fi
  else
    line mailpit stopped - "$(mailpit_installed && echo "installed: $MAILPIT_BIN" || echo "not installed (up.sh builds it)")"; ok=1
  fi
fi
if [[ -f $ENV_FILE ]]; then
  echo "env: ${ENV_FILE#"$REPO_ROOT"/} ($(cut -d= -f1 "$ENV_FILE" | paste -sd' '))"
else
  echo "env: ${ENV_FILE#"$REPO_ROOT"/} absent"
fi
exit "$ok"
