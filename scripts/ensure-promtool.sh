#!/usr/bin/env bash
# The alerting rules (deploy/prometheus/alerts.yml) are checked by Prometheus' own `promtool check
# rules` in the unit tests (decision 0143). Debian's `prometheus` package ships promtool; it is
# installed when missing (as root, as in CI; without its recommended exporters).
set -euo pipefail
if command -v promtool >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing: promtool: run 'sudo apt-get install -y --no-install-recommends prometheus' and try again." >&2
  exit 1
fi
echo "Installing Debian's prometheus (for promtool) for the alerting rules' check..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends prometheus >/dev/null
