-- Lease host tables for PostgreSQL, version 5: when each key's grant began, on the database's clock, so that a grant
-- read or listed says when it began (Grants 8). 0 is a start not known: rows written before it, or by an instance of
-- an earlier release, which does not write the column. The column keeps its default, so that such instances still
-- take and hand on keys on these tables while a rolling deploy runs. Idempotent.
ALTER TABLE LEASE_KEYS ADD COLUMN IF NOT EXISTS GRANTED_AT BIGINT DEFAULT 0 NOT NULL;
