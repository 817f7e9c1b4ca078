-- 0044: the applications list's `source` filter (applications repo, listApplications) is
-- index-supported. Without an index a page with a rare source walked the company's newest-first
-- index row by row, and its total (counted, not kept) read every application of the company. This
-- index answers both: the page's rows of one source newest first, and the count of one or several
-- sources (within an applied period too) from the index alone. The applied period (`appliedFrom`,
-- `appliedTo`) needs no index of its own: applications_company_applied_idx (company_id,
-- applied_at, id) already ranges over it.
CREATE INDEX applications_company_source_applied_idx ON applications(company_id, source, applied_at DESC, id DESC);
