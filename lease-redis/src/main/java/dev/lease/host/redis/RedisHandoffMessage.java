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

package dev.lease.host.redis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.lease.host.Wakeups;

/**
 * A message {@code lease.lua} publishes on the host's channel, {@code <prefix>handoff},
 * whenever it hands a key on or withdraws the waiter next in line. This is the one
 * statement of its format, which the script cites; change both together. The body is
 * ASCII, five fields separated by one space:
 *
 * <pre>
 * &lt;redisKey&gt; &lt;ticket&gt; &lt;expiresAt&gt; &lt;nextTicket&gt; &lt;standingRemaining&gt;
 * </pre>
 *
 * {@code ticket} is the waiter the key was handed to, and {@code expiresAt} its grant's
 * instant in microseconds since the epoch on Redis {@code TIME} ({@code - 0}: handed to
 * nobody); {@code nextTicket} is the waiter now next in line ({@code -}: none), which
 * must ask when the standing grant ends, {@code standingRemaining} microseconds after the
 * script's now (0 when no grant stands), to take a handoff by expiry that nobody
 * publishes. A Redis key never holds a space ({@link RedisKeyCodec}), nor does a ticket.
 *
 * @param redisKey the lease's Redis key
 * @param ticket the waiter the key was handed to, or {@code null}
 * @param expiresAt the handed grant's instant in microseconds since the epoch, or 0
 * @param nextTicket the waiter next in line, or {@code null}
 * @param standingRemaining the standing grant's remaining term in microseconds
 * @author Lease contributors
 */
record RedisHandoffMessage(String redisKey, @Nullable String ticket, long expiresAt, @Nullable String nextTicket,
		long standingRemaining) {

	private static final Pattern FORMAT = Pattern.compile("(\\S+) (\\S+) (-?\\d{1,18}) (\\S+) (-?\\d{1,18})");

	private static final String NONE = "-";

	/**
	 * Read a message's body.
	 * @param body the body, as published
	 * @return the message, or {@code null} when the body is not of this format
	 */
	static @Nullable RedisHandoffMessage parse(String body) {
		Matcher matcher = FORMAT.matcher(body);
		if (!matcher.matches()) {
			return null;
		}
		return new RedisHandoffMessage(matcher.group(1), ticket(matcher.group(2)), Long.parseLong(matcher.group(3)),
				ticket(matcher.group(4)), Long.parseLong(matcher.group(5)));
	}

	/**
	 * Return the handoff the message names, for the waiter it was handed to.
	 * @return the handoff, or {@code null} when the key was handed to nobody
	 */
	Wakeups.@Nullable Handoff<String> handoff() {
		return (this.ticket != null) ? new Wakeups.Handoff<>(this.ticket, RedisScriptAnswer.instant(this.expiresAt))
				: null;
	}

	private static @Nullable String ticket(String field) {
		return NONE.equals(field) ? null : field;
	}

}
