-- A candidate's summary for other modules' statements (docs/decisions.md, "Candidates' data
-- access: one page statement, summaries through a view"): the applications module embeds it beside
-- applications in the same statement (a status move's first read, the applications page), naming
-- this view, not the candidates table. Owned by the candidates module (candidates/tables.ts declares
-- the same select; its README documents it). A plain view: PostgreSQL inlines it into the reading
-- statement, so it costs no round trip or plan. Every candidate, erased ones too (anonymized, their
-- applications keep them); readers filter on company_id as on any table.
CREATE VIEW candidate_summaries AS
  SELECT id, company_id, first_name, last_name, headline, email, phone FROM candidates;
