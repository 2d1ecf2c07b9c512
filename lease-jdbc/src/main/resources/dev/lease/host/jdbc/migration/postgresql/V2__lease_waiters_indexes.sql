-- Lease host tables for PostgreSQL, version 2: two indexes on LEASE_WAITERS. A take asks after the holder's own
-- waiters, and a key's poller after its handed ones, without reading the queue. Idempotent.
CREATE INDEX IF NOT EXISTS LEASE_WAITERS_IX3 ON LEASE_WAITERS (LEASE_KEY, HOLDER);
CREATE INDEX IF NOT EXISTS LEASE_WAITERS_IX4 ON LEASE_WAITERS (LEASE_KEY, GRANTED_EXPIRES_AT);
