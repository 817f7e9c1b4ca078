-- The candidates' search (`q`) as one function of the text: its words, split by the parser that
-- built search_vector (so an e-mail or "node.js" stays one word), each matching a word or its start,
-- all required; quoted, so no character of q is tsquery syntax. NULL when q has no word (matches
-- nothing). IMMUTABLE, so a statement planned with q's value computes the query while planning and
-- PostgreSQL estimates how many candidates it matches from the column's statistics: a search for a
-- common word then walks the company's newest-first index to rank its newest matches, a rare one
-- reads its few matches from the search index (docs/decisions.md, "Candidate search: relevance
-- among the newest 500 matches").
CREATE FUNCTION candidate_search_query(q text) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT string_agg('''' || replace(replace(lexeme, '\', '\\'), '''', '''''') || ''':*', ' & ')::tsquery
  FROM unnest(to_tsvector('simple'::regconfig, q))
$$;
