-- catalogue schema, version 3: rows written by other tools (the sqlite3 shell, sqlite-utils, an
-- ETL job) become searchable.
--
-- A plain `INSERT INTO product (name, type, year, price)` used to fail with "NOT NULL constraint
-- failed: product.name_key": other tools do not compute the folded keys. Now every NOT NULL key
-- column has DEFAULT '', and triggers notice rows whose keys their writer did not set:
--   - an insert with an empty key (or a NULL capital_key beside a capital) gets a provisional key,
--     lower() of the value (SQLite's lower() folds ASCII letters only), and is queued;
--   - an update that changes a keyed value but leaves its key alone is queued.
-- The queue, catalogue_refold, names the row (by an id column) and the value and key columns.
-- CatalogueKit folds the queued values in Swift, exactly as it folds its own writes, and empties
-- the queue: when it opens the file, at the end of each of its write transactions, and when it
-- notices another process's commit (change checks, change streams). `catalogue reindex` does it
-- on request.
--
-- The tables are rebuilt to add the defaults (SQLite cannot alter a column), keeping every row,
-- id and index; country and country_alias are rebuilt together so that no cascade deletes run.

CREATE TABLE catalogue_refold (
    table_name TEXT NOT NULL,
    id_column TEXT NOT NULL,
    row_id INTEGER NOT NULL,
    value_column TEXT NOT NULL,
    key_column TEXT NOT NULL,
    PRIMARY KEY (table_name, row_id, value_column)
) WITHOUT ROWID;

CREATE TABLE country_new (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE CHECK (length(code) = 2 AND code = upper(code)),
    iso3 TEXT CHECK (iso3 IS NULL OR length(iso3) = 3),
    numeric_code TEXT,
    name TEXT NOT NULL CHECK (name <> ''),
    name_key TEXT NOT NULL DEFAULT '',
    official_name TEXT,
    capital TEXT CHECK (capital IS NULL OR capital <> ''),
    capital_key TEXT,
    continent TEXT,
    region TEXT,
    subregion TEXT,
    population INTEGER CHECK (population IS NULL OR population >= 0),
    area_km2 REAL CHECK (area_km2 IS NULL OR area_km2 >= 0),
    currency_code TEXT,
    currency_name TEXT,
    tld TEXT,
    calling_code TEXT,
    languages TEXT,
    neighbours TEXT,
    demonym TEXT,
    flag TEXT,
    aliases TEXT NOT NULL DEFAULT ''
);
INSERT INTO country_new SELECT id, code, iso3, numeric_code, name, name_key, official_name, capital, capital_key,
    continent, region, subregion, population, area_km2, currency_code, currency_name, tld, calling_code, languages,
    neighbours, demonym, flag, aliases FROM country;

CREATE TABLE country_alias_new (
    country_id INTEGER NOT NULL REFERENCES country_new (id) ON DELETE CASCADE,
    alias TEXT NOT NULL CHECK (alias <> ''),
    alias_key TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (country_id, alias)
) WITHOUT ROWID;
INSERT INTO country_alias_new SELECT country_id, alias, alias_key FROM country_alias;

-- The aliases go first, so dropping country cascades to nothing.
DROP TABLE country_alias;
DROP TABLE country;
ALTER TABLE country_new RENAME TO country;
ALTER TABLE country_alias_new RENAME TO country_alias;

CREATE INDEX country_by_name_key ON country (name_key, name);
CREATE INDEX country_by_capital_key ON country (capital_key);
CREATE INDEX country_alias_by_key ON country_alias (alias_key, country_id);

CREATE TABLE product_new (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (name <> ''),
    name_key TEXT NOT NULL DEFAULT '',
    type TEXT NOT NULL CHECK (type <> ''),
    type_key TEXT NOT NULL DEFAULT '',
    year INTEGER CHECK (year IS NULL OR year BETWEEN 0 AND 9999),
    price REAL CHECK (price IS NULL OR price >= 0),
    UNIQUE (name, type_key)
);
INSERT INTO product_new SELECT id, name, name_key, type, type_key, year, price FROM product;
DROP TABLE product;
ALTER TABLE product_new RENAME TO product;
CREATE INDEX product_by_name_key ON product (name_key, name);
CREATE INDEX product_by_type_and_name_key ON product (type_key, name_key, name);

-- The full-text triggers went with the tables; the same as in version 2.
CREATE TRIGGER country_fts_after_insert AFTER INSERT ON country BEGIN
    INSERT INTO country_fts (rowid, name, aliases, capital) VALUES (new.id, new.name, new.aliases, new.capital);
END;
CREATE TRIGGER country_fts_after_delete AFTER DELETE ON country BEGIN
    INSERT INTO country_fts (country_fts, rowid, name, aliases, capital) VALUES ('delete', old.id, old.name, old.aliases, old.capital);
END;
CREATE TRIGGER country_fts_after_update AFTER UPDATE OF name, aliases, capital ON country BEGIN
    INSERT INTO country_fts (country_fts, rowid, name, aliases, capital) VALUES ('delete', old.id, old.name, old.aliases, old.capital);
    INSERT INTO country_fts (rowid, name, aliases, capital) VALUES (new.id, new.name, new.aliases, new.capital);
END;
CREATE TRIGGER product_fts_after_insert AFTER INSERT ON product BEGIN
    INSERT INTO product_fts (rowid, name) VALUES (new.id, new.name);
END;
CREATE TRIGGER product_fts_after_delete AFTER DELETE ON product BEGIN
    INSERT INTO product_fts (product_fts, rowid, name) VALUES ('delete', old.id, old.name);
END;
CREATE TRIGGER product_fts_after_update AFTER UPDATE OF name ON product BEGIN
    INSERT INTO product_fts (product_fts, rowid, name) VALUES ('delete', old.id, old.name);
    INSERT INTO product_fts (rowid, name) VALUES (new.id, new.name);
END;

-- Keys their writer did not set: a provisional key now, the exact one from CatalogueKit later.
CREATE TRIGGER product_keys_after_insert AFTER INSERT ON product
WHEN new.name_key = '' OR new.type_key = '' BEGIN
    UPDATE product SET name_key = CASE WHEN new.name_key = '' THEN lower(new.name) ELSE name_key END,
        type_key = CASE WHEN new.type_key = '' THEN lower(new.type) ELSE type_key END
    WHERE id = new.id;
    INSERT OR IGNORE INTO catalogue_refold VALUES ('product', 'id', new.id, 'name', 'name_key');
    INSERT OR IGNORE INTO catalogue_refold VALUES ('product', 'id', new.id, 'type', 'type_key');
END;
CREATE TRIGGER product_keys_after_update AFTER UPDATE OF name, type ON product
WHEN (new.name IS NOT old.name AND new.name_key IS old.name_key) OR (new.type IS NOT old.type AND new.type_key IS old.type_key) BEGIN
    INSERT OR IGNORE INTO catalogue_refold VALUES ('product', 'id', new.id, 'name', 'name_key');
    INSERT OR IGNORE INTO catalogue_refold VALUES ('product', 'id', new.id, 'type', 'type_key');
END;
CREATE TRIGGER country_keys_after_insert AFTER INSERT ON country
WHEN new.name_key = '' OR (new.capital IS NOT NULL AND new.capital_key IS NULL) BEGIN
    UPDATE country SET name_key = CASE WHEN new.name_key = '' THEN lower(new.name) ELSE name_key END,
        capital_key = coalesce(capital_key, lower(new.capital))
    WHERE id = new.id;
    INSERT OR IGNORE INTO catalogue_refold VALUES ('country', 'id', new.id, 'name', 'name_key');
    INSERT OR IGNORE INTO catalogue_refold VALUES ('country', 'id', new.id, 'capital', 'capital_key');
END;
CREATE TRIGGER country_keys_after_update AFTER UPDATE OF name, capital ON country
WHEN (new.name IS NOT old.name AND new.name_key IS old.name_key)
    OR (new.capital IS NOT old.capital AND new.capital_key IS old.capital_key) BEGIN
    INSERT OR IGNORE INTO catalogue_refold VALUES ('country', 'id', new.id, 'name', 'name_key');
    INSERT OR IGNORE INTO catalogue_refold VALUES ('country', 'id', new.id, 'capital', 'capital_key');
END;
CREATE TRIGGER country_alias_keys_after_insert AFTER INSERT ON country_alias
WHEN new.alias_key = '' BEGIN
    UPDATE country_alias SET alias_key = lower(new.alias) WHERE country_id = new.country_id AND alias = new.alias;
    INSERT OR IGNORE INTO catalogue_refold VALUES ('country_alias', 'country_id', new.country_id, 'alias', 'alias_key');
END;
