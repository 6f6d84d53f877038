#!/usr/bin/env bash
# Installs the Debian packages the test suite needs, when missing (CI runs as root).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# Chromium's headless shell (same release): the browser tests drive it, the browser itself
# only where it alone decides (tests/browser/conftest.py, CHROMIUM).
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
# nginx: tests/test_deploy.py runs the documented site in front of gunicorn.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
# gcc and Python's headers: pip install -e . compiles the analysis's search (app/rules/search/_core.c).
command -v gcc >/dev/null 2>&1 || need+=(gcc)
python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  || need+=(python3-dev)
# WeasyPrint 70 subsets fonts with HarfBuzz (a DeprecationWarning, so an error in the tests, without it).
ldconfig -p 2>/dev/null | grep -q libharfbuzz-subset || need+=(libharfbuzz-subset0)
fc-list 2>/dev/null | grep -qi "DejaVu Sans" || need+=(fonts-dejavu-core)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing system packages: ${need[*]} (run as root or install them)" >&2
    exit 0
  fi
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# PostgreSQL: the database tests run on it too; start the local cluster if it is down.
if command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  ver=$(ls /etc/postgresql 2>/dev/null | head -n1)
  [ -n "$ver" ] && pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
fi
