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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Tuple;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.KeyModel;
import dev.lease.host.QueuedWaiter;
import dev.lease.host.WaiterQueue;

/**
 * A key's state as lease.lua stores it, read back from Redis in the format documented at
 * the top of the script: the head value (plain grant or queued form, version 3, or the
 * version 1 plain grant and version 2 queued form of earlier snapshots, which keep no
 * start), the waiting tickets of {@code :q} and their entries in {@code :w}. Tickets are
 * numbers here, so that they are the {@link KeyModel}'s waiter ids.
 *
 * @param latest the latest clock reading stored, in microseconds
 * @param holder the stored grant's holder, or {@code null}
 * @param expiresAt the stored grant's instant, 0 without a holder
 * @param grantedAt when the stored grant began, 0 without a holder or where no start was
 * kept
 * @param arrivals how many waiters have arrived
 * @param waiters the waiting tickets, head first
 * @param handed the entries of tickets handed a grant and kept for them to ask
 * @author Lease contributors
 */
record RedisLeaseState(long latest, @Nullable String holder, long expiresAt, long grantedAt, long arrivals,
		List<QueuedWaiter> waiters, List<Handed> handed) {

	/**
	 * Read the stored state of a key.
	 * @param jedis the connection
	 * @param redisKey the lease's Redis key
	 * @return the state, or {@code null} when nothing is stored
	 */
	static @Nullable RedisLeaseState read(Jedis jedis, String redisKey) {
		byte[] raw = jedis.get(bytes(redisKey));
		if (raw == null) {
			return null;
		}
		ByteBuffer head = ByteBuffer.wrap(raw);
		if ((raw[0] & 0xFF) != 0xC1 || raw[1] != 'L') {
			throw new IllegalStateException("not lease state: " + Arrays.toString(raw));
		}
		// version 3 is version 1 or 2 with the grant's start after its instant
		int started = (raw[2] == 3) ? 8 : 0;
		long latest = head.getLong(4);
		long expiresAt = head.getLong(12);
		long grantedAt = (started > 0) ? head.getLong(20) : 0;
		if ((raw[2] == 1 || raw[2] == 3) && raw[3] == 'G') {
			return new RedisLeaseState(latest, text(raw, 20 + started, raw.length), expiresAt, grantedAt, 0, List.of(),
					List.of());
		}
		if ((raw[2] != 2 && raw[2] != 3) || raw[3] != 'W') {
			throw new IllegalStateException("unknown form " + raw[2] + "/" + raw[3]);
		}
		long arrivals = head.getLong(20 + started);
		int ticketLength = (int) head.getLong(36 + started);
		String holder = (expiresAt > 0) ? text(raw, 44 + started + ticketLength, raw.length) : null;
		List<QueuedWaiter> waiters = new ArrayList<>();
		for (Tuple ticket : jedis.zrangeWithScores(bytes(redisKey + ":q"), 0, -1)) {
			byte[] entry = jedis.hget(bytes(redisKey + ":w"), bytes("t" + ticket.getElement()));
			if (entry != null) {
				ByteBuffer values = ByteBuffer.wrap(entry);
				byte[] arrived = jedis.hget(bytes(redisKey + ":w"), bytes("a" + ticket.getElement()));
				waiters.add(new QueuedWaiter(Long.parseLong(ticket.getElement()),
						LeaseHolder.of(text(entry, 32, entry.length)), values.getLong(8), values.getLong(16),
						values.getLong(0), (arrived != null) ? ByteBuffer.wrap(arrived).getLong() : 0));
			}
		}
		List<Handed> handed = new ArrayList<>();
		for (Tuple ticket : jedis.zrangeWithScores(bytes(redisKey + ":h"), 0, -1)) {
			byte[] entry = jedis.hget(bytes(redisKey + ":w"), bytes("t" + ticket.getElement()));
			if (entry != null) {
				handed.add(new Handed(Long.parseLong(ticket.getElement()), ByteBuffer.wrap(entry).getLong(24),
						LeaseHolder.of(text(entry, 32, entry.length))));
			}
		}
		return new RedisLeaseState(latest, holder, expiresAt, grantedAt, arrivals, List.copyOf(waiters),
				List.copyOf(handed));
	}

	/**
	 * Return the model of this state, as a host built on {@link KeyModel} would read it.
	 * @param key the lease key
	 * @param state the stored state, or {@code null} when nothing is stored
	 * @return the model
	 */
	static KeyModel model(LeaseKey key, @Nullable RedisLeaseState state) {
		if (state == null) {
			return KeyModel.free(key);
		}
		return new KeyModel(key, (state.holder() != null) ? LeaseHolder.of(state.holder()) : null, state.expiresAt(),
				state.grantedAt(), state.latest(), state.arrivals(), WaiterQueue.of(state.waiters()));
	}

	/**
	 * Return the grant handed to a ticket and kept for it, if any.
	 * @param ticket the ticket
	 * @return the kept grant, or {@code null} when none is kept
	 */
	@Nullable Handed handedTo(long ticket) {
		return this.handed.stream().filter((kept) -> kept.ticket() == ticket).findFirst().orElse(null);
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] raw, int from, int to) {
		return new String(raw, from, to - from, StandardCharsets.UTF_8);
	}

	/**
	 * A grant handed to a waiter and kept for it to ask.
	 *
	 * @param ticket the waiter's ticket
	 * @param expiresAt the grant's instant
	 * @param holder the waiter's holder
	 */
	record Handed(long ticket, long expiresAt, LeaseHolder holder) {

	}

}
