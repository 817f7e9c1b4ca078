-- A candidate's file sent with an application outlives that application: deleting the application
-- (the sample data's removal deletes every application in a sample listing, a company's own
-- candidates' included) clears the file's link and keeps the file, which is the candidate's.
ALTER TABLE candidate_files DROP CONSTRAINT candidate_files_application_id_fkey;
ALTER TABLE candidate_files
  ADD CONSTRAINT candidate_files_application_id_fkey FOREIGN KEY (application_id) REFERENCES applications(id) ON DELETE SET NULL;
