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

package dev.lease.autoconfigure.fence;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for fences: {@code lease.fences.<party>.allowance}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@ConfigurationProperties("lease")
public class LeaseFenceProperties {

	/**
	 * Fenced parties by name, each with its declared allowance.
	 */
	private final Map<String, Party> fences = new LinkedHashMap<>();

	public Map<String, Party> getFences() {
		return this.fences;
	}

	/**
	 * One fenced party.
	 */
	public static class Party {

		/**
		 * Cross-seam allowance between the granting host's clock and this party's clock,
		 * subtracted from expiresAt when the party's fence is minted.
		 */
		private @Nullable Duration allowance;

		public @Nullable Duration getAllowance() {
			return this.allowance;
		}

		public void setAllowance(@Nullable Duration allowance) {
			this.allowance = allowance;
		}

	}

}
