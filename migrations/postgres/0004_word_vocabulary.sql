-- catalogue schema, version 4, for PostgreSQL: the words of the full-text vectors, where the
-- fuzzy match mode looks up the words a typed word may mean with a typo. SQLite reads its FTS5
-- index's own term list (fts5vocab); a GIN index offers none to SQL, so PostgreSQL keeps one.
--
-- One row per table and word ever written to that table's vectors (`product.words`;
-- `country.name_words` and `country.capital_words`). Statement-level triggers add the words of
-- the rows each INSERT or UPDATE wrote (COPY imports and their merge too): one statement per
-- statement, not per row. Words are never removed: a word no longer stored only makes a fuzzy
-- search ask for a word that matches no row, which changes no answer. Read by the range of one
-- first letter (`word >= $2 AND word < $3`), in bytewise order like the keys.
--
-- Two transactions that both write a word new to the table wait for each other at that word
-- (the primary key), as they would at a new name; words already known never wait.
CREATE TABLE catalogue_word (
    source text COLLATE "C" NOT NULL,
    word text COLLATE "C" NOT NULL,
    PRIMARY KEY (source, word)
);

INSERT INTO catalogue_word (source, word)
SELECT DISTINCT 'product', w FROM product, unnest(tsvector_to_array(words)) AS w
ON CONFLICT DO NOTHING;
INSERT INTO catalogue_word (source, word)
SELECT DISTINCT 'country', w FROM country, unnest(tsvector_to_array(name_words || capital_words)) AS w
ON CONFLICT DO NOTHING;

CREATE FUNCTION catalogue_remember_product_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO catalogue_word (source, word)
    SELECT DISTINCT 'product', w FROM written, unnest(tsvector_to_array(written.words)) AS w
    WHERE NOT EXISTS (SELECT FROM catalogue_word known WHERE known.source = 'product' AND known.word = w)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE FUNCTION catalogue_remember_country_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO catalogue_word (source, word)
    SELECT DISTINCT 'country', w FROM written, unnest(tsvector_to_array(written.name_words || written.capital_words)) AS w
    WHERE NOT EXISTS (SELECT FROM catalogue_word known WHERE known.source = 'country' AND known.word = w)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER product_words_after_insert AFTER INSERT ON product
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION catalogue_remember_product_words();
CREATE TRIGGER product_words_after_update AFTER UPDATE ON product
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION catalogue_remember_product_words();
CREATE TRIGGER country_words_after_insert AFTER INSERT ON country
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION catalogue_remember_country_words();
CREATE TRIGGER country_words_after_update AFTER UPDATE ON country
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION catalogue_remember_country_words();
