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

package dev.lease.fence.http;

import org.springframework.util.Assert;

import dev.lease.fence.FencedParty;

/**
 * A client-side filter that sends the fence of one fenced party: what every HTTP client
 * integration shares, so that each states only how its client carries the header.
 *
 * @author Lease contributors
 */
abstract class FencedClient implements FencedParty {

	private final String party;

	FencedClient(String party) {
		Assert.hasText(party, "'party' must not be empty");
		this.party = party;
	}

	/**
	 * Return the fenced party the requests go to.
	 * @return the party name, as named under {@code lease.fences}
	 */
	@Override
	public String party() {
		return this.party;
	}

}
