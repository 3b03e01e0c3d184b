#!/usr/bin/env bash
# Debian's chromium for the browser tests (tests/e2e), driven by playwright-core: no browser download.
# Installed only when missing; `apt-get update` only when the package is not yet known.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "[infra] installing Debian's chromium (browser tests)"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
install() { $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; }
# A package list that is missing, or so old that its version is gone from the mirror: update, try again.
if ! apt-cache show chromium >/dev/null 2>&1 || ! install; then
  $SUDO apt-get update -qq
  install
fi
/usr/bin/chromium --version
