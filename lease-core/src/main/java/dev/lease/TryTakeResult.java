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

package dev.lease;

import java.util.Optional;

/**
 * The answer to {@link LeaseHost#tryTake tryTake}: exactly one of {@link Taken} and
 * {@link Held} (Operation 7).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public sealed interface TryTakeResult permits Taken, Held {

	/**
	 * Return the grant if the key was taken.
	 * @return the grant, or empty when held
	 */
	default Optional<Lease> granted() {
		return (this instanceof Taken taken) ? Optional.of(taken.lease()) : Optional.empty();
	}

}
