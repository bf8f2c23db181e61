-- catalogue schema, version 1.
--
-- Every searchable text column has a *_key twin holding its folded form (Unicode canonical
-- decomposition, combining marks dropped, case folded: "Côte d'Ivoire" -> "cote d'ivoire").
-- CatalogueKit computes the keys in Swift on every write; an index on each key makes a case- and
-- diacritic-insensitive prefix search an index range scan. No application-defined function or
-- collation appears in the schema, so the stock sqlite3 shell reads this file.

-- Facts about this database (e.g. whether the seed was loaded).
CREATE TABLE catalogue_info (
    key TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE country (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE CHECK (length(code) = 2 AND code = upper(code)),
    iso3 TEXT CHECK (iso3 IS NULL OR length(iso3) = 3),
    numeric_code TEXT,
    name TEXT NOT NULL CHECK (name <> ''),
    name_key TEXT NOT NULL,
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
    -- Other names people type ("Ivory Coast", "UK"), joined with "; ". Each one is also a row of
    -- country_alias, with its key.
    aliases TEXT NOT NULL DEFAULT ''
);
-- (name_key, name, id) is the display order: a prefix search reads it in order, with no sort.
CREATE INDEX country_by_name_key ON country (name_key, name);
CREATE INDEX country_by_capital_key ON country (capital_key);

CREATE TABLE country_alias (
    country_id INTEGER NOT NULL REFERENCES country (id) ON DELETE CASCADE,
    alias TEXT NOT NULL CHECK (alias <> ''),
    alias_key TEXT NOT NULL,
    PRIMARY KEY (country_id, alias)
) WITHOUT ROWID;
CREATE INDEX country_alias_by_key ON country_alias (alias_key, country_id);

CREATE TABLE product (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (name <> ''),
    name_key TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    type_key TEXT NOT NULL,
    year INTEGER CHECK (year IS NULL OR year BETWEEN 0 AND 9999),
    price REAL CHECK (price IS NULL OR price >= 0),
    -- The natural key: a name is unique within its type (types compare case-insensitively).
    UNIQUE (name, type_key)
);
CREATE INDEX product_by_name_key ON product (name_key, name);
CREATE INDEX product_by_type_and_name_key ON product (type_key, name_key, name);

-- Word search. External-content FTS5 tables, kept in sync by the triggers below; the
-- unicode61 tokenizer with remove_diacritics 2 folds case and diacritics like the *_key columns.
CREATE VIRTUAL TABLE country_fts USING fts5 (
    name, aliases, capital,
    content = 'country', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

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

CREATE VIRTUAL TABLE product_fts USING fts5 (
    name,
    content = 'product', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);

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
