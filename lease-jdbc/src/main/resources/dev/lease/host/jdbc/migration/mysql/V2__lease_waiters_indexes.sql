-- Lease host tables for MySQL and MariaDB, version 2: two indexes on LEASE_WAITERS. A take asks after the
-- holder's own waiters, and a key's poller after its handed ones, without reading the queue. MySQL has no
-- CREATE INDEX IF NOT EXISTS, so this script runs once, as a migration tool runs it; an index that already
-- exists (tables created by a schema-mysql.sql that has them) fails it with a duplicate key name: mark it
-- applied (Flyway: baseline at version 2) instead.
CREATE INDEX LEASE_WAITERS_IX3 ON LEASE_WAITERS (LEASE_KEY, HOLDER);
CREATE INDEX LEASE_WAITERS_IX4 ON LEASE_WAITERS (LEASE_KEY, GRANTED_EXPIRES_AT);
