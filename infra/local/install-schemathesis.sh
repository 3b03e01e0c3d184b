#!/usr/bin/env bash
# Installs schemathesis (pinned with every dependency in schemathesis/requirements.txt) into a Python
# venv under the cache, for the OpenAPI fuzz run. Needs Python 3.11+ (`python3`, or $PYTHON) and PyPI
# the first time; afterwards it only checks the install. Idempotent and safe to run concurrently.
# Prints the path of the `st` command as its only line on stdout (progress goes to stderr).
set -euo pipefail
# shellcheck source=infra/local/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
exec 3>&1 1>&2

SCHEMATHESIS_REQUIREMENTS="$INFRA_LOCAL_DIR/schemathesis/requirements.txt"
SCHEMATHESIS_INSTALL_TIMEOUT=${SCHEMATHESIS_INSTALL_TIMEOUT:-600}
schemathesis_version() { sed -n 's/^schemathesis==//p' "$SCHEMATHESIS_REQUIREMENTS"; }
# Keyed by the pins' contents (not paths): every clone on the machine shares the install.
SCHEMATHESIS_HOME="$CACHE_DIR/schemathesis/$(schemathesis_version)-$(sha256sum <"$SCHEMATHESIS_REQUIREMENTS" | cut -c1-12)"
ST_BIN="$SCHEMATHESIS_HOME/venv/bin/st"

schemathesis_installed() { [[ -f $SCHEMATHESIS_HOME/.complete && -x $ST_BIN ]]; }

require_python311() {
  PYTHON_BIN=${PYTHON:-python3}
  command -v "$PYTHON_BIN" >/dev/null || die "schemathesis needs Python 3.11 or newer: no '$PYTHON_BIN' on PATH (Debian: apt-get install -y python3 python3-venv)"
  "$PYTHON_BIN" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "schemathesis needs Python 3.11 or newer; $PYTHON_BIN is $("$PYTHON_BIN" --version 2>&1)"
  "$PYTHON_BIN" -c 'import venv, ensurepip' 2>/dev/null \
    || die "$PYTHON_BIN cannot create a venv with pip (Debian: apt-get install -y python3-venv)"
}

# A venv is not relocatable (its scripts name their interpreter by absolute path), so it is built in
# place under the lock, and only the .complete marker makes it count as installed.
_schemathesis_install_locked() {
  schemathesis_installed && return 0
  rm -rf "$SCHEMATHESIS_HOME"
  mkdir -p "$SCHEMATHESIS_HOME"
  log "schemathesis: creating a venv with $("$PYTHON_BIN" --version 2>&1) in $SCHEMATHESIS_HOME"
  "$PYTHON_BIN" -m venv "$SCHEMATHESIS_HOME/venv" || { rm -rf "$SCHEMATHESIS_HOME"; die "schemathesis: venv creation failed"; }
  run_with_progress "schemathesis: pip install $(schemathesis_version)" "$SCHEMATHESIS_INSTALL_TIMEOUT" "$SCHEMATHESIS_HOME/install.log" \
    "$SCHEMATHESIS_HOME/venv/bin/python" -m pip install --disable-pip-version-check --no-input -q -r "$SCHEMATHESIS_REQUIREMENTS" \
    || { rm -rf "$SCHEMATHESIS_HOME"; die "schemathesis: pip install failed (log above)"; }
  "$ST_BIN" --version >/dev/null || { rm -rf "$SCHEMATHESIS_HOME"; die "schemathesis: 'st --version' failed after the install"; }
  touch "$SCHEMATHESIS_HOME/.complete"
}

if ! schemathesis_installed; then
  require_python311
  with_lock "$CACHE_DIR/schemathesis/.install.lock" _schemathesis_install_locked
fi
echo "$ST_BIN" >&3
