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

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Bad input is refused with a message naming the problem, before anything is taken or
 * written; there is no default duration (Non-goal 10).
 *
 * @author Lease contributors
 */
abstract class ArgumentChecks extends KitGroup {

	@ParameterizedTest(name = "duration {0}")
	@ValueSource(strings = { "PT0S", "PT-1S", "PT-0.000000001S", "P1000000D" })
	@DisplayName("Non-goal 10: a duration that is not positive, or longer than the host can represent, is refused and nothing is taken")
	void invalidDurationIsRefusedAndNothingIsTaken(String text) {
		Duration duration = Duration.parse(text);
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		assertThatIllegalArgumentException().isThrownBy(() -> host().tryTake(key, holder, duration))
			.withMessageContaining("duration");
		assertThatIllegalArgumentException().isThrownBy(() -> host().take(key, holder, duration))
			.withMessageContaining("duration");
		assertThat(host().remaining(key, holder)).isEmpty();
		assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Taken.class);
	}

	@Test
	@DisplayName("Non-goal 10: a whole number of the host's steps is a valid duration; a nanosecond finer is refused and nothing is taken")
	void durationFinerThanTheHostsResolutionIsRefused() {
		Duration resolution = kit().resolution();
		Duration whole = resolution.multipliedBy(1_000_000_000L / resolution.toNanos());
		assertThat(host().tryTake(newKey(), newHolder("whole"), whole)).isInstanceOf(Taken.class);
		if (resolution.toNanos() > 1) {
			LeaseKey key = newKey();
			assertThatIllegalArgumentException()
				.isThrownBy(() -> host().tryTake(key, newHolder("finer"), whole.plusNanos(1)))
				.withMessageContaining("resolution");
			assertThat(host().tryTake(key, newHolder("other"), LONG)).isInstanceOf(Taken.class);
		}
	}

	@Test
	@DisplayName("Non-goal 10: a missing key, holder or duration is refused, naming the argument")
	void missingArgumentsAreRefused() {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		assertThatIllegalArgumentException().isThrownBy(() -> host().tryTake(null, holder, LONG))
			.withMessageContaining("key");
		assertThatIllegalArgumentException().isThrownBy(() -> host().tryTake(key, null, LONG))
			.withMessageContaining("holder");
		assertThatIllegalArgumentException().isThrownBy(() -> host().tryTake(key, holder, null))
			.withMessageContaining("duration");
		assertThatIllegalArgumentException().isThrownBy(() -> host().take(key, holder, null))
			.withMessageContaining("duration");
		assertThatIllegalArgumentException().isThrownBy(() -> host().remaining(null, holder))
			.withMessageContaining("key");
		assertThatIllegalArgumentException().isThrownBy(() -> host().release(key, null))
			.withMessageContaining("holder");
		assertThat(host().tryTake(key, holder, LONG)).isInstanceOf(Taken.class);
	}

}
