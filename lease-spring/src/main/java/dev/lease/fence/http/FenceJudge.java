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

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.util.Assert;
import org.springframework.util.function.SingletonSupplier;

import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.FenceRefusals;

/**
 * The server side of the {@code Lease-Fence} header, shared by the servlet filter and the
 * WebFlux filter, which only carry its answer into their own response: judges the fence
 * bare on the server's own clock (Fence 4, 6), refuses a request without one when it is
 * required, and words the problem-detail answers.
 *
 * @author Lease contributors
 */
final class FenceJudge {

	static final String PROBLEM_CONTENT_TYPE = "application/problem+json";

	private final String party;

	private final InstantSource clock;

	// The filter's own listener; without one, the application's once the filter is a
	// bean.
	private final @Nullable FenceRefusalListener listener;

	private volatile Supplier<FenceRefusalListener> application = () -> FenceRefusalListener.NONE;

	private boolean required;

	FenceJudge(String party, InstantSource clock, @Nullable FenceRefusalListener listener) {
		Assert.hasText(party, "'party' must not be empty");
		Assert.notNull(clock, "'clock' must not be null");
		this.party = party;
		this.clock = clock;
		this.listener = listener;
	}

	String party() {
		return this.party;
	}

	// A filter declared as a bean without a listener reports to the application's
	// FenceRefusalListener bean, looked up at the first refusal.
	void useApplicationListener(BeanFactory beanFactory) {
		ObjectProvider<FenceRefusalListener> listeners = beanFactory.getBeanProvider(FenceRefusalListener.class);
		this.application = SingletonSupplier.of(() -> listeners.getIfUnique(() -> FenceRefusalListener.NONE));
	}

	void setRequired(boolean required) {
		this.required = required;
	}

	// Answers null when the request may go on, else the problem to answer with.
	@Nullable ProblemAnswer judge(@Nullable String header) {
		if (header == null || header.isBlank()) {
			return (this.required) ? new ProblemAnswer(428, "Precondition Required",
					"This endpoint of '" + this.party + "' requires a '" + LeaseFenceHeader.NAME + "' header", null)
					: null;
		}
		Instant fence;
		try {
			fence = LeaseFenceHeader.parse(header);
		}
		catch (IllegalArgumentException ex) {
			return new ProblemAnswer(400, "Bad Request", ex.getMessage(), null);
		}
		Instant reading = this.clock.instant();
		if (!reading.isAfter(fence)) {
			return null;
		}
		FenceRefusals.refused(new FenceRefusal(this.party, null, fence, null, reading),
				(this.listener != null) ? this.listener : this.application.get());
		return new ProblemAnswer(409, "Conflict", "The lease fence " + fence + " has passed on the clock of '"
				+ this.party + "' (reading " + reading + "); the work was refused", fence);
	}

	// A problem-detail answer (RFC 9457).
	record ProblemAnswer(int status, String title, String detail, @Nullable Instant fence) {

		byte[] body() {
			StringBuilder json = new StringBuilder();
			json.append("{\"type\":\"about:blank\",\"title\":\"").append(escape(this.title)).append("\",\"status\":");
			json.append(this.status).append(",\"detail\":\"").append(escape(this.detail)).append('"');
			if (this.fence != null) {
				json.append(",\"fence\":\"").append(this.fence).append('"');
			}
			return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
		}

		private static String escape(String text) {
			StringBuilder escaped = new StringBuilder(text.length());
			for (char c : text.toCharArray()) {
				if (c == '"' || c == '\\') {
					escaped.append('\\').append(c);
				}
				else if (c < 0x20) {
					escaped.append(String.format("\\u%04x", (int) c));
				}
				else {
					escaped.append(c);
				}
			}
			return escaped.toString();
		}

	}

}
