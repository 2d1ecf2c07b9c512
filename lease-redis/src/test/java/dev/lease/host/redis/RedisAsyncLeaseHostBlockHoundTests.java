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

package dev.lease.host.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.lease.AsyncLeaseHost;
import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link RedisLeaseHost#async()} through Lettuce under BlockHound: no question
 * blocks a Reactor thread that must not block, nor one of Lettuce's I/O threads (Netty's
 * own BlockHound integration marks them), a take that waits and is handed the key by a
 * release included. Every blocking call BlockHound reports, on whatever thread, is kept
 * and must be none. Runs in a JVM of its own (BlockHound changes JDK classes for the
 * JVM's life), on the server of {@code LEASE_TEST_REDIS_URL} or an embedded one.
 *
 * @author Lease contributors
 */
class RedisAsyncLeaseHostBlockHoundTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final long WITHIN_SECONDS = 10;

	// Every blocking call BlockHound reported: the method, the thread and where it was
	// called from.
	private static final List<String> reported = new CopyOnWriteArrayList<>();

	private static RedisTestServer server;

	private static RedisLeaseHost host;

	@BeforeAll
	static void startHostThenInstallBlockHound() throws Exception {
		server = RedisTestServer.start();
		String prefix = "lease-blockhound-" + UUID.randomUUID().toString().substring(0, 8) + ":";
		host = RedisLeaseHost.builder(server.lettuce()).keyPrefix(prefix).build();
		// Classes loaded and the connection made before BlockHound looks: a first call's
		// class loading reads files, and the first connection resolves and connects.
		questions(host.async(), newKey(), newKey()).get(WITHIN_SECONDS, TimeUnit.SECONDS);
		// Cancelling a timer task (a command's timeout, once it is answered) takes its
		// queue's lock for a heap removal, which parks only while the timer's own thread
		// holds that lock for another: allowed, as Reactor's own integration allows the
		// same queue's offer and take.
		BlockHound.install((builder) -> builder
			.allowBlockingCallsInside("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", "remove")
			.blockingMethodCallback((method) -> {
				reported.add(method + " on " + Thread.currentThread().getName() + " from " + caller());
				throw new BlockingOperationError(method);
			}));
	}

	@AfterAll
	static void stopHost() {
		host.close();
		server.close();
	}

	@BeforeEach
	void forgetReports() {
		reported.clear();
	}

	@Test
	@DisplayName("BlockHound: a blocking call on a parallel Reactor thread is reported (the detector is installed)")
	void blockingCallOnParallelThreadIsReported() {
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> onParallel(() -> {
			Thread.sleep(1);
			return true;
		})).withCauseInstanceOf(BlockingOperationError.class);
		assertThat(reported).hasSize(1);
	}

	@Test
	@DisplayName("AsyncLeaseHost: try take, a take that waits and is handed the key by a release, remaining and release never block a parallel Reactor thread nor a Lettuce I/O thread")
	void questionsNeverBlockAParallelThread() throws Exception {
		// Fresh keys are drawn here: UUID reads the system's random source.
		LeaseKey key = newKey();
		LeaseKey other = newKey();
		// The JDK's NativePRNG keeps what it read for 100 ms: past that, a question that
		// draws from SecureRandom reads the file again, which BlockHound reports.
		Thread.sleep(150);
		assertThat(questions(host.async(), key, other).get(WITHIN_SECONDS, TimeUnit.SECONDS)).isTrue();
		assertThat(reported).as("blocking calls BlockHound reported").isEmpty();
	}

	// The frames above BlockHound's own: what made the blocking call.
	private static List<String> caller() {
		return StackWalker.getInstance()
			.walk((frames) -> frames.map(StackWalker.StackFrame::toString)
				.filter((frame) -> !frame.startsWith("reactor.blockhound.")
						&& !frame.contains("RedisAsyncLeaseHostBlockHoundTests.lambda"))
				.limit(12)
				.toList());
	}

	private static LeaseKey newKey() {
		return LeaseKey.of("blockhound-" + UUID.randomUUID());
	}

	// Each question asked on a parallel Reactor thread, the next one asked there again
	// once the answer is in; the caller awaits the whole on its own thread.
	private static CompletableFuture<Boolean> questions(AsyncLeaseHost view, LeaseKey key, LeaseKey other) {
		LeaseHolder holder = LeaseHolder.of("holder");
		LeaseHolder waiter = LeaseHolder.of("waiter");
		return ask(() -> view.tryTake(key, holder, TERM)).flatMap((taken) -> {
			assertThat(taken).isInstanceOf(Taken.class);
			return ask(() -> view.tryTake(key, waiter, TERM));
		}).flatMap((held) -> {
			assertThat(held).isInstanceOf(Held.class);
			return onParallelLater(() -> view.take(key, waiter, TERM));
		}).flatMap((take) -> ask(() -> view.remaining(key, holder)).flatMap((remaining) -> {
			assertThat(remaining).isPresent();
			return ask(() -> view.remaining(other, holder));
		}).flatMap((none) -> {
			assertThat(none).isEqualTo(Optional.empty());
			assertThat(take).as("the take waits while the key is held").isNotDone();
			return ask(() -> view.release(key, holder));
		}).flatMap((released) -> {
			assertThat(released).isInstanceOf(Released.class);
			// Handed the key by the release.
			return Mono.fromFuture(take);
		})).flatMap((handed) -> {
			assertThat(handed).isInstanceOf(Taken.class);
			return ask(() -> view.release(key, waiter));
		}).flatMap((released) -> {
			assertThat(released).isInstanceOf(Released.class);
			return ask(() -> view.release(key, waiter));
		}).map((notHeld) -> {
			assertThat(notHeld).isInstanceOf(NotHeld.class);
			return true;
		}).toFuture();
	}

	// The question asked on a parallel thread; its answer is read there too.
	private static <T> Mono<T> ask(Supplier<CompletableFuture<T>> question) {
		return Mono.defer(() -> Mono.fromFuture(question.get()))
			.subscribeOn(Schedulers.parallel())
			.publishOn(Schedulers.parallel());
	}

	// The future itself, made on a parallel thread: a take whose answer is read later.
	private static Mono<CompletableFuture<TakeResult>> onParallelLater(
			Supplier<CompletableFuture<TakeResult>> question) {
		return Mono.fromSupplier(question).subscribeOn(Schedulers.parallel()).publishOn(Schedulers.parallel());
	}

	private static <T> T onParallel(Callable<T> calls) {
		return Mono.fromCallable(calls).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(WITHIN_SECONDS));
	}

}
