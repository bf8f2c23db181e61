-- catalogue schema, version 9: the name trigram index without per-row sizes.
--
-- FTS5 keeps, beside an index, each row's token count in a `_docsize` table, which only its
-- ranking functions (bm25) read. Nothing ranks by product_name_key_trigram (migration 0004): it
-- finds candidates for CONTAINS[cd] and fuzzy search, and checks membership. Its sizes took
-- 9.6 MB at 1,000,000 products, and writing them nearly half the time of filling the index
-- (0.55 s instead of 1.03 s in the sqlite3 shell at 1,000,000 rows). The table is created again
-- with columnsize=0 (no `_docsize` table), the same column, tokenizer and triggers, and filled
-- from the table's rows: search results do not change.

DROP TRIGGER product_name_key_trigram_after_insert;
DROP TRIGGER product_name_key_trigram_after_delete;
DROP TRIGGER product_name_key_trigram_after_update;
DROP TABLE product_name_key_trigram;

CREATE VIRTUAL TABLE product_name_key_trigram USING fts5 (
    name_key, content='product', content_rowid='id',
    tokenize='trigram case_sensitive 1', detail=none, columnsize=0
);
INSERT INTO product_name_key_trigram (rowid, name_key) SELECT id, name_key FROM product WHERE name_key <> '' ORDER BY id;

CREATE TRIGGER product_name_key_trigram_after_insert AFTER INSERT ON product WHEN new.name_key <> '' BEGIN
    INSERT INTO product_name_key_trigram (rowid, name_key) VALUES (new.id, new.name_key);
END;
CREATE TRIGGER product_name_key_trigram_after_delete AFTER DELETE ON product WHEN old.name_key <> '' BEGIN
    INSERT INTO product_name_key_trigram (product_name_key_trigram, rowid, name_key) VALUES ('delete', old.id, old.name_key);
END;
CREATE TRIGGER product_name_key_trigram_after_update AFTER UPDATE OF name_key ON product BEGIN
    INSERT INTO product_name_key_trigram (product_name_key_trigram, rowid, name_key)
        SELECT 'delete', old.id, old.name_key WHERE old.name_key <> '';
    INSERT INTO product_name_key_trigram (rowid, name_key) SELECT new.id, new.name_key WHERE new.name_key <> '';
END;
