#!/usr/bin/env python3
"""Both sides of the CONTAINS planner's thresholds, measured on a catalogue file.

For each text: how many candidates the trigram index gives, and what a page (limit 50), a
count capped at 1,001 and an exact count cost through the index and by the ordered scan, and
what the page costs through the key ranges (migration 0006), with how many ranges it read. The
SQL is the SQL CatalogueKit writes for each path (see SQLiteDialect.appendContains and
Connection.fetchPageThroughKeyRanges); Python's sqlite3 module runs it on the system SQLite.
Median of 7 runs each, in ms.

    python3 scripts/contains-threshold.py /path/to/1m.sqlite mug cré pât zéph 'lamp 20' zzq
"""
import sqlite3
import statistics
import sys
import time
import unicodedata

TABLE = "product_name_key_trigram"


def fold(text):
    """Folding as CatalogueKit folds these texts: decomposed, marks dropped, lowercased."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c)).lower()


def pattern(needle):
    """SQLiteTrigramIndex.matchPattern: trigrams from every third character and the last."""
    starts = list(range(0, len(needle) - 2, 3))
    if starts[-1] != len(needle) - 3:
        starts.append(len(needle) - 3)
    trigrams = dict.fromkeys(needle[i:i + 3] for i in starts)
    return " ".join('"' + t.replace('"', '""') + '"' for t in trigrams)


RANGES = "product_name_key_range"


def key_range_page(db, columns, needle, match, limit=50):
    """The page through the key ranges: the ranges holding the text's trigrams, in key order,
    each read for its matches until the page is full. Returns the rows and the ranges read."""
    rows, ranges, previous = [], 0, None
    cursor = db.execute(f"SELECT rowid >> 32 FROM {RANGES}_trigram WHERE {RANGES}_trigram MATCH ? ORDER BY rowid", (match,))
    for (range_id,) in cursor:
        if range_id == previous:
            continue
        previous, ranges = range_id, ranges + 1
        lower, upper = db.execute(
            f"SELECT first_key, (SELECT first_key FROM {RANGES} WHERE id > ?1 ORDER BY id LIMIT 1) FROM {RANGES} WHERE id = ?1",
            (range_id,)).fetchone()
        rows += db.execute(
            f"SELECT {columns} FROM product WHERE instr(product.name_key, ?) > 0 AND product.name_key >= ? AND product.name_key < ?"
            " ORDER BY product.name_key, product.name, product.id LIMIT ?",
            (needle, lower, upper if upper is not None else b"\xff", limit - len(rows))).fetchall()
        if len(rows) >= limit:
            break
    cursor.close()
    return rows, ranges


def median_ms(db, sql, args, runs=7):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        db.execute(sql, args).fetchall()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main():
    path, texts = sys.argv[1], sys.argv[2:]
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    columns = "product.id, product.name, product.type, product.year, product.price"
    candidates = f"product.id IN (SELECT rowid FROM {TABLE} WHERE {TABLE} MATCH ?) AND "
    order = " ORDER BY product.name_key, product.name, product.id LIMIT 50"
    print("| text | candidates | page: key ranges (ranges read) | page: index | page: scan | count to 1,001: index | scan | exact count: index | scan |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for text in texts:
        needle = fold(text.strip())
        match = pattern(needle)
        count = db.execute(f"SELECT count(*) FROM {TABLE} WHERE {TABLE} MATCH ?", (match,)).fetchone()[0]
        where = "instr(product.name_key, ?) > 0"
        scan_page = db.execute(f"SELECT {columns} FROM product WHERE {where}{order}", (needle,)).fetchall()
        ranged, ranges = key_range_page(db, columns, needle, match)
        assert ranged == scan_page, f"{text}: the key ranges' page differs from the scan's"
        times = []
        for _ in range(7):
            start = time.perf_counter()
            key_range_page(db, columns, needle, match)
            times.append(time.perf_counter() - start)
        figures = [
            median_ms(db, f"SELECT {columns} FROM product WHERE {candidates}{where}{order}", (match, needle)),
            median_ms(db, f"SELECT {columns} FROM product WHERE {where}{order}", (needle,)),
            median_ms(db, f"SELECT count(*) FROM (SELECT 1 FROM product WHERE {candidates}{where} LIMIT 1001)", (match, needle)),
            median_ms(db, f"SELECT count(*) FROM (SELECT 1 FROM product WHERE {where} LIMIT 1001)", (needle,)),
            median_ms(db, f"SELECT count(*) FROM product WHERE {candidates}{where}", (match, needle)),
            median_ms(db, f"SELECT count(*) FROM product WHERE {where}", (needle,)),
        ]
        print(f"| `{text}` | {count:,} | {statistics.median(times) * 1000:.2f} ({ranges}) | "
              + " | ".join(f"{f:.2f}" for f in figures) + " |")


if __name__ == "__main__":
    main()
