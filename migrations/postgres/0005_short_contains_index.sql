-- catalogue schema, version 5, for PostgreSQL: an index for CONTAINS of one or two characters
-- on the product name's key.
--
-- pg_trgm (0003) cannot narrow `LIKE '%mo%'`: a text under three characters holds no trigram, so
-- the planner read the key index in order until 50 rows matched, or scanned the whole table to
-- count them: at 1,000,000 products a page of `mo` took 84–115 ms and its capped count 47 ms.
-- This index lists each key's characters and pairs of neighbouring characters
-- (catalogue_short_substrings('mug 1') = {m,u,g," ",1,mu,ug,"g "," 1"}), so the rows holding a
-- text of one or two characters are those whose list contains it. The engine writes such a
-- CONTAINS, where every row must meet it (not among an OR's alternatives), as
--     strpos(product.name_key, $1) > 0 AND catalogue_short_substrings(product.name_key) @> ARRAY[$2]::text[]
-- (PostgresDialect.appendContains(_:_:required:into:)): the second condition is what the index
-- serves, the first the exact test (the same rows: every key holding the text lists it). strpos
-- rather than LIKE, which pg_trgm would offer to serve by reading its whole index.
--
-- It needs no extension (a GIN index of text[], array_ops). The function is not inlined (its
-- body holds a subquery), so its COST stands: the planner tests the cheap strpos first, and
-- computes the list only for rows that hold the text, where it does not read the index. A NULL
-- key gives NULL (STRICT), as LIKE does.
--
-- Names are qualified with pg_catalog so that no object on a caller's search_path changes what an
-- index expression computes.
CREATE FUNCTION catalogue_short_substrings(key text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000 AS $$
    SELECT pg_catalog.string_to_array(key, NULL)
        || ARRAY(SELECT pg_catalog.substr(key, i, 2) FROM pg_catalog.generate_series(1, pg_catalog.char_length(key) - 1) AS i)
$$;

CREATE INDEX product_name_key_short_substrings ON product USING gin (catalogue_short_substrings(name_key));
