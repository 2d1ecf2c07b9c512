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

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

import dev.lease.annotation.LeaseMode;
import dev.lease.annotation.Leased;
import dev.lease.annotation.OnUnavailable;

/**
 * Resolves the attributes of a {@link Leased @Leased} left unset. On a {@code @Scheduled}
 * method they never wait and skip: every instance's trigger fires for the same tick, and
 * an instance that waited for the key would run that tick again once the holder released
 * it. Elsewhere a caller waits, and hears of a key not taken.
 *
 * @author Lease contributors
 */
final class LeasedDefaults {

	private static final String SCHEDULED = "org.springframework.scheduling.annotation.Scheduled";

	private static final boolean SCHEDULING_PRESENT = ClassUtils.isPresent(SCHEDULED,
			LeasedDefaults.class.getClassLoader());

	private LeasedDefaults() {
	}

	static LeaseMode mode(Method method, Leased leased) {
		if (leased.mode() != LeaseMode.DEFAULT) {
			return leased.mode();
		}
		return scheduled(method) ? LeaseMode.TRY_TAKE : LeaseMode.TAKE;
	}

	static OnUnavailable onUnavailable(Method method, Leased leased) {
		if (leased.onUnavailable() != OnUnavailable.DEFAULT) {
			return leased.onUnavailable();
		}
		return scheduled(method) ? OnUnavailable.SKIP : OnUnavailable.THROW;
	}

	static boolean scheduled(Method method) {
		return SCHEDULING_PRESENT && AnnotatedElementUtils.hasAnnotation(method,
				org.springframework.scheduling.annotation.Scheduled.class);
	}

}
