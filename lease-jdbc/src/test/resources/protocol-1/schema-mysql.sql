-- TEST FIXTURE, never shipped: schema-mysql.sql as it stood at commit
-- 80199ca6561d6184fd6f230798d4f2e25438e870, the tables of the last release whose statements spoke JDBC
-- protocol 1 (on PostgreSQL, no two-integer key lock; no protocol record). Copied unchanged below this
-- header; tests create the previous release's tables with it.
--
-- Lease host tables for MySQL and MariaDB. Keys and holders are VARBINARY, never a collated text type,
-- so that "A" and "a", or "a" and "a ", stay two keys; instants are microseconds since the epoch on the
-- database's clock, so no time zone can shift them.
CREATE TABLE IF NOT EXISTS LEASE_KEYS (
	LEASE_KEY VARBINARY(1024) NOT NULL,
	HOLDER VARBINARY(1024),
	EXPIRES_AT BIGINT,
	LATEST BIGINT NOT NULL,
	QUEUED INTEGER NOT NULL,
	ARRIVALS BIGINT NOT NULL,
	CONSTRAINT LEASE_KEYS_PK PRIMARY KEY (LEASE_KEY)
) ENGINE=InnoDB;

CREATE TABLE IF NOT EXISTS LEASE_WAITERS (
	WAITER_ID BIGINT NOT NULL,
	LEASE_KEY VARBINARY(1024) NOT NULL,
	HOLDER VARBINARY(1024) NOT NULL,
	DURATION_MICROS BIGINT NOT NULL,
	BOUND BIGINT NOT NULL,
	ARRIVAL BIGINT NOT NULL,
	GRANTED_EXPIRES_AT BIGINT,
	CONSTRAINT LEASE_WAITERS_PK PRIMARY KEY (WAITER_ID),
	INDEX LEASE_WAITERS_IX1 (LEASE_KEY, ARRIVAL),
	INDEX LEASE_WAITERS_IX2 (GRANTED_EXPIRES_AT),
	-- A take asks after the holder's own waiters, and a key's poller after its handed ones, without reading the queue.
	INDEX LEASE_WAITERS_IX3 (LEASE_KEY, HOLDER),
	INDEX LEASE_WAITERS_IX4 (LEASE_KEY, GRANTED_EXPIRES_AT)
) ENGINE=InnoDB;
