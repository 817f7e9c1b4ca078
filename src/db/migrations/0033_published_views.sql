-- 0033: views the owning modules publish for reads across modules (issue 27: a module's SQL names
-- only its own tables; another module reads them through its service or through a view it defines
-- and documents). Each is a plain projection, which the planner inlines into the reading query: the
-- same indexes and plans as naming the table. Owners and readers: scripts/check-table-ownership.ts.

-- applications (src/modules/applications/README.md): what the analytics figures count.
CREATE VIEW application_summaries AS
  SELECT id, company_id, job_listing_id, status, applied_at FROM applications;

CREATE VIEW application_stage_moves AS
  SELECT application_id, company_id, to_status, changed_at FROM application_status_history;

-- job-listings (src/modules/job-listings/README.md): a listing's lifecycle status.
CREATE VIEW job_listing_statuses AS
  SELECT id, company_id, status FROM job_listings;
