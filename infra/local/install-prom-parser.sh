#!/usr/bin/env bash
# The Prometheus project's own exposition parser (PyPI prometheus-client) in a venv of its own, for the
# test that checks /metrics (Prometheus's promtool does not build here). Installed only when missing;
# prints the venv's python on stdout.
set -euo pipefail
VERSION=0.26.0
CACHE_DIR="${DOCFLOW_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/docflow}"
VENV="$CACHE_DIR/prom-parser/$VERSION"
if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import prometheus_client' 2>/dev/null; then
  echo "[infra] installing prometheus-client $VERSION into $VENV" >&2
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "prometheus-client==$VERSION" >&2
fi
echo "$VENV/bin/python"
