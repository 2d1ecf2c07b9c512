-- Lease host tables for MySQL and MariaDB, version 5: when each key's grant began, on the database's clock, so that a
-- grant read or listed says when it began (Grants 8). 0 is a start not known: rows written before it, or by an
-- instance of an earlier release, which does not write the column. The column keeps its default, so that such
-- instances still take and hand on keys on these tables while a rolling deploy runs. Idempotent: MySQL has no ADD
-- COLUMN IF NOT EXISTS, so the column is added only where the table does not have it yet.
SET @LEASE_DDL = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE LEASE_KEYS ADD COLUMN GRANTED_AT BIGINT NOT NULL DEFAULT 0', 'DO 0')
	FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
	AND UPPER(TABLE_NAME) = UPPER('LEASE_KEYS') AND UPPER(COLUMN_NAME) = 'GRANTED_AT');
PREPARE LEASE_STATEMENT FROM @LEASE_DDL;
EXECUTE LEASE_STATEMENT;
DEALLOCATE PREPARE LEASE_STATEMENT;
