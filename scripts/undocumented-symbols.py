#!/usr/bin/env python3
"""Lists the public symbols of a symbol graph that have no doc comment, and exits 1 if any.

Usage: undocumented-symbols.py MODULE.symbols.json

A symbol that implements a protocol requirement (its memberOf relationship names the
requirement as its source origin), a protocol extension's default implementation, and an
override are left out: DocC shows the documentation they inherit.
"""
import json
import sys


def main(path):
    with open(path, encoding="utf-8") as file:
        graph = json.load(file)
    inherits = set()
    for relationship in graph["relationships"]:
        if relationship.get("sourceOrigin") or relationship["kind"] in ("defaultImplementationOf", "overrides"):
            inherits.add(relationship["source"])
    missing = []
    for symbol in graph["symbols"]:
        if symbol.get("docComment") or symbol["identifier"]["precise"] in inherits:
            continue
        location = symbol.get("location") or {}
        where = location.get("uri", "?").split("/Sources/")[-1]
        line = location.get("position", {}).get("line", -1) + 1
        missing.append(f"Sources/{where}:{line}: {symbol['kind']['displayName'].lower()} "
                       f"{'.'.join(symbol['pathComponents'])} has no doc comment")
    for entry in sorted(missing):
        print(entry)
    if missing:
        print(f"{len(missing)} public symbols without documentation", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
