-- catalogue schema, version 7, for PostgreSQL: typographic apostrophes and quotation marks
-- fold to ASCII.
--
-- A phone's keyboard types "Côte d’Ivoire" (U+2019) where the catalogue has "Côte d'Ivoire", and
-- transliterated names write "O‘zbekiston" (U+2018) where a user types "O'zbekiston". Search
-- engines take these for the same character; Apple's [cd] does not, and a prefix or CONTAINS
-- search typed one way missed the other. CatalogueKit's folding (Folding.fold, under [d] and
-- [cd]) now turns ‘ ’ ‚ ‛ ʼ into ' and “ ” „ ‟ into ", in the search text and in the keys it
-- writes. This migration folds the keys stored before the same way (migration 0010 on SQLite):
-- every other character of a key is already folded, so translating these gives exactly what
-- folding the value again gives. Only keys holding one of them are rewritten; the indexes follow.
--
-- An app's own tables are not named here: CatalogueKit folds their keys (PostgresQuoteFolding) just
-- before it applies this migration, in Swift, where a key holding a mark is the fold of its
-- value as the library wrote it before.

UPDATE country SET name_key = pg_catalog.translate(name_key, '‘’‚‛ʼ“”„‟', '''''''''''""""')
WHERE name_key ~ '[‘’‚‛ʼ“”„‟]';
UPDATE country SET capital_key = pg_catalog.translate(capital_key, '‘’‚‛ʼ“”„‟', '''''''''''""""')
WHERE capital_key ~ '[‘’‚‛ʼ“”„‟]';
UPDATE country_alias SET alias_key = pg_catalog.translate(alias_key, '‘’‚‛ʼ“”„‟', '''''''''''""""')
WHERE alias_key ~ '[‘’‚‛ʼ“”„‟]';
UPDATE product SET name_key = pg_catalog.translate(name_key, '‘’‚‛ʼ“”„‟', '''''''''''""""')
WHERE name_key ~ '[‘’‚‛ʼ“”„‟]';
UPDATE product SET type_key = pg_catalog.translate(type_key, '‘’‚‛ʼ“”„‟', '''''''''''""""')
WHERE type_key ~ '[‘’‚‛ʼ“”„‟]';
