#!/usr/bin/env bash
# The page's real-browser tests (test_page.py) and the API's checks against docs/openapi.yaml
# (test_openapi.py), run against a catalogue server.
#
#   Tests/browser/run.sh                         # starts .build/debug/catalogue serve …
#   Tests/browser/run.sh path/to/catalogue       # another binary, or any command taking the same
#                                                # arguments: serve --db D --port P --token-file T
#   CATALOGUE_URL=http://127.0.0.1:8080 CATALOGUE_TOKEN=… Tests/browser/run.sh   # a running server
#
# Extra pytest arguments go in PYTEST_ARGS, e.g. PYTEST_ARGS='-x -k index'.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Debian's Chromium (Playwright's own browser download is never used: it fails here) and a
# colour emoji font for the flags.
missing=()
command -v chromium >/dev/null || missing+=(chromium)
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || missing+=(fonts-noto-color-emoji)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# Playwright for Python, pytest, and the OpenAPI validators, from PyPI.
if ! python3 -c 'import playwright, pytest, openapi_spec_validator, yaml, jsonschema' 2>/dev/null; then
    packages=(playwright pytest openapi-spec-validator pyyaml jsonschema)
    python3 -m pip install --quiet "${packages[@]}" ||
        python3 -m pip install --quiet --break-system-packages "${packages[@]}"
fi

if [ -z "${CATALOGUE_SERVE:-}" ] && [ -z "${CATALOGUE_URL:-}" ]; then
    [ $# -gt 0 ] || set -- .build/debug/catalogue
    printf -v command '%q ' "$@"
    export CATALOGUE_SERVE="${command}serve --db {db} --port {port} --token-file {token_file}"
fi
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"
# shellcheck disable=SC2086 # PYTEST_ARGS is a list of words
exec python3 -m pytest Tests/browser ${PYTEST_ARGS:-}
