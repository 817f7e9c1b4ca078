-- 0036: rejection reasons (issue 28). A company's list of reasons for a move into REJECTED (kind
-- REJECTION) or WITHDRAWN (kind WITHDRAWAL), owned by the companies module; the company setting
-- that a move into REJECTED must name one; and the reason a move gave, on its history row and on
-- the application (the current one: what the analytics overview counts). docs/decisions.md,
-- "Rejection reasons".

ALTER TABLE companies ADD COLUMN requires_rejection_reason boolean NOT NULL DEFAULT false;

CREATE TABLE rejection_reasons (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('REJECTION', 'WITHDRAWAL')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  -- false: archived (kept, with its name, for the moves that gave it; no new move may give it).
  active boolean NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- One name per company and kind, whatever the letter case (409 on a second).
CREATE UNIQUE INDEX rejection_reasons_company_kind_name_idx ON rejection_reasons(company_id, kind, lower(name));
-- The list's order: oldest first (the defaults in their seeded order, then the company's own).
CREATE INDEX rejection_reasons_company_created_idx ON rejection_reasons(company_id, created_at, id);

-- The reason a move gave. The foreign key keeps a reason any move gave: deleting it fails, and the
-- companies module archives it instead. Partial index: the key check of that delete, and nothing
-- for the moves without a reason.
ALTER TABLE application_status_history ADD COLUMN rejection_reason_id uuid REFERENCES rejection_reasons(id);
CREATE INDEX application_status_history_rejection_reason_idx ON application_status_history(rejection_reason_id)
  WHERE rejection_reason_id IS NOT NULL;

-- The reason of the move that put the application in its current stage (null in any other stage),
-- written by the same statement as that history row (so it always names a reason a history row
-- names: no foreign key of its own, whose delete check would scan applications). Counted by the
-- analytics overview per company and submission day: the partial index answers it from the index.
ALTER TABLE applications ADD COLUMN rejection_reason_id uuid;
CREATE INDEX applications_company_rejection_reason_idx ON applications(company_id, rejection_reason_id, applied_at)
  WHERE rejection_reason_id IS NOT NULL;

-- The published view gains the column at its end (applications README).
CREATE OR REPLACE VIEW application_summaries AS
  SELECT id, company_id, job_listing_id, status, applied_at, rejection_reason_id FROM applications;

-- Every existing company gets the default list (companies/rejection-reasons.ts DEFAULT_REJECTION_REASONS,
-- as of this migration; a new company gets that list when it is created), one millisecond apart so
-- the list shows them in this order.
INSERT INTO rejection_reasons (id, company_id, kind, name, active, created_at, updated_at)
SELECT gen_random_uuid(), c.id, d.kind, d.name, true,
       now() + d.ord * interval '1 millisecond', now() + d.ord * interval '1 millisecond'
FROM companies c
CROSS JOIN (VALUES
  (0, 'REJECTION', 'Not enough experience'),
  (1, 'REJECTION', 'Skills mismatch'),
  (2, 'REJECTION', 'Salary expectations'),
  (3, 'REJECTION', 'Preferred another candidate'),
  (4, 'REJECTION', 'Position filled'),
  (5, 'REJECTION', 'Culture add not aligned'),
  (6, 'REJECTION', 'Duplicate'),
  (7, 'REJECTION', 'Other'),
  (8, 'WITHDRAWAL', 'Accepted another offer'),
  (9, 'WITHDRAWAL', 'Declined our offer'),
  (10, 'WITHDRAWAL', 'Salary expectations'),
  (11, 'WITHDRAWAL', 'No response'),
  (12, 'WITHDRAWAL', 'Withdrew'),
  (13, 'WITHDRAWAL', 'Other')
) AS d(ord, kind, name);
