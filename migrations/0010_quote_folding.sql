-- catalogue schema, version 10: typographic apostrophes and quotation marks fold to ASCII.
--
-- A phone's keyboard types "Côte d’Ivoire" (U+2019) where the catalogue has "Côte d'Ivoire", and
-- transliterated names write "O‘zbekiston" (U+2018) where a user types "O'zbekiston". Search
-- engines take these for the same character; Apple's [cd] does not, and a prefix or CONTAINS
-- search typed one way missed the other. CatalogueKit's folding (Folding.fold, under [d] and
-- [cd]) now turns ‘ ’ ‚ ‛ ʼ into ' and “ ” „ ‟ into ", in the search text and in the keys it
-- writes. This migration folds the keys stored before the same way: every other character of a
-- key is already folded, so replacing these in the key gives exactly what folding the value
-- again gives. Only keys holding one of them are rewritten; the key indexes, the trigram index
-- and the key ranges follow through their triggers.
--
-- An app's own tables are not named here: CatalogueKit folds their keys (SQLiteQuoteFolding) just
-- before it applies this migration, in Swift, where a key holding a mark is the fold of its
-- value as the library wrote it before.

UPDATE country SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, '‘', ''''), '’', ''''), '‚', ''''), '‛', ''''), 'ʼ', ''''), '“', '"'), '”', '"'), '„', '"'), '‟', '"')
WHERE name_key GLOB '*[‘’‚‛ʼ“”„‟]*';
UPDATE country SET capital_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(capital_key, '‘', ''''), '’', ''''), '‚', ''''), '‛', ''''), 'ʼ', ''''), '“', '"'), '”', '"'), '„', '"'), '‟', '"')
WHERE capital_key GLOB '*[‘’‚‛ʼ“”„‟]*';
UPDATE country_alias SET alias_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(alias_key, '‘', ''''), '’', ''''), '‚', ''''), '‛', ''''), 'ʼ', ''''), '“', '"'), '”', '"'), '„', '"'), '‟', '"')
WHERE alias_key GLOB '*[‘’‚‛ʼ“”„‟]*';
UPDATE product SET name_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(name_key, '‘', ''''), '’', ''''), '‚', ''''), '‛', ''''), 'ʼ', ''''), '“', '"'), '”', '"'), '„', '"'), '‟', '"')
WHERE name_key GLOB '*[‘’‚‛ʼ“”„‟]*';
UPDATE product SET type_key = replace(replace(replace(replace(replace(replace(replace(replace(replace(type_key, '‘', ''''), '’', ''''), '‚', ''''), '‛', ''''), 'ʼ', ''''), '“', '"'), '”', '"'), '„', '"'), '‟', '"')
WHERE type_key GLOB '*[‘’‚‛ʼ“”„‟]*';
