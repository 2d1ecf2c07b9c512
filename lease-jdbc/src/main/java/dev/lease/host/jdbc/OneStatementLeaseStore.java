/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.lease.host.jdbc;

import dev.lease.LeaseKey;
import dev.lease.host.WaiterQueue;

/**
 * The store on a database whose statements read its clock where they evaluate it, after
 * the key's row or lock is taken: PostgreSQL ({@link PostgresqlLeaseStore}), and MySQL
 * and MariaDB unless started with {@code --sysdate-is-now} ({@link MysqlLeaseStore}). A
 * release with nobody queued is then one statement, its database's own, and the queue's
 * first page is loaded with a reading of the clock; each form takes a free key in its own
 * way.
 *
 * @author Lease contributors
 */
abstract class OneStatementLeaseStore extends JdbcLeaseStore {

	// Parameters: the key and the holder; deletes the key's row when the holder's grant
	// stands and nobody is queued.
	private final String releaseInOneStatement;

	OneStatementLeaseStore(JdbcLeaseCalls calls, JdbcLeaseStatements statements, JdbcLeaseDialect dialect,
			PickedUpWaiters pickedUp, String channel, boolean notifying, String releaseInOneStatement) {
		super(calls, statements, dialect, pickedUp, channel, notifying);
		this.releaseInOneStatement = releaseInOneStatement;
	}

	@Override
	final boolean releaseWithNobodyQueued(LeaseKey key, byte[] holderBytes) {
		byte[] keyBytes = key.bytes();
		return this.calls.statement("release", key,
				(tx) -> tx.update(this.releaseInOneStatement, keyBytes, holderBytes)) == 1;
	}

	@Override
	final WaiterQueue loadQueue(Transaction tx, byte[] keyBytes, int queued) {
		return StoredQueue.readWithClock(tx, this.statements, keyBytes, queued);
	}

}
