#!/usr/bin/env bash
# Native Tesseract (Debian's tesseract-ocr with English data): the reference the OCR benchmark
# measures tesseract.js against. Installed only when missing.
set -euo pipefail
if command -v tesseract >/dev/null 2>&1; then exit 0; fi
echo "[infra] installing Debian's tesseract-ocr (benchmark reference)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-eng >/dev/null
tesseract --version | head -1
