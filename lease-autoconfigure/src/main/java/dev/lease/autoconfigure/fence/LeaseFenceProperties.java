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
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration properties for fences: {@code lease.fences.<party>.allowance}, and
 * {@code lease.fenced-server.*} for this application as a fenced HTTP server. The
 * server's properties are not under {@code lease.fences}: that map is keyed by party
 * name, and a party may be called {@code server}.
 *
 * @param fences Fenced parties by name, each with its declared allowance.
 * @param fencedServer This application as a fenced server: the filter that judges the
 * Lease-Fence header of each request on this server's clock.
 * @author Lease contributors
 * @since 0.1.0
 */
@ConfigurationProperties("lease")
public record LeaseFenceProperties(@DefaultValue Map<String, Party> fences, @DefaultValue FencedServer fencedServer) {

	/**
	 * One fenced party.
	 *
	 * @param allowance Cross-seam allowance between the granting host's clock and this
	 * party's clock, subtracted from expiresAt when the party's fence is minted.
	 */
	public record Party(@Nullable Duration allowance) {

	}

	/**
	 * This application as a fenced server.
	 *
	 * @param enabled Whether to register the filter that judges the Lease-Fence header of
	 * each request on this server's clock, in a servlet or reactive web application.
	 * @param party This server's name as a fenced party, in its refusals and the
	 * lease.fence.refused counter. Defaults to spring.application.name, else
	 * 'application'.
	 * @param requireFence Whether a request without a Lease-Fence header is refused with
	 * 428 Precondition Required. Applies to every request the filter sees, actuator's
	 * included unless the management server runs on its own port.
	 */
	public record FencedServer(@DefaultValue("true") boolean enabled, @Nullable String party, boolean requireFence) {

	}

}
