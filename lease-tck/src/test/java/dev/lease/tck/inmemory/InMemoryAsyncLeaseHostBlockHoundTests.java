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

package dev.lease.tck.inmemory;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.lease.AsyncLeaseHost;
import dev.lease.GrantsPage;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InMemoryLeaseHost#async()} under BlockHound: no question blocks a
 * Reactor thread that must not block, a take that waits and is handed the key included.
 * Runs in a JVM of its own (BlockHound changes JDK classes for the JVM's life).
 *
 * @author Lease contributors
 */
class InMemoryAsyncLeaseHostBlockHoundTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private static final LeaseHolder WAITER = LeaseHolder.of("waiter");

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	@BeforeAll
	static void installBlockHound() throws Exception {
		// Classes loaded and the alarm thread started before BlockHound looks: a first
		// call's class loading reads files.
		AsyncLeaseHost warmUp = new InMemoryLeaseHost().async();
		LeaseKey key = newKey();
		handedOn(questions(warmUp, key));
		assertThat(warmUp.release(key, WAITER).getNow(null)).isInstanceOf(Released.class);
		// Cancelling a timer task takes its queue's lock for a heap removal, which parks
		// only while the timer's own thread holds that lock for another: allowed, as
		// Reactor's own integration allows the same queue's offer and take.
		BlockHound.install((builder) -> builder
			.allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove"));
	}

	@Test
	@DisplayName("BlockHound: a blocking call on a parallel Reactor thread is reported (the detector is installed)")
	void blockingCallOnParallelThreadIsReported() {
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> onParallel(() -> {
			Thread.sleep(1);
			return true;
		})).withCauseInstanceOf(BlockingOperationError.class);
	}

	@Test
	@DisplayName("AsyncLeaseHost: take that waits and is handed the key, try take, remaining, release and grants never block a parallel Reactor thread")
	void questionsNeverBlockAParallelThread() throws Exception {
		// A fresh key is drawn here: UUID reads the system's random source.
		LeaseKey key = newKey();
		AsyncLeaseHost view = this.host.async();
		handedOn(onParallel(() -> questions(view, key)));
		assertThat(onParallel(() -> view.release(key, WAITER).getNow(null))).isInstanceOf(Released.class);
	}

	private static LeaseKey newKey() {
		return LeaseKey.of("blockhound-" + UUID.randomUUID());
	}

	// The take that waited, handed the key by the release: it completes on the host's
	// scheduler.
	private static void handedOn(CompletableFuture<TakeResult> take) throws Exception {
		assertThat(take.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isInstanceOf(Taken.class);
	}

	private static CompletableFuture<TakeResult> questions(AsyncLeaseHost view, LeaseKey key) {
		LeaseHolder holder = LeaseHolder.of("holder");
		LeaseHolder waiter = WAITER;
		assertThat(view.tryTake(key, holder, TERM).getNow(null)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> take = view.take(key, waiter, TERM);
		assertThat(take).isNotDone();
		assertThat(view.remaining(key, holder).getNow(Optional.empty())).isPresent();
		GrantsPage page = view.grants(null, 10).getNow(null);
		assertThat(page).isNotNull();
		assertThat(view.release(key, holder).getNow(null)).isInstanceOf(Released.class);
		return take;
	}

	private static <T> T onParallel(Callable<T> calls) {
		return Mono.fromCallable(calls).subscribeOn(Schedulers.parallel()).block(WITHIN);
	}

}
