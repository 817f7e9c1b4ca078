-- Every membership gets an id of its own. Grants and tokens of the authorization server are bound
-- to the membership they were issued for (its id and company), so a person removed from a company
-- and later joining one again (re-invited, or a company of their own at the next sign-in) gets a new
-- id, and every token of the old membership stays refused.
ALTER TABLE memberships ADD COLUMN id uuid;
UPDATE memberships SET id = gen_random_uuid();
ALTER TABLE memberships ALTER COLUMN id SET NOT NULL;
CREATE UNIQUE INDEX memberships_id_idx ON memberships(id);
