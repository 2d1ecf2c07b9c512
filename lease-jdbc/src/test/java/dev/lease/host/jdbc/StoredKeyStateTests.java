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

package dev.lease.host.jdbc;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StoredKeyState}: DESIGN §4's resolve, as the JDBC host runs it inside
 * a transaction, on instants in microseconds.
 *
 * @author Lease contributors
 */
class StoredKeyStateTests {

	private static final byte[] KEY = bytes("key");

	@Test
	@DisplayName("Operation 2: a passed grant goes to the first waiter as of the instant it passed")
	void passedGrantGoesToFirstWaiterAsOfItsInstant() {
		StoredKeyState state = held("holder", 1_000);
		StoredWaiter first = waiter(1, "first", 500, 1_000);
		StoredWaiter second = waiter(2, "second", 700, 1_000);
		state.queue.add(first);
		state.queue.add(second);
		state.resolve(1_200);
		assertThat(state.holder).isEqualTo(bytes("first"));
		assertThat(state.expiresAt).isEqualTo(1_500);
		assertThat(first.grantedExpiresAt).isEqualTo(1_500);
		assertThat(state.handed).containsExactly(first);
		assertThat(state.queue).containsExactly(second);
	}

	@Test
	@DisplayName("Non-goal 4: waiters whose bound passed before the key freed are dropped; a bound equal to the instant still takes it")
	void waitersPastTheirBoundAreDroppedAndAnEqualBoundTakesTheKey() {
		StoredKeyState state = held("holder", 1_000);
		StoredWaiter early = waiter(1, "early", 500, 999);
		StoredWaiter exact = waiter(2, "exact", 500, 1_000);
		state.queue.add(early);
		state.queue.add(exact);
		state.resolve(1_000);
		assertThat(state.dropped).containsExactly(early);
		assertThat(state.holder).isEqualTo(bytes("exact"));
		assertThat(state.expiresAt).isEqualTo(1_500);
	}

	@Test
	@DisplayName("State 2: several passed grants resolve in one question, and a free key with nobody queued is free")
	void severalPassedGrantsResolveInOneQuestion() {
		StoredKeyState state = held("holder", 1_000);
		state.queue.add(waiter(1, "first", 100, 1_000));
		state.queue.add(waiter(2, "second", 100, 1_000));
		state.resolve(5_000);
		assertThat(state.holder).isNull();
		assertThat(state.handed).hasSize(1);
		assertThat(state.dropped).hasSize(1);
		assertThat(state.isFree(5_000)).isTrue();
	}

	@Test
	@DisplayName("DESIGN §4 One clock: the clock never goes back for a key")
	void clockNeverGoesBackForAKey() {
		StoredKeyState state = new StoredKeyState(KEY, true, bytes("holder"), 2_000, 1_500, 0);
		assertThat(state.now(1_000)).isEqualTo(1_500);
		assertThat(state.now(1_800)).isEqualTo(1_800);
		state.resolve(state.now(1_000));
		assertThat(state.holder).isEqualTo(bytes("holder"));
	}

	@Test
	@DisplayName("Non-goal 1: a holder queued with a bound not passed counts as waiting; a lapsed entry is replaced")
	void queuedHolderCountsUntilItsBoundPasses() {
		StoredKeyState state = held("holder", 1_000);
		StoredWaiter waiter = waiter(1, "waiter", 100, 1_000);
		state.queue.add(waiter);
		assertThat(state.isHeldOrAwaitedBy(bytes("waiter"), 900)).isTrue();
		assertThat(state.isHeldOrAwaitedBy(bytes("holder"), 900)).isTrue();
		assertThat(state.isHeldOrAwaitedBy(bytes("waiter"), 1_001)).isFalse();
		state.dropLapsed(bytes("waiter"), 1_001);
		assertThat(state.queue).isEmpty();
		assertThat(state.dropped).containsExactly(waiter);
	}

	private static StoredKeyState held(String holder, long expiresAt) {
		return new StoredKeyState(KEY, true, bytes(holder), expiresAt, 0, 0);
	}

	private static StoredWaiter waiter(long id, String holder, long duration, long bound) {
		return new StoredWaiter(id, bytes(holder), duration, bound, id);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
