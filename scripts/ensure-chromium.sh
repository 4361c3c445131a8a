#!/usr/bin/env bash
# Debian's Chromium builds; Playwright cannot download a browser here. The browser journeys drive
# chromium-headless-shell (the same build without a window system, about half the CPU: decision
# 0131); Lighthouse, the screenshots and the brand images drive the full `chromium`.
#
#   bash scripts/ensure-chromium.sh                  both
#   bash scripts/ensure-chromium.sh headless-shell   the journeys' only (npm test)
set -euo pipefail
case "${1:-all}" in
  headless-shell) wanted=(chromium-headless-shell) ;;
  all) wanted=(chromium chromium-headless-shell) ;;
  *) echo "usage: ensure-chromium.sh [headless-shell]" >&2; exit 2 ;;
esac
missing=()
for package in "${wanted[@]}"; do
  [ -x "/usr/bin/$package" ] || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing: ${missing[*]}: run 'sudo apt-get install -y ${missing[*]}' and try again." >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]} for the browser tests..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
