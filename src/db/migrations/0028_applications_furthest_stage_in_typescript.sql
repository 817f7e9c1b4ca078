-- An application's furthest funnel stage (migration 0015) is written by the statements that write
-- the application (src/modules/applications: the insert of a new application and the status move,
-- `greatest(furthest_stage, <rank of the new stage>)`, evaluated on the row version the move
-- updates, so concurrent moves cannot lose a rank), with the ranks in TypeScript
-- (stages.ts `funnelRank`). It was a BEFORE row trigger over funnel_rank(): a rule, not a count
-- that needs the database for correctness under concurrency. The kept counts stay triggers
-- (0015, 0023): applications_kept_counts_update still reads furthest_stage, as written here.
--
-- NOT NULL: an insert that forgets the column now fails on the column itself (the trigger always
-- set it, and the daily counts could never hold a NULL stage, so no row is NULL).

LOCK TABLE applications IN SHARE ROW EXCLUSIVE MODE;

DROP TRIGGER applications_furthest_stage ON applications;
DROP FUNCTION applications_furthest_stage();
DROP FUNCTION funnel_rank(text);

ALTER TABLE applications ALTER COLUMN furthest_stage SET NOT NULL;
