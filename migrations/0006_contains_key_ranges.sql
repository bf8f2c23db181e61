-- catalogue schema, version 6: CONTAINS[cd] pages through ranges of the name order.
--
-- A page of a common substring (`pât`, `sol`: 16,000 candidates at 1,000,000 products) cost
-- 14-60 ms: the trigram index of migration 0004 gives its candidates in id order, so each one
-- was looked up and sorted by name, and the ordered scan of the name index reads every key
-- before the page's last match. This index answers "which runs of the name order can hold the
-- text": product_name_key_range cuts the name_key order into ranges of about 64 keys, and
-- product_name_key_range_trigram indexes the trigrams of each range's keys, its rowid being
-- `range id << 32 | sequence`. FTS5 returns rowids in order, so the ranges come in name order;
-- a page reads the keys of those ranges only, in order, and stops when it is full (about
-- 0.1 ms). The results and their order do not change: every match lies in a range that holds
-- its trigrams.
--
-- Range ids grow with first_key, 256 apart, so that a range can be split in place. Document 0
-- of a range holds the keys it was built with; each key inserted or changed since (the
-- triggers) is a document of its own, numbered by the range's `appended` count. Deleted and
-- renamed keys stay until their range is rebuilt: a range read for nothing, never a match
-- missed. CatalogueKit rebuilds a range once 64 keys have been added to it, and the whole index
-- after an import that adds many rows; another tool's writes are indexed by the triggers.
-- The documents are stored so that a range can be rebuilt: with the index, about 60 MB at
-- 1,000,000 products.

CREATE TABLE product_name_key_range (
    id INTEGER PRIMARY KEY,
    first_key TEXT NOT NULL UNIQUE,
    appended INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX product_name_key_range_grown ON product_name_key_range (id) WHERE appended >= 64;
CREATE VIRTUAL TABLE product_name_key_range_trigram USING fts5 (keys, tokenize='trigram case_sensitive 1', detail=none);

WITH ordered AS (
    SELECT name_key AS key, row_number() OVER win - 1 AS position, lag(name_key) OVER win AS previous
    FROM product WHERE name_key <> '' WINDOW win AS (ORDER BY name_key)
)
INSERT INTO product_name_key_range (id, first_key)
SELECT (position / 64) * 256, CASE WHEN position = 0 THEN '' ELSE key END
FROM ordered WHERE position % 64 = 0 AND (position = 0 OR key IS NOT previous);
INSERT OR IGNORE INTO product_name_key_range (id, first_key) VALUES (0, '');
INSERT INTO product_name_key_range_trigram (rowid, keys)
SELECT range_id << 32, group_concat(key, char(10)) FROM (
    SELECT name_key AS key, (SELECT id FROM product_name_key_range WHERE first_key <= product.name_key ORDER BY first_key DESC LIMIT 1) AS range_id
    FROM product WHERE name_key <> ''
) GROUP BY range_id;

CREATE TRIGGER product_name_key_range_after_insert AFTER INSERT ON product WHEN new.name_key <> '' BEGIN
    UPDATE product_name_key_range SET appended = appended + 1 WHERE id = (SELECT id FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1);
    INSERT INTO product_name_key_range_trigram (rowid, keys)
        SELECT (id << 32) | appended, new.name_key FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1;
END;
CREATE TRIGGER product_name_key_range_after_update AFTER UPDATE OF name_key ON product
WHEN new.name_key <> '' AND new.name_key IS NOT old.name_key BEGIN
    UPDATE product_name_key_range SET appended = appended + 1 WHERE id = (SELECT id FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1);
    INSERT INTO product_name_key_range_trigram (rowid, keys)
        SELECT (id << 32) | appended, new.name_key FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1;
END;
