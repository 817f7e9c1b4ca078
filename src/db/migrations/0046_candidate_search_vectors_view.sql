-- The candidates' search vectors for other modules' statements: the applications list's `q`
-- (applications repo, pageStatement) keeps only the applications whose candidate matches the
-- candidate search, in the same statement, naming this view, not the candidates table. Owned by
-- the candidates module (its README documents it); the tsquery comes from the same module
-- (`candidateSearchQuery`, candidates service), so a search means the same in both lists. A plain
-- view: PostgreSQL inlines it, and the (company_id, search_vector) GIN index of migration 0039
-- answers it. Erased candidates are left out, as the candidate search leaves them out.
CREATE VIEW candidate_search_vectors AS
  SELECT id, company_id, search_vector FROM candidates WHERE erased_at IS NULL;
