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

-- The protocol this store's hosts speak: one row, written by the first host to start and raised by a newer one
-- that works beside it, and a host refuses to start beside a protocol it cannot work beside.
CREATE TABLE IF NOT EXISTS LEASE_PROTOCOL (
	RECORD_ID INTEGER NOT NULL,
	PROTOCOL_VERSION INTEGER NOT NULL,
	WORKS_BESIDE_SINCE INTEGER NOT NULL,
	CONSTRAINT LEASE_PROTOCOL_PK PRIMARY KEY (RECORD_ID)
) ENGINE=InnoDB;
