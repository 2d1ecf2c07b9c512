-- Lease host tables for PostgreSQL, version 4: when each waiter arrived, on the database's clock, so that
-- operators see how long the longest-waiting take has waited. Waiters queued before it read as arrived at 0 (not
-- known). The column has no default: a release before this one cannot queue a waiter on these tables, and fails
-- the take saying so instead of working beside this one. Idempotent.
ALTER TABLE LEASE_WAITERS ADD COLUMN IF NOT EXISTS ARRIVED_AT BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE LEASE_WAITERS ALTER COLUMN ARRIVED_AT DROP DEFAULT;
