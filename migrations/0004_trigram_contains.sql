-- catalogue schema, version 4: CONTAINS[cd] through a trigram index.
--
-- A substring search used to read every product's name_key (about 65 ms at 1,000,000 rows when
-- few names match). product_name_key_trigram indexes every three-character run of name_key
-- with FTS5's trigram tokenizer (built into SQLite since 3.34): a text of three or more
-- characters looks up the rows holding all its trigrams, and instr() checks those exactly, so
-- the results and their order do not change. CatalogueKit reads the index only when the text is
-- selective (it counts the candidates first); a common text still scans the name index in
-- order, which stops at the page's last row.
--
-- The key is indexed as stored: it is already folded (case_sensitive 1 leaves it alone). An
-- empty key (a row another tool wrote, until its key is set) is not indexed: it holds no trigram.
-- The triggers only index or remove a non-empty key, so the order in which SQLite fires them and
-- migration 0003's key triggers does not matter.
-- detail=none keeps only which rows hold each trigram, not where: about 30 MB at 1,000,000
-- products. The stock sqlite3 shell reads and writes the table; the triggers keep it in sync
-- with name_key, including keys that CatalogueKit folds later for rows written by other tools.
-- The options are in single quotes on purpose: sqlite-utils and Datasette take a table whose SQL
-- holds content="product" for the product's word index, and this one must not be mistaken for
-- it (product_fts is).

CREATE VIRTUAL TABLE product_name_key_trigram USING fts5 (
    name_key, content='product', content_rowid='id',
    tokenize='trigram case_sensitive 1', detail=none
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
