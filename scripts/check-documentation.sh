#!/usr/bin/env bash
# Checks CatalogueKit's documentation: builds the library's symbol graph (it holds what
# CatalogueKit re-exports), compiles the DocC catalog with warnings as errors (every ``link``
# must resolve to one symbol), and fails on a public symbol without a doc comment.
# Implementations of a protocol's requirements count as documented: DocC shows the
# requirement's text for them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
# A scratch build of its own: the symbol graph flags would otherwise rebuild .build's modules.
swift build --target CatalogueKit --scratch-path "$work/build" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$work/all-graphs" 2>&1 | tail -n 1
mkdir "$work/graphs"
cp "$work"/all-graphs/CatalogueKit.symbols.json "$work"/all-graphs/CatalogueKit@*.symbols.json "$work/graphs/"
docc convert Sources/CatalogueKit/CatalogueKit.docc --additional-symbol-graph-dir "$work/graphs" \
    --fallback-display-name CatalogueKit --fallback-bundle-identifier org.catalogue.CatalogueKit \
    --output-path "$work/CatalogueKit.doccarchive" --warnings-as-errors 2>&1 | tail -n 20
python3 scripts/undocumented-symbols.py "$work/graphs/CatalogueKit.symbols.json"
echo "documentation: the DocC catalog compiles without warnings; every public symbol is documented"
