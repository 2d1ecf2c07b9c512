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
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;

import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RandomSchedule;
import dev.lease.tck.history.RecordingLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Random schedules on several threads and keys, their histories held against the atom's
 * model by the {@link HistoryChecker}; nothing stands once every term has passed.
 *
 * @author Lease contributors
 */
abstract class HistoryChecks extends KitGroup {

	private static final Duration ARRIVAL_SLACK = Duration.ofMillis(150);

	@RepeatedTest(value = 6, name = "{displayName} ({currentRepetition} of {totalRepetitions})")
	@DisplayName("Invariant 1, 4, 5, Non-goal 3: random schedules on 2 to 8 threads and 1 to 3 keys keep a history the atom allows")
	void randomSchedulesKeepAHistoryTheAtomAllows() throws Exception {
		long seed = ThreadLocalRandom.current().nextLong();
		RandomSchedule schedule = new RandomSchedule(seed);
		RecordingLeaseHost recording = new RecordingLeaseHost(host());
		schedule.run(recording, Duration.ofMinutes(1));
		new HistoryChecker(kit().clockSkew(), tolerance(), ARRIVAL_SLACK).check(recording.history());
		await("nothing left standing after every term passed, for " + schedule)
			.atMost(schedule.longestTerm().plus(tolerance()))
			.untilAsserted(() -> assertThat(host().grants(Integer.MAX_VALUE))
				.noneMatch((lease) -> schedule.keys().contains(lease.key())));
	}

}
