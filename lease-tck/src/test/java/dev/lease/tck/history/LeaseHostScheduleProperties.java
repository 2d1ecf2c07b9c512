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

package dev.lease.tck.history;

import java.time.Duration;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import dev.lease.Lease;
import dev.lease.LeaseHost;
import dev.lease.tck.history.RandomSchedule.Kind;
import dev.lease.tck.history.RandomSchedule.Step;

/**
 * The property every host must have: any schedule of takes, try takes, releases,
 * remainings and pauses on 2 to 8 threads and 1 to 3 keys leaves a history the lease atom
 * allows, and nothing standing once every term has passed. A failing schedule is shrunk
 * to a small one, and jqwik reports it with the seed that found it.
 *
 * @author Lease contributors
 */
public abstract class LeaseHostScheduleProperties {

	// Terms and pauses short enough that ten schedules cost seconds, long enough to
	// overlap across threads.
	private static final int LONGEST_TERM_MILLIS = 300;

	private static final int LONGEST_PAUSE_MILLIS = 200;

	/**
	 * Return the host under test.
	 * @return the host
	 */
	protected abstract LeaseHost host();

	@Property(tries = 10)
	@Label("Invariant 1, 4, 5, Non-goal 3: any schedule on 2 to 8 threads and 1 to 3 keys keeps a history the atom allows and leaves nothing standing")
	void anyScheduleKeepsAHistoryTheAtomAllows(@ForAll("schedules") RandomSchedule generated) throws Exception {
		// A schedule may be tried again while shrinking: every run gets keys of its own.
		RandomSchedule schedule = generated.onFreshKeys();
		RecordingLeaseHost recording = new RecordingLeaseHost(host());
		schedule.run(recording, Duration.ofMinutes(1));
		HistoryAssertions.assertAllowedAndNothingLeft(recording,
				schedule.longestTerm().plus(HistoryAssertions.TOLERANCE), () -> standing(schedule));
	}

	@Provide
	Arbitrary<RandomSchedule> schedules() {
		Arbitrary<List<Step>> thread = steps().list().ofMinSize(1).ofMaxSize(4);
		return Combinators.combine(Arbitraries.integers().between(1, 3), thread.list().ofMinSize(2).ofMaxSize(8))
			.as(RandomSchedule::of);
	}

	private static Arbitrary<Step> steps() {
		Arbitrary<Integer> key = Arbitraries.integers().between(0, 2);
		Arbitrary<Step> takes = Combinators
			.combine(Arbitraries.of(Kind.TAKE, Kind.TRY_TAKE), key,
					Arbitraries.integers().between(50, LONGEST_TERM_MILLIS))
			.as(Step::new);
		Arbitrary<Step> questions = Combinators.combine(Arbitraries.of(Kind.RELEASE, Kind.REMAINING), key)
			.as((kind, k) -> new Step(kind, k, 0));
		Arbitrary<Step> pauses = Arbitraries.integers()
			.between(0, LONGEST_PAUSE_MILLIS)
			.map((millis) -> new Step(Kind.PAUSE, 0, millis));
		return Arbitraries.oneOf(takes, questions, pauses);
	}

	private List<Lease> standing(RandomSchedule schedule) {
		return host().grants(Integer.MAX_VALUE)
			.stream()
			.filter((lease) -> schedule.keys().contains(lease.key()))
			.toList();
	}

}
