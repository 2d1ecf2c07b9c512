-- TEST FIXTURE, never shipped: schema-postgresql.sql as it stood at commit
-- 80199ca6561d6184fd6f230798d4f2e25438e870, the tables of the last release whose statements spoke JDBC
-- protocol 1 (on PostgreSQL, no two-integer key lock; no protocol record). Copied unchanged below this
-- header; tests create the previous release's tables with it.
--
-- Lease host tables for PostgreSQL. Keys and holders are bytes compared byte for byte;
-- instants are microseconds since the epoch on the database's clock, so no time zone can shift them.
CREATE TABLE IF NOT EXISTS LEASE_KEYS (
	LEASE_KEY BYTEA NOT NULL,
	HOLDER BYTEA,
	EXPIRES_AT BIGINT,
	LATEST BIGINT NOT NULL,
	QUEUED INTEGER NOT NULL,
	ARRIVALS BIGINT NOT NULL,
	CONSTRAINT LEASE_KEYS_PK PRIMARY KEY (LEASE_KEY)
);

CREATE TABLE IF NOT EXISTS LEASE_WAITERS (
	WAITER_ID BIGINT NOT NULL,
	LEASE_KEY BYTEA NOT NULL,
	HOLDER BYTEA NOT NULL,
	DURATION_MICROS BIGINT NOT NULL,
	BOUND BIGINT NOT NULL,
	ARRIVAL BIGINT NOT NULL,
	GRANTED_EXPIRES_AT BIGINT,
	CONSTRAINT LEASE_WAITERS_PK PRIMARY KEY (WAITER_ID)
);

CREATE INDEX IF NOT EXISTS LEASE_WAITERS_IX1 ON LEASE_WAITERS (LEASE_KEY, ARRIVAL);
CREATE INDEX IF NOT EXISTS LEASE_WAITERS_IX2 ON LEASE_WAITERS (GRANTED_EXPIRES_AT);
-- A take asks after the holder's own waiters, and a key's poller after its handed ones, without reading the queue.
CREATE INDEX IF NOT EXISTS LEASE_WAITERS_IX3 ON LEASE_WAITERS (LEASE_KEY, HOLDER);
CREATE INDEX IF NOT EXISTS LEASE_WAITERS_IX4 ON LEASE_WAITERS (LEASE_KEY, GRANTED_EXPIRES_AT);
