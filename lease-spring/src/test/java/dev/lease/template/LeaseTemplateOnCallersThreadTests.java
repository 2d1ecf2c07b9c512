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

package dev.lease.template;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.LeaseUnavailableException;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.annotation.LeaseMode;
import dev.lease.aop.RecordingLeaseHost;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for the blocking takes of {@link LeaseTemplate}: the host is asked on the
 * caller's thread, an interrupt ends the wait, and what the host threw is thrown as it
 * threw it.
 *
 * @author Lease contributors
 */
class LeaseTemplateOnCallersThreadTests {

	private static final Duration TERM = Duration.ofSeconds(30);

	private final InMemoryLeaseHost inner = new InMemoryLeaseHost();

	private final List<Thread> askedOn = new CopyOnWriteArrayList<>();

	private final RecordingLeaseHost host = new RecordingLeaseHost(this.inner) {

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
			LeaseTemplateOnCallersThreadTests.this.askedOn.add(Thread.currentThread());
			return super.take(key, holder, duration);
		}

		@Override
		public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
			LeaseTemplateOnCallersThreadTests.this.askedOn.add(Thread.currentThread());
			return super.tryTake(key, holder, duration);
		}

	};

	private final LeaseTemplate template = new LeaseTemplate(this.host);

	@AfterEach
	void close() {
		this.template.close(Duration.ZERO);
		this.inner.close();
	}

	@Test
	@DisplayName("Operation 1, 6: a blocking take and try take ask the host on the caller's thread")
	void blockingTakesAskTheHostOnTheCallersThread() {
		this.template.run(LeaseRequest.of(fresh(), TERM), (lease) -> {
		});
		this.template.tryRun(LeaseRequest.of(fresh(), TERM), (lease) -> {
		});
		assertThat(this.askedOn).containsExactly(Thread.currentThread(), Thread.currentThread());
	}

	@Test
	@DisplayName("Host: interruption: an interrupted wait for a held key throws LeaseUnavailableException, "
			+ "keeps the interrupt flag and leaves nothing standing")
	void interruptedTakeThrowsAndKeepsTheFlag() {
		String key = fresh();
		assertThat(this.inner.tryTake(LeaseKey.of(key), LeaseHolder.of("elsewhere"), TERM)).isInstanceOf(Taken.class);
		Thread.currentThread().interrupt();
		try {
			assertThatExceptionOfType(LeaseUnavailableException.class)
				.isThrownBy(() -> this.template.take(LeaseRequest.of(key, TERM), LeaseMode.TAKE))
				.withMessageContaining("interrupted while waiting")
				.withCauseInstanceOf(InterruptedException.class);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(this.host.calls()).doesNotContain("release " + key);
	}

	@Test
	@DisplayName("Host: interruption: an interrupted wait for the holder's own hold throws before the host is asked")
	void interruptedWaitForAHoldThrowsBeforeTheHostIsAsked() {
		String key = fresh();
		LeaseRequest request = LeaseRequest.of(key, TERM)
			.withHoldAtLeast(Duration.ofSeconds(10))
			.withHolder(LeaseHolder.of("stable"));
		this.template.run(request, (lease) -> {
		});
		this.host.calls().clear();
		Thread.currentThread().interrupt();
		try {
			assertThatExceptionOfType(LeaseUnavailableException.class)
				.isThrownBy(() -> this.template.take(request, LeaseMode.TAKE))
				.withMessageContaining("interrupted while waiting");
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(this.host.calls()).isEmpty();
	}

	@Test
	@DisplayName("Invariant 5: a host failure is thrown as the host threw it; only a LeaseHostException gives back")
	void hostFailuresAreThrownAsThrown() {
		LeaseHostException lost = new LeaseHostException("the connection closed before the answer arrived");
		IllegalStateException refused = new IllegalStateException("refused");
		AssertionError broken = new AssertionError("broken");
		for (Throwable failure : new Throwable[] { lost, refused, broken }) {
			RecordingLeaseHost failing = failing(failure);
			String key = fresh();
			try (LeaseTemplate failingTemplate = new LeaseTemplate(failing)) {
				assertThatExceptionOfType(Throwable.class)
					.isThrownBy(() -> failingTemplate.take(LeaseRequest.of(key, TERM), LeaseMode.TRY_TAKE))
					.isSameAs(failure);
			}
			assertThat(failing.calls()).containsExactlyElementsOf(
					(failure == lost) ? List.of("tryTake " + key, "release " + key) : List.of("tryTake " + key));
		}
	}

	private RecordingLeaseHost failing(Throwable failure) {
		return new RecordingLeaseHost(this.inner) {

			@Override
			public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
				super.tryTake(key, holder, duration);
				if (failure instanceof Error error) {
					throw error;
				}
				throw (RuntimeException) failure;
			}

		};
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

}
