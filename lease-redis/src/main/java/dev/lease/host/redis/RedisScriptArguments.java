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

import java.time.Duration;

import dev.lease.LeaseHolder;

/**
 * The arguments of each operation of {@code lease.lua} after the key: the operation's
 * name, then its own (terms in microseconds). The answers are decoded by
 * {@link RedisScriptAnswer}; the blocking and non-blocking hosts build their questions
 * here alike.
 *
 * @author Lease contributors
 */
final class RedisScriptArguments {

	static final byte[] GRANT = RedisLeaseStore.ascii("grant");

	private static final byte[] TRY = RedisLeaseStore.ascii("try");

	private static final byte[] TAKE = RedisLeaseStore.ascii("take");

	private static final byte[] ASK = RedisLeaseStore.ascii("ask");

	private static final byte[] SETTLE = RedisLeaseStore.ascii("settle");

	private static final byte[] REMAINING = RedisLeaseStore.ascii("remaining");

	private static final byte[] RELEASE = RedisLeaseStore.ascii("release");

	private static final byte[] YES = RedisLeaseStore.ascii("1");

	private static final byte[] NO = RedisLeaseStore.ascii("0");

	private RedisScriptArguments() {
	}

	static byte[][] tryTakeArguments(LeaseHolder holder, Duration duration) {
		return new byte[][] { TRY, holder.bytes(), micros(duration) };
	}

	static byte[][] takeArguments(LeaseHolder holder, Duration duration, byte[] ticket) {
		return new byte[][] { TAKE, holder.bytes(), micros(duration), ticket };
	}

	static byte[][] askArguments(byte[] ticket) {
		return new byte[][] { ASK, ticket, NO };
	}

	static byte[][] settleArguments(byte[] ticket, boolean interrupted) {
		return new byte[][] { SETTLE, ticket, interrupted ? YES : NO };
	}

	static byte[][] releaseArguments(LeaseHolder holder) {
		return new byte[][] { RELEASE, holder.bytes() };
	}

	static byte[][] remainingArguments(LeaseHolder holder) {
		return new byte[][] { REMAINING, holder.bytes() };
	}

	private static byte[] micros(Duration duration) {
		return RedisLeaseStore.ascii(Long.toString(duration.toNanos() / 1000));
	}

}
