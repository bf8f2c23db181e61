#!/usr/bin/env bash
# Builds and runs the documentation's examples (Examples/EmbeddingExample: the README's
# embedding section and the DocC catalog, verbatim) in a new package that depends on this one
# by path, as an app would, and checks that embedding CatalogueKit builds no network code.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A path dependency is named after its folder: the checkout is reached as ../catalogue.
ln -s "$root" "$work/catalogue"
mkdir -p "$work/app/Sources/App"
cat > "$work/app/Package.swift" <<'EOF'
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "app",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../catalogue"),
    ],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "CatalogueKit", package: "catalogue")]),
    ]
)
EOF
cp "$root"/Examples/EmbeddingExample/*.swift "$work/app/Sources/App/"
cd "$work/app"
swift build 2>&1 | tail -n 3
./.build/debug/App > "$work/output.txt"
head -n 3 "$work/output.txt"
# No network stack in an app that embeds only CatalogueKit.
if find .build/debug -maxdepth 1 -name '*.build' | grep -Ei 'NIO|Hummingbird|Postgres|SSL|Crypto'; then
    echo "check-embedding: an app embedding only CatalogueKit built network code (listed above)" >&2
    exit 1
fi
echo "check-embedding: the examples build and run in a new package; no network code was built"
