-- Lease host tables for PostgreSQL, version 3: the protocol record, one row the hosts write at start so that a host
-- refuses to start beside instances of a protocol it cannot work beside. Idempotent, and safe to run while instances
-- of the previous release run (they do not read it).
CREATE TABLE IF NOT EXISTS LEASE_PROTOCOL (
	RECORD_ID INTEGER NOT NULL,
	PROTOCOL_VERSION INTEGER NOT NULL,
	WORKS_BESIDE_SINCE INTEGER NOT NULL,
	CONSTRAINT LEASE_PROTOCOL_PK PRIMARY KEY (RECORD_ID)
);
