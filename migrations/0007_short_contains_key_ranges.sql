-- catalogue schema, version 7: CONTAINS[cd] pages of one or two characters through the key ranges.
--
-- A text of one or two characters has no trigram, so migration 0006's ranges could not serve
-- it, and its page scanned the name order: `mo`, whose first match comes after 566,000 of
-- 1,000,000 names, cost 31-41 ms. Each key in the ranges' documents is now followed by a
-- newline, and each document ends with one more, so every character of a key starts a
-- trigram: the ranges holding `mo` are those holding a trigram that starts with `mo` (`mon`,
-- `mor`, `mo` and a newline). product_name_key_range_terms (fts5vocab) lists the index's
-- trigrams in order, which finds them; the page then reads those ranges in order, as for
-- longer texts.
--
-- The ranges are built again from the current keys (about 2.3 s at 1,000,000 products), with
-- the triggers that write the new documents.

DROP TRIGGER product_name_key_range_after_insert;
DROP TRIGGER product_name_key_range_after_update;
DELETE FROM product_name_key_range;
DROP TABLE product_name_key_range_trigram;
CREATE VIRTUAL TABLE product_name_key_range_trigram USING fts5 (keys, tokenize='trigram case_sensitive 1', detail=none);
CREATE VIRTUAL TABLE product_name_key_range_terms USING fts5vocab(product_name_key_range_trigram, row);

WITH ordered AS (
    SELECT name_key AS key, row_number() OVER win - 1 AS position, lag(name_key) OVER win AS previous
    FROM product WHERE name_key <> '' WINDOW win AS (ORDER BY name_key)
)
INSERT INTO product_name_key_range (id, first_key)
SELECT (position / 64) * 256, CASE WHEN position = 0 THEN '' ELSE key END
FROM ordered WHERE position % 64 = 0 AND (position = 0 OR key IS NOT previous);
INSERT OR IGNORE INTO product_name_key_range (id, first_key) VALUES (0, '');
INSERT INTO product_name_key_range_trigram (rowid, keys)
SELECT range_id << 32, group_concat(key || char(10), '') || char(10) FROM (
    SELECT name_key AS key, (SELECT id FROM product_name_key_range WHERE first_key <= product.name_key ORDER BY first_key DESC LIMIT 1) AS range_id
    FROM product WHERE name_key <> ''
) GROUP BY range_id;

CREATE TRIGGER product_name_key_range_after_insert AFTER INSERT ON product WHEN new.name_key <> '' BEGIN
    UPDATE product_name_key_range SET appended = appended + 1 WHERE id = (SELECT id FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1);
    INSERT INTO product_name_key_range_trigram (rowid, keys)
        SELECT (id << 32) | appended, new.name_key || char(10, 10) FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1;
END;
CREATE TRIGGER product_name_key_range_after_update AFTER UPDATE OF name_key ON product
WHEN new.name_key <> '' AND new.name_key IS NOT old.name_key BEGIN
    UPDATE product_name_key_range SET appended = appended + 1 WHERE id = (SELECT id FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1);
    INSERT INTO product_name_key_range_trigram (rowid, keys)
        SELECT (id << 32) | appended, new.name_key || char(10, 10) FROM product_name_key_range WHERE first_key <= new.name_key ORDER BY first_key DESC LIMIT 1;
END;
