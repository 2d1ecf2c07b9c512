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

package dev.lease.fence;

/**
 * The holder's side of one fenced party: an object that sends the fence bound for a party
 * named under {@code lease.fences} ({@code FencedJdbcTemplate},
 * {@code FencedRedisWrites}, the {@code Lease-Fence} client interceptors). Implemented so
 * that the application's start-up can find every party it built and fail on a name with
 * no declared allowance, instead of at the party's first write.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public interface FencedParty {

	/**
	 * Return the name of the fenced party, as declared under {@code lease.fences}.
	 * @return the party name
	 */
	String party();

}
