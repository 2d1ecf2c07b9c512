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

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongUnaryOperator;

import dev.lease.Held;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.QueuedTakes;
import dev.lease.ReentrantTakeException;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.host.inmemory.InMemoryLeaseHost;

/**
 * Hosts that each break one rule of the atom, the way real implementations do. The kit
 * must catch every one of them.
 *
 * @author Lease contributors
 */
final class BrokenHosts {

	private static final Duration EARLY = Duration.ofMillis(50);

	private static final long POLL_MILLIS = 2;

	private BrokenHosts() {
	}

	// A take by the holder re-takes the key, moving its instant (breaks Non-goal 1, 2).
	static ForwardingLeaseHost reTakeExtends() {
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				if (this.delegate.remaining(key, holder).isPresent()) {
					this.delegate.release(key, holder);
				}
				return this.delegate.tryTake(key, holder, duration);
			}

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				if (this.delegate.remaining(key, holder).isPresent()) {
					this.delegate.release(key, holder);
				}
				return this.delegate.take(key, holder, duration);
			}

		};
	}

	// An interrupted take or try take reports a host failure, and a grant stands for
	// nobody (breaks Host: interruption, Invariant 1): one granted as the interrupt
	// landed keeps its grant, and a take interrupted while it waited stays in line, so
	// the key is handed to it later. Every take the kit sees end at an interrupt leaves
	// a ghost, however few calls a busy machine lets the kit's workers make: a run with
	// no such take fails the kit's own check that it interrupted one.
	static ForwardingLeaseHost ghostOnInterrupt() {
		InMemoryLeaseHost correct = new InMemoryLeaseHost();
		return new ForwardingLeaseHost(correct) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				return ghostIfInterrupted(this.delegate.tryTake(key, holder, duration));
			}

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				try {
					return ghostIfInterrupted(this.delegate.take(key, holder, duration));
				}
				catch (InterruptedException ex) {
					// Queued again before the caller hears of it, by the delegate's
					// non-blocking take, whose answer nobody waits for.
					correct.async().take(key, holder, duration);
					throw new LeaseHostException("could not answer", ex);
				}
			}

			private <T> T ghostIfInterrupted(T answer) {
				if (answer instanceof Taken && Thread.currentThread().isInterrupted()) {
					throw new LeaseHostException("could not answer", new InterruptedException());
				}
				return answer;
			}

		};
	}

	// Frees the key 50 ms before the instant it reports (breaks Invariant 2.2).
	static ForwardingLeaseHost freesEarly() {
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				TryTakeResult answer = this.delegate.tryTake(key, holder, shortened(duration));
				return (answer instanceof Taken taken) ? reported(taken) : answer;
			}

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				TakeResult answer = this.delegate.take(key, holder, shortened(duration));
				return (answer instanceof Taken taken) ? reported(taken) : answer;
			}

			private Duration shortened(Duration duration) {
				return (duration.compareTo(EARLY.multipliedBy(2)) > 0) ? duration.minus(EARLY) : duration;
			}

			private Taken reported(Taken taken) {
				Lease lease = taken.lease();
				return new Taken(new Lease(lease.key(), lease.holder(), lease.expiresAt().plus(EARLY)));
			}

		};
	}

	// A waiter waits until the key frees, however long that takes (breaks Operation 3 to
	// 5).
	static ForwardingLeaseHost waitsWithoutBound() {
		Set<List<Object>> waiting = ConcurrentHashMap.newKeySet();
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				refuseQueued(waiting, key, holder);
				return this.delegate.tryTake(key, holder, duration);
			}

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				waiting.add(List.of(key, holder));
				try {
					while (true) {
						if (this.delegate.tryTake(key, holder, duration) instanceof Taken taken) {
							return taken;
						}
						Thread.sleep(POLL_MILLIS);
					}
				}
				finally {
					waiting.remove(List.of(key, holder));
				}
			}

		};
	}

	// The latest waiter goes first (breaks Non-goal 3).
	static ForwardingLeaseHost admitsLastArrivalFirst() {
		Map<LeaseKey, Deque<Thread>> stacks = new ConcurrentHashMap<>();
		Set<List<Object>> waiting = ConcurrentHashMap.newKeySet();
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				refuseQueued(waiting, key, holder);
				return this.delegate.tryTake(key, holder, duration);
			}

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				Deque<Thread> stack = stacks.computeIfAbsent(key, (k) -> new ArrayDeque<>());
				synchronized (stack) {
					stack.push(Thread.currentThread());
				}
				waiting.add(List.of(key, holder));
				try {
					while (true) {
						boolean top;
						synchronized (stack) {
							top = stack.peek() == Thread.currentThread();
						}
						if (top && this.delegate.tryTake(key, holder, duration) instanceof Taken taken) {
							return taken;
						}
						Thread.sleep(POLL_MILLIS);
					}
				}
				finally {
					synchronized (stack) {
						stack.remove(Thread.currentThread());
					}
					waiting.remove(List.of(key, holder));
				}
			}

		};
	}

	// Waiters queue in the host's own list and the key goes to the waiter of lowest rank,
	// its arrival number mapped by the given rank: first in, first out for the identity,
	// anything else breaks Non-goal 3. A waiting holder is refused a second take
	// (Non-goal
	// 1), so that only the order can be wrong.
	static ForwardingLeaseHost servesInRankOrder(LongUnaryOperator rank) {
		Map<LeaseKey, Map<LeaseHolder, Long>> queues = new ConcurrentHashMap<>();
		AtomicLong arrivals = new AtomicLong();
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				refuseWaiting(key, holder);
				return this.delegate.tryTake(key, holder, duration);
			}

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				refuseWaiting(key, holder);
				Map<LeaseHolder, Long> queue = queues.computeIfAbsent(key, (k) -> new HashMap<>());
				synchronized (queue) {
					queue.put(holder, rank.applyAsLong(arrivals.incrementAndGet()));
				}
				try {
					while (true) {
						boolean next;
						synchronized (queue) {
							next = queue.entrySet()
								.stream()
								.min(Map.Entry.comparingByValue())
								.orElseThrow()
								.getKey()
								.equals(holder);
						}
						if (next && this.delegate.tryTake(key, holder, duration) instanceof Taken taken) {
							return taken;
						}
						Thread.sleep(POLL_MILLIS);
					}
				}
				finally {
					synchronized (queue) {
						queue.remove(holder);
					}
				}
			}

			private void refuseWaiting(LeaseKey key, LeaseHolder holder) {
				Map<LeaseHolder, Long> queue = queues.get(key);
				if (queue != null) {
					synchronized (queue) {
						if (queue.containsKey(holder)) {
							throw new ReentrantTakeException(key, holder);
						}
					}
				}
			}

		};
	}

	// A release by anyone ends whoever's grant stands (breaks Operation 13).
	static ForwardingLeaseHost releasesForAnyone() {
		Map<LeaseKey, LeaseHolder> holders = new ConcurrentHashMap<>();
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				TryTakeResult answer = this.delegate.tryTake(key, holder, duration);
				if (!(answer instanceof Held)) {
					holders.put(key, holder);
				}
				return answer;
			}

			@Override
			public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
				LeaseHolder current = holders.remove(key);
				return (current != null) ? this.delegate.release(key, current) : new NotHeld();
			}

		};
	}

	// Counts every take that ever waited for a key, as a host that counts arrivals
	// rather than its queue would: one handed the key or withdrawn is still counted.
	static ForwardingLeaseHost countsArrivals() {
		Map<LeaseKey, AtomicLong> arrivals = new ConcurrentHashMap<>();
		return new ForwardingLeaseHost(new InMemoryLeaseHost()) {

			@Override
			public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
				arrivals.computeIfAbsent(key, (k) -> new AtomicLong()).incrementAndGet();
				return this.delegate.take(key, holder, duration);
			}

			@Override
			public Optional<QueuedTakes> waiting(LeaseKey key) {
				AtomicLong count = arrivals.get(key);
				return Optional.of(QueuedTakes.of((count != null) ? (int) count.get() : 0));
			}

		};
	}

	// A holder that waits for a key is refused a try take (Non-goal 1), which is how the
	// kit knows a waiter stands in the queue: only the rule a host breaks may be wrong.
	private static void refuseQueued(Set<List<Object>> waiting, LeaseKey key, LeaseHolder holder) {
		if (waiting.contains(List.of(key, holder))) {
			throw new ReentrantTakeException(key, holder);
		}
	}

}
