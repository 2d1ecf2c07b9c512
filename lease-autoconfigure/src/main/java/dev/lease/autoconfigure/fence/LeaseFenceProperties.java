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
 * Configuration properties for fences: {@code lease.fences.<party>.allowance}, and
 * {@code lease.fenced-server.*} for this application as a fenced HTTP server. The
 * server's properties are not under {@code lease.fences}: that map is keyed by party
 * name, and a party may be called {@code server}.
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

	/**
	 * This application as a fenced server: the filter that judges the Lease-Fence header
	 * of each request on this server's clock.
	 */
	private final FencedServer fencedServer = new FencedServer();

	public Map<String, Party> getFences() {
		return this.fences;
	}

	public FencedServer getFencedServer() {
		return this.fencedServer;
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

	/**
	 * This application as a fenced server.
	 */
	public static class FencedServer {

		/**
		 * Whether to register the filter that judges the Lease-Fence header of each
		 * request on this server's clock, in a servlet or reactive web application.
		 */
		private boolean enabled = true;

		/**
		 * This server's name as a fenced party, in its refusals and the
		 * lease.fence.refused counter. Defaults to spring.application.name, else
		 * 'application'.
		 */
		private @Nullable String party;

		/**
		 * Whether a request without a Lease-Fence header is refused with 428 Precondition
		 * Required. Applies to every request the filter sees, actuator's included unless
		 * the management server runs on its own port.
		 */
		private boolean requireFence;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getParty() {
			return this.party;
		}

		public void setParty(@Nullable String party) {
			this.party = party;
		}

		public boolean isRequireFence() {
			return this.requireFence;
		}

		public void setRequireFence(boolean requireFence) {
			this.requireFence = requireFence;
		}

	}

}
