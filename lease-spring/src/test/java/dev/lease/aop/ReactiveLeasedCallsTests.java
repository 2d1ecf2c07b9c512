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

package dev.lease.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.annotation.Leased;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.template.OnOverrun;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code @Leased} methods returning a {@code Mono}: taken through the host's
 * non-blocking view, in the host's arrival order, and released before the subscriber
 * hears the end.
 *
 * @author Lease contributors
 */
class ReactiveLeasedCallsTests {

	private final ArrivalsLeaseHost host = new ArrivalsLeaseHost(new InMemoryLeaseHost());

	private AnnotationConfigApplicationContext context;

	@AfterEach
	void closeContext() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	@DisplayName("Operation 1, 2, Non-goal 3: 200 subscribers of a leased Mono each get their value, one at a time, in the host's arrival order, released before they hear it")
	void manySubscribersAreServedInArrivalOrderAndReleasedBeforeTheyHear() throws Exception {
		Work work = context().getBean(Work.class);
		String key = "r-" + UUID.randomUUID();
		int calls = 200;
		List<CompletableFuture<Integer>> results = new ArrayList<>();
		List<Integer> standingWhenHeard = new CopyOnWriteArrayList<>();
		boolean arriving = true;
		for (int i = 0; i < calls; i++) {
			int call = i;
			Sinks.One<Integer> heard = Sinks.one();
			work.run(key, Integer.toString(call)).subscribe((value) -> {
				if (this.host.remaining(LeaseKey.of(key), LeaseHolder.of(Integer.toString(call))).isPresent()) {
					standingWhenHeard.add(call);
				}
				heard.tryEmitValue(value);
			}, heard::tryEmitError);
			results.add(heard.asMono().toFuture());
			// One arrival at a time, so that the order of arrival at the host is the
			// order recorded there; a take that does not reach the host (no thread for
			// it) is not waited for again
			if (arriving) {
				arriving = arrives(call);
			}
		}
		List<Integer> values = new ArrayList<>();
		List<Throwable> failures = new ArrayList<>();
		for (CompletableFuture<Integer> result : results) {
			try {
				values.add(result.get(120, TimeUnit.SECONDS));
			}
			catch (Exception ex) {
				failures.add(ex);
			}
		}
		assertThat(values)
			.as("subscriptions that got their value; %d failed, first %s", failures.size(),
					failures.isEmpty() ? "none" : failures.get(0).getMessage())
			.hasSize(calls);
		assertThat(work.mostAtOnce()).as("calls in flight at once").isEqualTo(1);
		assertThat(work.started()).as("order of grants").containsExactlyElementsOf(this.host.arrivals());
		assertThat(standingWhenHeard).as("calls whose grant still stood when the subscriber heard the value").isEmpty();
	}

	@Test
	@DisplayName("Operation 1, 11: a leased CompletableFuture method on a held key returns at once, runs when the key is handed to it, and is released before its future completes")
	void completionStageOnHeldKeyReturnsAtOnceAndRunsWhenTheKeyIsFree() throws Exception {
		Work work = context().getBean(Work.class);
		LeaseKey key = LeaseKey.of("cs-" + UUID.randomUUID());
		LeaseHolder other = LeaseHolder.of("other");
		assertThat(this.host.tryTake(key, other, Duration.ofSeconds(30))).isInstanceOf(Taken.class);
		long started = System.nanoTime();
		CompletableFuture<String> result = work.later(key.asString(), CompletableFuture.completedFuture("done"));
		// the arrival term is 30 s: a take on the caller's thread would hold it that long
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
		assertThat(result).isNotDone();
		assertThat(work.laterRuns()).hasValue(0);
		this.host.release(key, other);
		assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		assertThat(work.laterRuns()).hasValue(1);
		// never on the thread that answered the take: a host's own thread, which every
		// other waiter needs (here the threaded view's take thread), but on the
		// interceptor's executor (here its own threads, as it was given none)
		assertThat(work.laterThread()).startsWith("lease-leased-");
		assertThat(this.host.grant(key)).isEmpty();
	}

	// The take reached the host and waits in its queue (a queued in-memory take waits
	// with a timeout, for its bound), or has been answered.
	private boolean arrives(int call) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		String holder = Integer.toString(call);
		while (!this.host.queuedOrAnswered(holder)) {
			if (System.nanoTime() - deadline > 0) {
				return false;
			}
			Thread.sleep(1);
		}
		return true;
	}

	private AnnotationConfigApplicationContext context() {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		this.context = context;
		context.registerBean(LeaseHost.class, () -> this.host);
		context.registerBean(DefaultAdvisorAutoProxyCreator.class, () -> {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			creator.setProxyTargetClass(true);
			return creator;
		});
		context.registerBean(LeasedAdvisor.class,
				() -> new LeasedAdvisor(new LeasedMethodInterceptor(() -> context.getBean(LeaseHost.class),
						"test-app@host:1", OnOverrun.FAIL, context.getBeanFactory())));
		context.registerBean(Work.class);
		context.refresh();
		return context;
	}

	static class Work {

		private final AtomicInteger inFlight = new AtomicInteger();

		private final AtomicInteger mostAtOnce = new AtomicInteger();

		private final List<String> started = new CopyOnWriteArrayList<>();

		private final AtomicInteger laterRuns = new AtomicInteger();

		private volatile @Nullable String laterThread;

		// Every subscriber arrives while the first grants stand, so its bound is one of
		// their instants: the term leaves each of the 200 handoffs and its 20 ms of work
		// 300 ms on average, which a loaded machine meets (5 s left 5 ms a handoff)
		@Leased(key = "#key", holder = "#call", duration = "60s")
		Mono<Integer> run(String key, String call) {
			return Mono.defer(() -> {
				this.started.add(call);
				int now = this.inFlight.incrementAndGet();
				this.mostAtOnce.accumulateAndGet(now, Math::max);
				// the work ends as it answers, before its Mono completes
				return Mono.delay(Duration.ofMillis(20)).map((tick) -> {
					this.inFlight.decrementAndGet();
					return Integer.parseInt(call);
				});
			});
		}

		@Leased(key = "#key", duration = "5s")
		CompletableFuture<String> later(String key, CompletableFuture<String> work) {
			this.laterRuns.incrementAndGet();
			this.laterThread = Thread.currentThread().getName();
			return work;
		}

		AtomicInteger laterRuns() {
			return this.laterRuns;
		}

		@Nullable String laterThread() {
			return this.laterThread;
		}

		int mostAtOnce() {
			return this.mostAtOnce.get();
		}

		List<String> started() {
			return this.started;
		}

	}

	// Records each take as it reaches the host, by holder, with the thread it waits on.
	static final class ArrivalsLeaseHost extends RecordingLeaseHost {

		private final List<String> arrivals = new CopyOnWriteArrayList<>();

		private final Map<String, Thread> takers = new ConcurrentHashMap<>();

		private final Set<String> answered = ConcurrentHashMap.newKeySet();

		ArrivalsLeaseHost(LeaseHost host) {
			super(host);
		}

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
			this.takers.put(holder.asString(), Thread.currentThread());
			this.arrivals.add(holder.asString());
			try {
				return super.take(key, holder, duration);
			}
			finally {
				this.answered.add(holder.asString());
			}
		}

		List<String> arrivals() {
			return this.arrivals;
		}

		boolean queuedOrAnswered(String holder) {
			Thread taker = this.takers.get(holder);
			return this.answered.contains(holder) || (taker != null && taker.getState() == Thread.State.TIMED_WAITING);
		}

	}

}
