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
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.host.WaiterMachine.Ask;
import dev.lease.host.WaiterMachine.Poll;
import dev.lease.host.WaiterMachine.Refuse;
import dev.lease.host.WaiterMachine.Sleep;
import dev.lease.host.WaiterMachine.Take;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The waiter machine on a clock the test sets (Host semantics: waking): every event in
 * every state a waiter can be in, read from the action it answers.
 */
class WaiterMachineTests {

	private static final long SECOND = 1_000_000_000L;

	private static final long LATE_NANOS = WaiterMachine.LATE_NANOS;

	// The host's now in the answers, in microseconds, and this JVM's timer when they are
	// in.
	private static final long HOST_NOW = 1_700_000_000_000_000L;

	private static final long T0 = 5 * SECOND;

	private static final Duration DURATION = Duration.ofSeconds(30);

	private final Wakeups<String, Long> wakeups = new Wakeups<>();

	private final AtomicBoolean polling = new AtomicBoolean();

	// Queued with the bound and the standing grant's end this many seconds after the
	// host's now.
	private static TakeAnswer.Queued queued(long boundSeconds, long standingSeconds, boolean next) {
		return new TakeAnswer.Queued(1, HOST_NOW + boundSeconds * 1_000_000, HOST_NOW,
				HOST_NOW + standingSeconds * 1_000_000, next);
	}

	private Wakeups.Signal<Long> notDelegate() {
		this.wakeups.register("key", 0L);
		return this.wakeups.register("key", 1L);
	}

	private Wakeups.Signal<Long> delegate() {
		return this.wakeups.register("key", 1L);
	}

	@Test
	@DisplayName("A waiter neither next in line nor the delegate sleeps to just past its bound, however often it wakes early")
	void sleepsToItsBound() {
		WaiterMachine machine = new WaiterMachine(notDelegate(), DURATION, null);
		assertThat(machine.entered(queued(10, 2, false), T0)).isEqualTo(new Sleep(T0 + 10 * SECOND + LATE_NANOS));
		assertThat(machine.woken(T0 + SECOND)).isEqualTo(new Sleep(T0 + 10 * SECOND + LATE_NANOS));
	}

	@Test
	@DisplayName("At its bound a waiter asks its last question, answered by two thirds of the margin past it")
	void asksItsLastQuestionAtItsBound() {
		WaiterMachine machine = new WaiterMachine(notDelegate(), DURATION, null);
		machine.entered(queued(10, 2, false), T0);
		long boundAt = T0 + 10 * SECOND;
		assertThat(machine.woken(boundAt + LATE_NANOS)).isEqualTo(new Ask(true, Withdrawals.answerBy(boundAt)));
		assertThat(machine.answerBy()).isEqualTo(Withdrawals.answerBy(boundAt));
		assertThat(machine.neededUntil()).isEqualTo(boundAt + DURATION.toNanos());
	}

	@Test
	@DisplayName("The waiter next in line sleeps to the standing grant's end, then asks")
	void nextInLineAsksWhenTheStandingGrantEnds() {
		WaiterMachine machine = new WaiterMachine(notDelegate(), DURATION, null);
		long endsAt = T0 + 2 * SECOND;
		assertThat(machine.entered(queued(10, 2, true), T0)).isEqualTo(new Sleep(endsAt + LATE_NANOS));
		assertThat(machine.woken(endsAt)).as("not before the host has passed the instant")
			.isEqualTo(new Sleep(endsAt + LATE_NANOS));
		assertThat(machine.woken(endsAt + LATE_NANOS)).isEqualTo(new Ask(false, machine.answerBy()));
	}

	@Test
	@DisplayName("A message 'next in line' that overtook an answer 'not next' is kept until its instant passes")
	void aMessageNextInLineOvertakingAnAnswerIsKept() {
		Wakeups.Signal<Long> signal = notDelegate();
		WaiterMachine machine = new WaiterMachine(signal, DURATION, null);
		machine.entered(queued(10, 2, false), T0);
		this.wakeups.nextInLineAt("key", 1L, T0 + 3 * SECOND);
		assertThat(machine.woken(T0 + SECOND)).isEqualTo(new Sleep(T0 + 3 * SECOND + LATE_NANOS));
		assertThat(machine.answered(queued(9, 2, false), T0 + SECOND))
			.isEqualTo(new Sleep(T0 + 3 * SECOND + LATE_NANOS));
		assertThat(machine.answered(queued(5, 2, false), T0 + 4 * SECOND)).as("a passed instant is forgotten")
			.isEqualTo(new Sleep(T0 + 9 * SECOND + LATE_NANOS));
	}

	@Test
	@DisplayName("The delegate re-asks at the earlier of the standing grant's end and half its own duration")
	void theDelegateReasks() {
		WaiterMachine machine = new WaiterMachine(delegate(), DURATION, null);
		assertThat(machine.entered(queued(60, 20, false), T0)).isEqualTo(new Sleep(T0 + 15 * SECOND + LATE_NANOS));
		assertThat(machine.woken(T0 + 15 * SECOND + LATE_NANOS)).isEqualTo(new Ask(false, machine.answerBy()));
		assertThat(machine.answered(queued(60, 5, false), T0 + 16 * SECOND))
			.isEqualTo(new Sleep(T0 + 21 * SECOND + LATE_NANOS));
	}

	@Test
	@DisplayName("A wake-up that names the waiter hands it the key without a question, in any state")
	void aHandoffIsTakenWithoutAQuestion() {
		Wakeups.Signal<Long> signal = delegate();
		WaiterMachine machine = new WaiterMachine(signal, DURATION, this.polling::get);
		this.polling.set(true);
		machine.entered(queued(10, 2, true), T0);
		Instant expiresAt = Instant.parse("2026-03-01T12:00:00Z");
		this.wakeups.wake("key", List.of(new Wakeups.Handoff<>(1L, expiresAt)));
		assertThat(machine.woken(T0 + 11 * SECOND)).isEqualTo(new Take(expiresAt, true));
	}

	@Test
	@DisplayName("A wake-up that names nobody makes each waiter ask once")
	void aWakeUpNamingNobodyMakesTheWaiterAsk() {
		WaiterMachine machine = new WaiterMachine(notDelegate(), DURATION, null);
		machine.entered(queued(10, 2, false), T0);
		this.wakeups.wake("key", List.of());
		assertThat(machine.woken(T0 + SECOND)).isEqualTo(new Ask(false, machine.answerBy()));
		assertThat(machine.woken(T0 + SECOND)).as("once").isEqualTo(new Sleep(T0 + 10 * SECOND + LATE_NANOS));
	}

	@Test
	@DisplayName("Answers: granted takes the key, refused ends the wait, queued is noted and decides the next sleep")
	void answers() {
		WaiterMachine machine = new WaiterMachine(notDelegate(), DURATION, null);
		machine.entered(queued(10, 2, false), T0);
		assertThat(machine.answered(new TakeAnswer.Granted(HOST_NOW + 30_000_000), T0 + SECOND))
			.isEqualTo(new Take(Micros.toInstant(HOST_NOW + 30_000_000), false));
		assertThat(machine.answered(new TakeAnswer.Refused(), T0 + SECOND)).isEqualTo(new Refuse());
		assertThat(machine.answered(queued(8, 1, true), T0 + SECOND))
			.isEqualTo(new Sleep(T0 + 2 * SECOND + LATE_NANOS));
	}

	@Test
	@DisplayName("On a host that polls, the delegate polls with a backoff that doubles to its longest and restarts when a poll woke somebody")
	void theDelegatePollsWithABackoff() {
		WaiterMachine machine = new WaiterMachine(delegate(), DURATION, this.polling::get);
		this.polling.set(true);
		long first = WaiterMachine.FIRST_BACKOFF_NANOS;
		assertThat(machine.entered(queued(10, 5, false), T0)).isEqualTo(new Sleep(T0 + first));
		assertThat(machine.woken(T0 + first)).isEqualTo(new Poll(machine.answerBy()));
		long polled = T0 + first;
		assertThat(machine.polled(false, polled)).isEqualTo(new Sleep(polled + 2 * first));
		assertThat(machine.woken(polled + 2 * first)).isEqualTo(new Poll(machine.answerBy()));
		polled += 2 * first;
		assertThat(machine.polled(true, polled)).isEqualTo(new Sleep(polled + first));
		for (int i = 0; i < 20; i++) {
			polled += WaiterMachine.LONGEST_BACKOFF_NANOS;
			assertThat(machine.woken(polled)).isEqualTo(new Poll(machine.answerBy()));
			machine.polled(false, polled);
		}
		assertThat(machine.woken(polled)).isEqualTo(new Sleep(polled + WaiterMachine.LONGEST_BACKOFF_NANOS));
		this.polling.set(false);
		assertThat(machine.woken(polled)).as("not while the host hears notifications")
			.isEqualTo(new Sleep(T0 + 5 * SECOND + LATE_NANOS));
	}

	@Test
	@DisplayName("On a host that polls, the delegate's polls keep their cadence from when each began, however long one took")
	void theDelegatesPollsKeepTheirCadence() {
		WaiterMachine machine = new WaiterMachine(delegate(), DURATION, this.polling::get);
		this.polling.set(true);
		long first = WaiterMachine.FIRST_BACKOFF_NANOS;
		long slowPoll = 3_000_000;
		machine.entered(queued(10, 5, false), T0);
		assertThat(machine.woken(T0 + first)).isEqualTo(new Poll(machine.answerBy()));
		assertThat(machine.polled(false, T0 + first + slowPoll)).isEqualTo(new Sleep(T0 + first + 2 * first));
	}

	@Test
	@DisplayName("The delegate's re-ask polls first on a host that polls, then asks")
	void theDelegatesReaskPollsFirst() {
		WaiterMachine machine = new WaiterMachine(delegate(), DURATION, () -> false);
		machine.entered(queued(60, 5, false), T0);
		assertThat(machine.woken(T0 + 5 * SECOND + LATE_NANOS)).isEqualTo(new Poll(machine.answerBy()));
		assertThat(machine.polled(false, T0 + 5 * SECOND + LATE_NANOS)).isEqualTo(new Ask(false, machine.answerBy()));
	}

	@Test
	@DisplayName("A waiter made the delegate polls from the taken-over backoff, and only then")
	void aWaiterMadeTheDelegatePollsFromTheTakenOverBackoff() {
		this.polling.set(true);
		Wakeups.Signal<Long> first = this.wakeups.register("key", 0L);
		Wakeups.Signal<Long> signal = this.wakeups.register("key", 1L);
		WaiterMachine machine = new WaiterMachine(signal, DURATION, this.polling::get);
		assertThat(machine.entered(queued(10, 5, false), T0)).as("no delegate, no poll")
			.isEqualTo(new Sleep(T0 + 10 * SECOND + LATE_NANOS));
		this.wakeups.unregister("key", first);
		assertThat(machine.woken(T0 + 1)).isEqualTo(new Sleep(T0 + WaiterMachine.TAKEN_OVER_BACKOFF_NANOS));
	}

}
