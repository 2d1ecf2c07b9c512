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
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Taken;
import dev.lease.tck.history.HistoryAssertions;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.TcpProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The connection-fault scenarios every networked host shares: calls go through a
 * {@link TcpProxy} that cuts them mid-flight, the caller gets {@link LeaseHostException},
 * and the server holds either the whole change or none of it. Each scenario ends with the
 * history checked against the atom and nothing left behind.
 *
 * @author Lease contributors
 */
public abstract class ConnectionFaultScenarios {

	/** The term of every grant in the scenarios. */
	protected static final Duration TERM = Duration.ofSeconds(30);

	/**
	 * A request crosses the proxy after this delay, and its reply after as much again.
	 */
	protected static final Duration LATENCY = Duration.ofMillis(600);

	/** The key of the scenario. */
	protected final LeaseKey key = LeaseKey.of("fault:" + UUID.randomUUID());

	/** The holder whose calls are cut. */
	protected final LeaseHolder holder = LeaseHolder.of("faulty");

	/** The proxy the faulty host's connections go through; set by each test's set-up. */
	protected TcpProxy proxy;

	/** The host whose connections go through the proxy, recording into one history. */
	protected RecordingLeaseHost host;

	/** A host on the same server whose connections are never cut, in the same history. */
	protected RecordingLeaseHost direct;

	/**
	 * Return what the scenario left on the server (keys, rows), empty when nothing is.
	 * @return the leftovers
	 */
	protected abstract Callable<? extends Collection<?>> leftovers();

	@Test
	@DisplayName("A try take cut before its request reaches the server fails with LeaseHostException and takes nothing")
	void tryTakeCutBeforeTheServerLeavesNoGrant() throws Exception {
		CompletableFuture<?> call = this.proxy.cutWhileInFlight(() -> this.host.tryTake(this.key, this.holder, TERM),
				LATENCY, LATENCY.dividedBy(3));
		assertFailedWithLeaseHostException(call);
		assertThat(this.direct.remaining(this.key, this.holder)).isEmpty();
		HistoryAssertions.assertFreeForAnother(this.direct, this.key);
		assertAllowedAndNothingLeft();
	}

	@Test
	@DisplayName("A release cut on its way fails with LeaseHostException and leaves the grant whole, its instant unmoved")
	void releaseCutBeforeTheServerLeavesTheGrantWhole() throws Exception {
		Taken taken = (Taken) this.direct.tryTake(this.key, this.holder, TERM);
		CompletableFuture<?> call = this.proxy.cutWhileInFlight(() -> this.host.release(this.key, this.holder), LATENCY,
				LATENCY.dividedBy(3));
		assertFailedWithLeaseHostException(call);
		assertThat(this.direct.grants(Integer.MAX_VALUE)).contains(taken.lease());
		assertThat(this.direct.release(this.key, this.holder)).isNotInstanceOf(NotHeld.class);
		assertAllowedAndNothingLeft();
	}

	/**
	 * Fail unless the recorded history is one the atom allows and nothing is left.
	 */
	protected void assertAllowedAndNothingLeft() {
		HistoryAssertions.assertAllowedAndNothingLeft(this.direct, HistoryAssertions.TOLERANCE, leftovers());
	}

	/**
	 * Fail unless the call failed with {@link LeaseHostException}.
	 * @param call the call
	 */
	protected static void assertFailedWithLeaseHostException(CompletableFuture<?> call) {
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(call::get)
			.satisfies((ex) -> assertThat(ex.getCause()).isInstanceOf(LeaseHostException.class));
	}

}
