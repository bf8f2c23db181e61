-- catalogue schema, version 8: indexes on a product's year and price.
--
-- The terms mode matches a number against the year and the price as well as the name
-- ("lamp 2001": every term is in the name, or equals the year or the price). With these indexes
-- a term's rows are listed from its indexes (the trigram index for the name, these for the
-- numbers) and the terms' lists intersected, so only the rows in every list are read: at
-- 1,000,000 products, the 477 matches of "lamp 2001" instead of the 22,260 rows that hold "lamp".
-- They also serve any request that filters or sorts by year or price.

CREATE INDEX product_by_year ON product (year);
CREATE INDEX product_by_price ON product (price);
