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

package dev.lease.tck.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.host.Withdrawals;
import dev.lease.tck.Stalls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters queued behind a holder when the store stops answering (Host: silence): four
 * blocking and twenty non-blocking takes wait on a key held for five seconds, whose end
 * is their bound (the arrival term, Operation 3); the store is then silenced, and each
 * must answer by its bound plus {@link Withdrawals#ANSWER_MARGIN}, with the host's answer
 * or {@link LeaseHostException}.
 *
 * @author Lease contributors
 */
public final class SilencedStoreWaiters {

	private static final Duration HOLD = Duration.ofSeconds(5);

	private static final Duration TERM = Duration.ofSeconds(60);

	private static final int BLOCKING = 4;

	private static final int ASYNC = 20;

	private SilencedStoreWaiters() {
	}

	/**
	 * Run the scenario.
	 * @param direct a host that reaches the store whatever the fault does, for the holder
	 * @param host the host whose waiters the fault silences
	 * @param queued how many waiters the store holds for the given key
	 * @param fault silences the store
	 * @param allowance how long, on top of the margin, the client may keep a question
	 * @throws Exception on a failure of the test itself
	 */
	public static void assertEachAnswersByItsBound(LeaseHost direct, LeaseHost host, ToLongFunction<LeaseKey> queued,
			Runnable fault, Duration allowance) throws Exception {
		LeaseKey key = LeaseKey.of("silent");
		ExecutorService threads = Executors.newCachedThreadPool();
		try (Stalls stalls = new Stalls()) {
			assertThat(direct.tryTake(key, LeaseHolder.of("holder"), HOLD)).isInstanceOf(Taken.class);
			// Every bound is at most this: the holder's grant ends no later.
			long boundsBy = System.nanoTime() + HOLD.toNanos();
			List<CompletableFuture<Object>> answers = new ArrayList<>();
			for (int i = 0; i < BLOCKING; i++) {
				LeaseHolder holder = LeaseHolder.of("blocking-" + i);
				answers.add(CompletableFuture.supplyAsync(() -> outcome(host, key, holder), threads));
			}
			for (int i = 0; i < ASYNC; i++) {
				answers.add(host.async()
					.take(key, LeaseHolder.of("async-" + i), TERM)
					.handle((result, failure) -> (failure != null) ? failure : result));
			}
			LongSupplier waiting = () -> queued.applyAsLong(key);
			await().atMost(HOLD).until(() -> waiting.getAsLong() == BLOCKING + ASYNC);
			fault.run();
			for (CompletableFuture<Object> answer : answers) {
				Object outcome = answer.get(120, TimeUnit.SECONDS);
				assertThat(outcome).as("a waiter's answer").isInstanceOfAny(TakeResult.class, LeaseHostException.class);
			}
			Duration late = Duration.ofNanos(System.nanoTime() - boundsBy);
			assertThat(late).as("the last answer past the latest bound")
				.isLessThanOrEqualTo(Withdrawals.ANSWER_MARGIN.plus(allowance).plus(stalls.lost()));
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static Object outcome(LeaseHost host, LeaseKey key, LeaseHolder holder) {
		try {
			return host.take(key, holder, TERM);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ex;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

}
