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

package dev.lease.annotation;

/**
 * How a {@link Leased @Leased} method asks for its key.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public enum LeaseMode {

	/**
	 * Not chosen: {@link #TRY_TAKE} on a {@code @Scheduled} method, {@link #TAKE}
	 * elsewhere. A scheduled job's tick is one run by whichever instance has the key; an
	 * instance that waited would run the same tick again once the key is released. Given
	 * to {@link dev.lease.template.LeaseTemplate} directly, where there is no method to
	 * judge, it takes as {@link #TAKE}.
	 * @since 0.1.0
	 */
	DEFAULT,

	/**
	 * Take the key, waiting while it is held, but no longer than the remaining term of
	 * the grant that stood on arrival (Operation 1 to 5).
	 */
	TAKE,

	/**
	 * Take the key only if it is free now, never waiting (Operation 6).
	 */
	TRY_TAKE

}
