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

package dev.lease.fence.jdbc;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.Assert;
import org.springframework.util.function.SingletonSupplier;

import dev.lease.Fence;
import dev.lease.FenceExpiredException;
import dev.lease.LeaseKey;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.FenceRefusals;
import dev.lease.fence.FencedParty;
import dev.lease.host.jdbc.DatabaseClock;

/**
 * Writes to a database as a fenced party: runs the write and then, last in the same
 * transaction, reads the database's own clock and compares it bare with the fence (Fence
 * 3, 4, 6). A reading past the fence rolls the transaction back and throws
 * {@link FenceExpiredException}: nothing of the write remains.
 * <p>
 * The fence is the one bound to the current call for this template's party by a
 * {@code @Fenced} method, or one passed explicitly. When the write joins a transaction
 * that is already running, the check also runs again just before that transaction
 * commits, so it stays the last thing the transaction does. Reads need no fence: use
 * {@link #getJdbcOperations()}.
 * <p>
 * A refusal is reported to the listener the template was built with or, built without
 * one, to the application's listener carried by the bound fence: counted once either way.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FencedJdbcTemplate implements FencedParty {

	private final String party;

	private final JdbcTemplate jdbcTemplate;

	private final TransactionTemplate transactionTemplate;

	private final @Nullable FenceRefusalListener listener;

	private final SingletonSupplier<DatabaseClock> clock;

	/**
	 * Create a template writing to the given data source as the given fenced party; its
	 * refusals are reported to the application's listener, carried by the fence a
	 * {@code @Fenced} method binds.
	 * @param dataSource the data source
	 * @param party the fenced party, as named under {@code lease.fences}
	 */
	public FencedJdbcTemplate(DataSource dataSource, String party) {
		this(party, dataSource, null);
	}

	/**
	 * Create a template writing to the given data source as the given fenced party.
	 * @param dataSource the data source
	 * @param party the fenced party, as named under {@code lease.fences}
	 * @param listener told of every refusal, instead of the listener the bound fence
	 * carries
	 */
	public FencedJdbcTemplate(DataSource dataSource, String party, FenceRefusalListener listener) {
		this(party, dataSource, FenceRefusals.requireListener(listener));
	}

	private FencedJdbcTemplate(String party, DataSource dataSource, @Nullable FenceRefusalListener listener) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		Assert.hasText(party, "'party' must not be empty");
		this.party = party;
		this.jdbcTemplate = new JdbcTemplate(dataSource);
		this.transactionTemplate = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
		this.listener = listener;
		// Chosen at the first write: creating the template does not connect.
		this.clock = SingletonSupplier.of(() -> DatabaseClock.of(dataSource));
	}

	/**
	 * Return the fenced party this template writes as.
	 * @return the party name, as named under {@code lease.fences}
	 */
	@Override
	public String party() {
		return this.party;
	}

	/**
	 * Return plain operations on the same data source, for reads that need no fence.
	 * @return the operations
	 */
	public JdbcOperations getJdbcOperations() {
		return this.jdbcTemplate;
	}

	/**
	 * Run one fenced update under the fence bound for this template's party.
	 * @param sql the SQL statement
	 * @param args the arguments
	 * @return the number of rows affected
	 * @throws FenceExpiredException if the fence had passed on the database's clock
	 */
	public int update(String sql, @Nullable Object... args) {
		return write((jdbc) -> jdbc.update(sql, args));
	}

	/**
	 * Run one fenced update under the given fence.
	 * @param fence the fence minted for this template's party
	 * @param sql the SQL statement
	 * @param args the arguments
	 * @return the number of rows affected
	 * @throws FenceExpiredException if the fence had passed on the database's clock
	 */
	public int update(Fence fence, String sql, @Nullable Object... args) {
		return write(fence, (jdbc) -> jdbc.update(sql, args));
	}

	/**
	 * Run a fenced batch update under the fence bound for this template's party.
	 * @param sql the SQL statement
	 * @param batchArgs the arguments of each statement
	 * @return the number of rows affected by each statement
	 * @throws FenceExpiredException if the fence had passed on the database's clock
	 */
	public int[] batchUpdate(String sql, List<Object[]> batchArgs) {
		return write((jdbc) -> jdbc.batchUpdate(sql, batchArgs));
	}

	/**
	 * Run several statements in one transaction under the fence bound for this template's
	 * party, the fence check last.
	 * @param <T> the work's result type
	 * @param work the statements
	 * @return the work's result
	 * @throws FenceExpiredException if the fence had passed on the database's clock
	 */
	public <T> T write(Function<JdbcOperations, T> work) {
		BoundFence bound = FenceBinding.required(this.party);
		return write(bound.fence(), bound.key(), FenceRefusals.listener(this.party, this.listener), work);
	}

	/**
	 * Run several statements in one transaction under the given fence, the fence check
	 * last.
	 * @param <T> the work's result type
	 * @param fence the fence minted for this template's party
	 * @param work the statements
	 * @return the work's result
	 * @throws FenceExpiredException if the fence had passed on the database's clock
	 */
	public <T> T write(Fence fence, Function<JdbcOperations, T> work) {
		Assert.notNull(fence, "'fence' must not be null");
		BoundFence bound = FenceBinding.current(this.party);
		return write(fence, (bound != null && bound.fence().equals(fence)) ? bound.key() : null,
				FenceRefusals.listener(this.party, this.listener), work);
	}

	// The listener is resolved when the write starts: a check before a surrounding
	// transaction commits may run after the @Fenced call has unbound its fence.
	private <T> T write(Fence fence, @Nullable LeaseKey key, FenceRefusalListener listener,
			Function<JdbcOperations, T> work) {
		Assert.notNull(work, "'work' must not be null");
		DatabaseClock clock = this.clock.obtain();
		// The fence check of one write: run last in the write's transaction and, when
		// that transaction was joined, again just before it commits.
		Runnable check = () -> {
			Instant reading = clock.read(this.jdbcTemplate);
			if (!fence.admits(reading)) {
				throw FenceRefusals.refused(new FenceRefusal(this.party, key, fence.instant(), fence.margin(), reading),
						listener);
			}
		};
		return this.transactionTemplate.execute((status) -> {
			boolean joined = !status.isNewTransaction();
			T written = work.apply(this.jdbcTemplate);
			check.run();
			if (joined && TransactionSynchronizationManager.isSynchronizationActive()) {
				TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

					@Override
					public void beforeCommit(boolean readOnly) {
						check.run();
					}

				});
			}
			return written;
		});
	}

}
