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

package dev.lease.host;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.ReentrantTakeException;
import dev.lease.host.TakeAnswer.Granted;
import dev.lease.host.TakeAnswer.Queued;
import dev.lease.host.TakeAnswer.Refused;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KeyModel}: the state model (Host: the state model), on instants in
 * microseconds.
 *
 * @author Lease contributors
 */
class KeyModelTests {

	private static final LeaseKey KEY = LeaseKey.of("key");

	private static final LeaseHolder A = LeaseHolder.of("a");

	private static final LeaseHolder B = LeaseHolder.of("b");

	private static final LeaseHolder C = LeaseHolder.of("c");

	private final AtomicLong ids = new AtomicLong();

	@Test
	@DisplayName("State 1: a key stands in one state: a free key is granted, and a held one is granted to nobody else")
	void heldKeyIsGrantedToNobodyElse() {
		KeyModel model = KeyModel.free(KEY);
		assertThat(model.take(A, 100, 1_000, false, this.ids::incrementAndGet)).isEqualTo(new Granted(1_100));
		assertThat(model.take(B, 100, 1_050, false, this.ids::incrementAndGet)).isEqualTo(new Refused());
		assertThat(model.holder()).isEqualTo(A);
		assertThat(model.expiresAt()).isEqualTo(1_100);
	}

	@Test
	@DisplayName("State 2: a grant is free at its instant, held one microsecond before")
	void grantIsFreeAtItsInstant() {
		assertThat(held(A, 1_100).remaining(A, 1_099)).contains(Duration.ofNanos(1_000));
		assertThat(held(A, 1_100).remaining(A, 1_100)).isEmpty();
		assertThat(held(A, 1_100).take(B, 10, 1_100, false, this.ids::incrementAndGet)).isEqualTo(new Granted(1_110));
	}

	@Test
	@DisplayName("State 3: a passed grant with nobody queued is read as free and records no transition to store")
	void passedGrantRecordsNoTransition() {
		KeyModel model = held(A, 1_100);
		assertThat(model.remaining(A, 2_000)).isEmpty();
		assertThat(model.release(A, 2_000)).isFalse();
		assertThat(model.holder()).isNull();
		assertThat(model.changed()).isFalse();
		assertThat(model.isFree(2_000)).isTrue();
	}

	@Test
	@DisplayName("State 3: what a question saves nothing of is derived again, identically, by the next one")
	void resolveIsDeterministic() {
		List<QueuedWaiter> queue = List.of(waiter(1, B, 50, 1_100), waiter(2, C, 50, 1_100));
		KeyModel first = new KeyModel(KEY, A, 1_100, 0, 0, 2, WaiterQueue.of(queue));
		KeyModel second = new KeyModel(KEY, A, 1_100, 0, 0, 2, WaiterQueue.of(queue));
		first.resolve(1_120);
		second.resolve(1_120);
		assertThat(first.holder()).isEqualTo(second.holder()).isEqualTo(B);
		assertThat(first.expiresAt()).isEqualTo(second.expiresAt()).isEqualTo(1_150);
		assertThat(first.handed()).isEqualTo(second.handed());
	}

	@Test
	@DisplayName("Operation 2: a passed grant hands the key to the first waiter, granted as of the instant it became free")
	void passedGrantHandsTheKeyOnAtItsInstant() {
		QueuedWaiter b = waiter(1, B, 50, 1_100);
		KeyModel model = behind(A, 1_100, b);
		model.resolve(1_130);
		assertThat(model.holder()).isEqualTo(B);
		assertThat(model.expiresAt()).isEqualTo(1_150);
		assertThat(model.handed()).containsExactly(new HandedGrant(b, 1_150));
		assertThat(model.queued()).isZero();
	}

	@Test
	@DisplayName("Operation 2: a waiter whose bound is the instant the key frees still takes it")
	void boundEqualToTheInstantStillTakesTheKey() {
		KeyModel model = behind(A, 1_100, waiter(1, B, 50, 1_100));
		model.resolve(1_100);
		assertThat(model.holder()).isEqualTo(B);
	}

	@Test
	@DisplayName("Operation 2: a chain of passed terms is granted at each instant, in one resolve")
	void chainOfPassedTermsIsGrantedAtEachInstant() {
		QueuedWaiter b = waiter(1, B, 50, 1_100);
		QueuedWaiter c = waiter(2, C, 30, 1_100);
		KeyModel model = behind(A, 1_100, b, c);
		model.resolve(1_160);
		assertThat(model.handed()).containsExactly(new HandedGrant(b, 1_150));
		assertThat(model.dropped()).containsExactly(c);
		assertThat(model.holder()).isNull();
	}

	@Test
	@DisplayName("Operation 11, 13: a release by the holder hands the key to the head, granted as of now")
	void releaseHandsTheKeyToTheHeadAsOfNow() {
		QueuedWaiter b = waiter(1, B, 50, 1_100);
		KeyModel model = behind(A, 1_100, b);
		assertThat(model.release(A, 1_020)).isTrue();
		assertThat(model.handed()).containsExactly(new HandedGrant(b, 1_070));
	}

	@Test
	@DisplayName("Operation 12, Check 5.2: a release by another party answers not-held and records nothing")
	void releaseByAnotherPartyRecordsNothing() {
		KeyModel model = behind(A, 1_100, waiter(1, B, 50, 1_100));
		assertThat(model.release(B, 1_020)).isFalse();
		assertThat(model.remaining(B, 1_020)).isEmpty();
		assertThat(model.changed()).isFalse();
		assertThat(model.holder()).isEqualTo(A);
	}

	@Test
	@DisplayName("Invariant 4: a waiter's bound is the standing grant's instant at arrival, not moved by an earlier waiter's grant")
	void boundIsFixedAtArrival() {
		KeyModel arriving = held(A, 1_100);
		Queued b = (Queued) arriving.take(B, 500, 1_000, true, () -> 1);
		Queued c = (Queued) arriving.take(C, 500, 1_010, true, () -> 2);
		assertThat(b.bound()).isEqualTo(1_100);
		assertThat(c.bound()).isEqualTo(1_100);
		assertThat(arriving.added()).extracting(QueuedWaiter::arrival).containsExactly(1L, 2L);
		KeyModel later = new KeyModel(KEY, A, 1_100, 0, 0, 2, WaiterQueue.of(arriving.added()));
		later.resolve(1_100);
		assertThat(later.holder()).isEqualTo(B);
		assertThat(later.ask(2, C, OptionalLong.empty(), 1_101, false)).isEqualTo(new Refused());
		assertThat(later.dropped()).extracting(QueuedWaiter::id).containsExactly(2L);
	}

	@Test
	@DisplayName("Non-goal 3: waiters are admitted in arrival order")
	void waitersAreAdmittedInArrivalOrder() {
		QueuedWaiter b = waiter(1, B, 50, 1_100);
		QueuedWaiter c = waiter(2, C, 50, 1_100);
		KeyModel model = behind(A, 1_100, b, c);
		model.release(A, 1_000);
		model.release(B, 1_010);
		assertThat(model.handed()).containsExactly(new HandedGrant(b, 1_050), new HandedGrant(c, 1_060));
	}

	@Test
	@DisplayName("Non-goal 4: a waiter whose bound passed before the key freed is dropped, never carried forward")
	void waiterPastItsBoundIsDropped() {
		QueuedWaiter b = waiter(1, B, 50, 1_000);
		QueuedWaiter c = waiter(2, C, 50, 1_100);
		KeyModel model = behind(A, 1_100, b, c);
		model.resolve(1_100);
		assertThat(model.dropped()).containsExactly(b);
		assertThat(model.handed()).containsExactly(new HandedGrant(c, 1_150));
	}

	@Test
	@DisplayName("Non-goal 4: a waiter asking past its bound is withdrawn; before it, it is answered its place and nothing changes")
	void waiterAskingPastItsBoundIsWithdrawn() {
		QueuedWaiter b = waiter(1, B, 50, 1_100);
		KeyModel before = behind(A, 2_000, b);
		assertThat(before.ask(1, B, OptionalLong.empty(), 1_100, false))
			.isEqualTo(new Queued(1, 1_100, 1_100, 2_000, true));
		assertThat(before.changed()).isFalse();
		KeyModel after = behind(A, 2_000, b);
		assertThat(after.ask(1, B, OptionalLong.empty(), 1_101, false)).isEqualTo(new Refused());
		assertThat(after.dropped()).containsExactly(b);
		assertThat(after.isFree(1_101)).isFalse();
	}

	@Test
	@DisplayName("Non-goal 4: a waiter handed the key is answered its grant, even past its instant")
	void handedWaiterIsAnsweredItsGrant() {
		KeyModel model = behind(A, 1_100, waiter(1, B, 50, 1_100));
		assertThat(model.ask(1, B, OptionalLong.empty(), 1_300, false)).isEqualTo(new Granted(1_150));
		KeyModel asked = KeyModel.free(KEY);
		assertThat(asked.ask(1, B, OptionalLong.of(1_150), 1_400, false)).isEqualTo(new Granted(1_150));
	}

	@Test
	@DisplayName("Host: interruption: a waiter giving up is withdrawn, or gives back the grant handed to it")
	void waiterGivingUpLeavesNothingHeld() {
		QueuedWaiter b = waiter(1, B, 50, 1_100);
		QueuedWaiter c = waiter(2, C, 50, 1_100);
		KeyModel model = behind(A, 1_100, b, c);
		assertThat(model.ask(1, B, OptionalLong.empty(), 1_100, true)).isEqualTo(new Granted(1_150));
		assertThat(model.holder()).isEqualTo(C);
		assertThat(model.expiresAt()).isEqualTo(1_150);
		KeyModel queued = behind(A, 1_100, b, c);
		assertThat(queued.ask(2, C, OptionalLong.empty(), 1_050, true)).isEqualTo(new Refused());
		assertThat(queued.dropped()).containsExactly(c);
		assertThat(queued.queued()).isOne();
	}

	@Test
	@DisplayName("Non-goal 1: a holder that holds the key, or waits within its bound, is refused and nothing changes")
	void reentrantTakeIsRefused() {
		assertThatExceptionOfType(ReentrantTakeException.class)
			.isThrownBy(() -> held(A, 1_100).take(A, 10, 1_000, true, this.ids::incrementAndGet));
		KeyModel model = behind(A, 1_100, waiter(1, B, 50, 1_100));
		assertThatExceptionOfType(ReentrantTakeException.class)
			.isThrownBy(() -> model.take(B, 10, 1_000, false, this.ids::incrementAndGet));
		assertThat(model.changed()).isFalse();
	}

	@Test
	@DisplayName("Non-goal 1: a queued entry of the same holder whose bound passed is replaced by a new take")
	void lapsedEntryOfTheSameHolderIsReplaced() {
		QueuedWaiter b = waiter(1, B, 5_000, 2_000);
		QueuedWaiter lapsed = waiter(2, C, 50, 1_000);
		KeyModel model = behind(A, 2_000, b, lapsed);
		Queued queued = (Queued) model.take(C, 50, 1_500, true, () -> 3);
		assertThat(model.dropped()).containsExactly(lapsed);
		assertThat(model.added()).extracting(QueuedWaiter::id).containsExactly(3L);
		assertThat(queued.bound()).isEqualTo(2_000);
		assertThat(model.queued()).isEqualTo(2);
	}

	@Test
	@DisplayName("Invariant 2.1: the clock never goes back for a key, so an ended grant stays ended")
	void clockNeverGoesBackForAKey() {
		KeyModel model = new KeyModel(KEY, A, 1_100, 0, 2_000, 0, WaiterQueue.of(List.of()));
		long now = model.now(1_000);
		assertThat(now).isEqualTo(2_000);
		assertThat(model.remaining(A, now)).isEmpty();
		assertThat(model.now(3_000)).isEqualTo(3_000);
		assertThat(model.latest()).isEqualTo(3_000);
	}

	@Test
	@DisplayName("Non-goal 3: the queue is read head first and no further than the question needs")
	void queueIsReadHeadFirstOnlyAsFarAsNeeded() {
		List<QueuedWaiter> waiters = new ArrayList<>();
		for (int i = 1; i <= 100; i++) {
			waiters.add(waiter(i, LeaseHolder.of("w" + i), 50, 1_100));
		}
		AtomicInteger reads = new AtomicInteger();
		WaiterQueue counted = new WaiterQueue() {

			@Override
			public int size() {
				return waiters.size();
			}

			@Override
			public Iterator<QueuedWaiter> headFirst() {
				Iterator<QueuedWaiter> iterator = waiters.iterator();
				return new Iterator<>() {

					@Override
					public boolean hasNext() {
						return iterator.hasNext();
					}

					@Override
					public QueuedWaiter next() {
						reads.incrementAndGet();
						return iterator.next();
					}

				};
			}

		};
		KeyModel model = new KeyModel(KEY, A, 1_100, 0, 0, 100, counted);
		assertThat(model.release(A, 1_000)).isTrue();
		assertThat(model.remaining(LeaseHolder.of("w1"), 1_010)).isPresent();
		assertThat(reads).hasValue(1);
		assertThat(model.queued()).isEqualTo(99);
	}

	private static KeyModel held(LeaseHolder holder, long expiresAt) {
		return behind(holder, expiresAt);
	}

	private static KeyModel behind(LeaseHolder holder, long expiresAt, QueuedWaiter... waiters) {
		return new KeyModel(KEY, holder, expiresAt, 0, 0, waiters.length, WaiterQueue.of(List.of(waiters)));
	}

	private static QueuedWaiter waiter(long id, LeaseHolder holder, long duration, long bound) {
		return new QueuedWaiter(id, holder, duration, bound, id, 0);
	}

}
