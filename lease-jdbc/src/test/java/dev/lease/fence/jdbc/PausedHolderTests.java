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

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.FenceExpiredException;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A holder that pauses past its term (a long GC, a stalled VM): the waiter gets the key
 * at the paused holder's instant, and the store refuses the paused holder's fenced write.
 *
 * @author Lease contributors
 */
class PausedHolderTests {

	private static final Duration TERM = Duration.ofMillis(500);

	private static final Duration NEXT_TERM = Duration.ofSeconds(30);

	private final DataSource store = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:paused-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	@DisplayName("Fence 3, 4, Check 3.2, Invariant 1: a holder paused past its term loses the key to the waiter at its instant, its fenced write is refused, and the history holds")
	void pausedHolderLosesTheKeyAtItsInstantAndItsWriteIsRefused() throws Exception {
		RecordingLeaseHost host = new RecordingLeaseHost(new InMemoryLeaseHost());
		JdbcTemplate jdbc = new JdbcTemplate(this.store);
		jdbc.execute("CREATE TABLE LEDGER (ID VARCHAR(64) PRIMARY KEY, VAL VARCHAR(64))");
		FencedJdbcTemplate ledger = new FencedJdbcTemplate(this.store, "ledger");
		LeaseKey key = LeaseKey.of("paused-" + UUID.randomUUID());
		LeaseHolder paused = LeaseHolder.of("paused-" + UUID.randomUUID());
		LeaseHolder waiter = LeaseHolder.of("waiter-" + UUID.randomUUID());
		Lease lease = ((Taken) host.tryTake(key, paused, TERM)).lease();
		Fence fence = Fence.mint(lease, Allowance.of(Duration.ofMillis(50)));
		CompletableFuture<TakeResult> next = CompletableFuture.supplyAsync(() -> take(host, key, waiter));
		// The pause: longer than anyone budgeted, past the term and the allowance.
		Thread.sleep(TERM.plusMillis(300).toMillis());
		TakeResult handed = next.get(10, TimeUnit.SECONDS);
		assertThat(handed).isInstanceOf(Taken.class);
		assertThat(((Taken) handed).lease().expiresAt().minus(NEXT_TERM))
			.as("Check 3.2: granted at the paused holder's instant, not earlier")
			.isEqualTo(lease.expiresAt());
		assertThatExceptionOfType(FenceExpiredException.class)
			.isThrownBy(() -> ledger.update(fence, "INSERT INTO LEDGER (ID, VAL) VALUES (?, ?)", "1", "late"));
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM LEDGER", Integer.class))
			.as("nothing of the paused holder's write landed")
			.isZero();
		host.release(key, waiter);
		HistoryAssertions.assertAllowedAndNothingLeft(host, HistoryAssertions.TOLERANCE,
				() -> host.grants(Integer.MAX_VALUE).stream().filter((grant) -> grant.key().equals(key)).toList());
	}

	private static TakeResult take(RecordingLeaseHost host, LeaseKey key, LeaseHolder holder) {
		try {
			return host.take(key, holder, NEXT_TERM);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
