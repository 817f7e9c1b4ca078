-- The candidates' search (`q`) is always within one company: one GIN index over (company_id,
-- search_vector) (btree_gin gives uuid a GIN operator class) answers both conditions at once, in
-- place of the GIN over search_vector alone, which found every company's matches and filtered them
-- by company afterwards: a small company's search cost as much as the biggest company's.
-- With both conditions in one index the search's plan no longer depends on how many rows a
-- company has, so it is prepared once per session like the other list pages (docs/decisions.md,
-- "The newest-first pages are planned once per session"): a generic plan over the old index
-- intersected it with the company's btree index (30 ms instead of 2).
-- btree_gin is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX candidates_company_search_idx ON candidates USING gin (company_id, search_vector);
DROP INDEX candidates_search_idx;
