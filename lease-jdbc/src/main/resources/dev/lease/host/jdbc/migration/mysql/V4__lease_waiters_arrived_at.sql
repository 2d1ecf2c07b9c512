-- Lease host tables for MySQL and MariaDB, version 4: when each waiter arrived, on the database's clock, so that
-- operators see how long the longest-waiting take has waited. Waiters queued before it read as arrived at 0 (not
-- known). The column has no default: a release before this one cannot queue a waiter on these tables, and fails
-- the take saying so instead of working beside this one. Idempotent: MySQL has no ADD COLUMN IF NOT EXISTS, so the
-- column is added only where the table does not have it yet.
SET @LEASE_DDL = (SELECT IF(COUNT(*) = 0, 'ALTER TABLE LEASE_WAITERS ADD COLUMN ARRIVED_AT BIGINT NOT NULL DEFAULT 0', 'DO 0')
	FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
	AND UPPER(TABLE_NAME) = UPPER('LEASE_WAITERS') AND UPPER(COLUMN_NAME) = 'ARRIVED_AT');
PREPARE LEASE_STATEMENT FROM @LEASE_DDL;
EXECUTE LEASE_STATEMENT;
DEALLOCATE PREPARE LEASE_STATEMENT;
ALTER TABLE LEASE_WAITERS ALTER COLUMN ARRIVED_AT DROP DEFAULT;
