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
 * What a {@link Leased @Leased} method does when its key was not taken.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public enum OnUnavailable {

	/**
	 * Not chosen: {@link #SKIP} on a {@code @Scheduled} method, whose caller is the
	 * scheduler and has no use for an exception every tick another instance runs;
	 * {@link #THROW} elsewhere.
	 * @since 0.1.0
	 */
	DEFAULT,

	/**
	 * Throw {@link dev.lease.LeaseUnavailableException} naming the key; the method does
	 * not run.
	 */
	THROW,

	/**
	 * Do not run the method and return {@code null}, an empty {@link java.util.Optional},
	 * or nothing: the case of a {@code @Scheduled} job that one instance runs at a time.
	 */
	SKIP

}
