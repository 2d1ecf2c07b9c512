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

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.util.ReflectionUtils;

import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeasedDefaults}.
 *
 * @author Lease contributors
 */
class LeasedDefaultsTests {

	@Test
	void unsetOnScheduledMethodNeverWaitsAndSkips() {
		Method method = method("scheduled");
		Leased leased = method.getAnnotation(Leased.class);
		assertThat(LeasedDefaults.mode(method, leased)).isEqualTo(LeaseMode.TRY_TAKE);
		assertThat(LeasedDefaults.onUnavailable(method, leased)).isEqualTo(OnUnavailable.SKIP);
	}

	@Test
	void unsetElsewhereWaitsAndThrows() {
		Method method = method("called");
		Leased leased = method.getAnnotation(Leased.class);
		assertThat(LeasedDefaults.mode(method, leased)).isEqualTo(LeaseMode.TAKE);
		assertThat(LeasedDefaults.onUnavailable(method, leased)).isEqualTo(OnUnavailable.THROW);
	}

	@Test
	void chosenOnScheduledMethodIsKept() {
		Method method = method("waitingScheduled");
		Leased leased = method.getAnnotation(Leased.class);
		assertThat(LeasedDefaults.mode(method, leased)).isEqualTo(LeaseMode.TAKE);
		assertThat(LeasedDefaults.onUnavailable(method, leased)).isEqualTo(OnUnavailable.THROW);
	}

	private static Method method(String name) {
		Method method = ReflectionUtils.findMethod(Jobs.class, name);
		assertThat(method).isNotNull();
		return method;
	}

	static class Jobs {

		@Scheduled(fixedRate = 1000)
		@Leased(key = "'k'", duration = "1s")
		void scheduled() {
		}

		@Leased(key = "'k'", duration = "1s")
		void called() {
		}

		@Scheduled(fixedRate = 1000)
		@Leased(key = "'k'", duration = "1s", mode = LeaseMode.TAKE, onUnavailable = OnUnavailable.THROW)
		void waitingScheduled() {
		}

	}

}
