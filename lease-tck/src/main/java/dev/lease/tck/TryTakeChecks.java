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

package dev.lease.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Try Take: never waits, answers exactly one of taken and held (Operation 6, 7).
 *
 * @author Lease contributors
 */
abstract class TryTakeChecks extends KitGroup {

	private static final int RACERS = 8;

	@Test
	@DisplayName("Operation 7: try take on a free key answers taken")
	void tryTakeOnFreeKeyAnswersTaken() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("h");
		TryTakeResult answer = host().tryTake(key, holder, LONG);
		assertThat(answer).isInstanceOf(Taken.class);
		assertThat(((Taken) answer).lease().key()).isEqualTo(key);
		assertThat(((Taken) answer).lease().holder()).isEqualTo(holder);
	}

	@Test
	@DisplayName("Operation 6, 7 (Check 1.2): try take on a held key answers held at once, without waiting")
	void tryTakeOnHeldKeyAnswersHeldWithoutWaiting() {
		LeaseKey key = newKey();
		taken(key, newHolder("holder"), LONG);
		long started = System.nanoTime();
		assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Held.class);
		assertThat(System.nanoTime() - started).isLessThan(tolerance().toNanos());
	}

	@Test
	@DisplayName("Check 1.1 (Invariant 1.1, 1.2): eight threads racing try take on one key yield exactly one taken, ten times over")
	void racingTryTakesYieldExactlyOneTaken() throws Exception {
		ExecutorService racers = Executors.newFixedThreadPool(RACERS);
		try {
			for (int round = 0; round < 10; round++) {
				LeaseKey key = newKey();
				CyclicBarrier start = new CyclicBarrier(RACERS);
				List<Future<TryTakeResult>> answers = new ArrayList<>();
				for (int i = 0; i < RACERS; i++) {
					LeaseHolder holder = newHolder("racer" + i);
					Callable<TryTakeResult> race = () -> {
						start.await();
						return host().tryTake(key, holder, LONG);
					};
					answers.add(racers.submit(race));
				}
				List<TryTakeResult> results = new ArrayList<>();
				for (Future<TryTakeResult> answer : answers) {
					results.add(answer.get());
				}
				assertThat(results).filteredOn(Taken.class::isInstance).hasSize(1);
				assertThat(results).filteredOn(Held.class::isInstance).hasSize(RACERS - 1);
			}
		}
		finally {
			racers.shutdownNow();
		}
	}

	@Test
	@DisplayName("Non-goal 1, 2: try take by the holder of the key is refused and the grant's instant is not moved")
	void tryTakeByTheHolderIsRefusedAndTheGrantIsUnchanged() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease held = taken(key, holder, LONG);
		assertThatExceptionOfType(ReentrantTakeException.class).isThrownBy(() -> host().tryTake(key, holder, LONG));
		assertThat(host().grants(Integer.MAX_VALUE)).contains(held);
		assertThat(host().release(key, holder)).isInstanceOf(Released.class);
	}

}
