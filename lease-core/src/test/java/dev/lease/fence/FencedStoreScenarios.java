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

package dev.lease.fence;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.FenceExpiredException;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The spec's example "A fence carried to a store", made executable against one fenced
 * store: a holder pauses past its term, the key goes to the next holder, and the store
 * refuses the paused holder's write. Each store's tests extend this class (lease-redis
 * and lease-jdbc, through this module's test jar).
 * <p>
 * The fence is bound as a {@code @Fenced} method binds it: minted from the grant with the
 * party's allowance when the call starts. The advice itself is tested in lease-spring.
 *
 * @author Lease contributors
 */
public abstract class FencedStoreScenarios {

	protected static final String PARTY = "store";

	protected static final Duration TERM = Duration.ofMillis(800);

	protected static final Allowance ALLOWANCE = Allowance.of(Duration.ofMillis(100));

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	// Writes one value under the fence bound for PARTY.
	protected abstract void write(String id, String value);

	// Reads one value as the next holder does, with no fence.
	protected abstract @Nullable String read(String id);

	@Test
	@DisplayName("A fence carried to a store (Fence 3, 4): the paused holder's write is refused by the store "
			+ "and the next holder's read sees nothing of it")
	void pausedHolderWriteIsRefusedAndNextHolderSeesNothing() throws Exception {
		LeaseKey key = LeaseKey.of("fence-" + UUID.randomUUID());
		LeaseHolder paused = LeaseHolder.of("paused-" + UUID.randomUUID());
		LeaseHolder next = LeaseHolder.of("next-" + UUID.randomUUID());
		String id = UUID.randomUUID().toString();
		Lease lease = ((Taken) this.host.tryTake(key, paused, TERM)).lease();
		CompletableFuture<TakeResult> nextTake = CompletableFuture.supplyAsync(() -> take(key, next));
		Throwable refused = catchThrowable(() -> fenced(lease, () -> {
			// The holder pauses on purpose for longer than anyone budgeted: past its
			// term.
			Thread.sleep(TERM.plusMillis(200).toMillis());
			assertThat(nextTake.get(10, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
			write(id, "late");
		}));
		assertThat(refused).isInstanceOf(FenceExpiredException.class);
		FenceExpiredException expired = (FenceExpiredException) refused;
		assertThat(expired.getParty()).isEqualTo(PARTY);
		assertThat(expired.getFence()).isEqualTo(Fence.mint(lease, ALLOWANCE).instant());
		assertThat(expired.getReading()).isAfter(expired.getFence());
		assertThat(this.host.remaining(key, next)).isPresent();
		assertThat(read(id)).isNull();
		this.host.release(key, next);
	}

	@Test
	@DisplayName("Fence 3: a write well inside the fence is admitted by the store")
	void writeWellInsideTheFenceIsAdmitted() throws Exception {
		LeaseKey key = LeaseKey.of("fence-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		String id = UUID.randomUUID().toString();
		Lease lease = ((Taken) this.host.tryTake(key, holder, Duration.ofSeconds(30))).lease();
		fenced(lease, () -> write(id, "early"));
		assertThat(read(id)).isEqualTo("early");
		this.host.release(key, holder);
	}

	private TakeResult take(LeaseKey key, LeaseHolder holder) {
		try {
			return this.host.take(key, holder, Duration.ofSeconds(30));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	// What a @Fenced method does around its body: bind the fence minted from the grant.
	private static void fenced(Lease lease, Call call) throws Exception {
		BoundFence bound = new BoundFence(PARTY, lease.key(), Fence.mint(lease, ALLOWANCE));
		try (FenceBinding.Scope scope = FenceBinding.bind(bound)) {
			call.run();
		}
	}

	@FunctionalInterface
	private interface Call {

		void run() throws Exception;

	}

}
