#!/usr/bin/env bash
# Validates docker-compose.yml without a container engine.
#  - `docker compose config --quiet` when the compose v2 plugin is installed (it parses without a daemon);
#  - always, when Go is there: infra/compose-check, built on compose-go (the parser inside
#    `docker compose` v2: schema, interpolation, anchors/merges, references) plus docflow's rules
#    (seven services from infra/docker/Dockerfile, ports 8080-8086, health checks, service_healthy
#    start order, env, loopback-only ports). Built once into the cache (~30 s), then instant.
# Usage: bash infra/validate-compose.sh [compose-file]
set -euo pipefail
INFRA_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$INFRA_DIR/.." && pwd)
FILE=$(realpath "${1:-$REPO_ROOT/docker-compose.yml}")
CACHE_DIR="${DOCFLOW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/docflow}"
checked=0

if docker compose version >/dev/null 2>&1; then
  echo "validate-compose: docker compose $(docker compose version --short) config --quiet"
  docker compose -f "$FILE" config --quiet
  checked=1
fi

if command -v go >/dev/null; then
  src="$INFRA_DIR/compose-check"
  hash=$(cat "$src/main.go" "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-12)
  bin="$CACHE_DIR/compose-check/$hash/compose-check"
  if [[ ! -x $bin ]]; then
    echo "validate-compose: building infra/compose-check (compose-go) into $(dirname "$bin")"
    mkdir -p "$(dirname "$bin")" "$CACHE_DIR/go/mod" "$CACHE_DIR/go/build"
    (cd "$src" && GOMODCACHE="$CACHE_DIR/go/mod" GOCACHE="$CACHE_DIR/go/build" GOTOOLCHAIN=local \
      CGO_ENABLED=0 GOFLAGS="-trimpath -buildvcs=false -modcacherw -mod=readonly" \
      timeout 600 go build -o "$bin.tmp.$$" . && mv "$bin.tmp.$$" "$bin")
  fi
  # Variables the file interpolates come from the caller's environment; with none set, the
  # file's development defaults are checked.
  "$bin" -repo "$REPO_ROOT" "$FILE"
  checked=1
fi

if ((checked == 0)); then
  echo "validate-compose: neither 'docker compose' nor Go is available: nothing validated" >&2
  exit 1
fi
