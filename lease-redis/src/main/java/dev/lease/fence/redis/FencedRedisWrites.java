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

package dev.lease.fence.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

import dev.lease.Fence;
import dev.lease.FenceExpiredException;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.FenceRefusals;
import dev.lease.fence.FencedParty;

/**
 * Writes to Redis as a fenced party: each write is one script that reads Redis
 * {@code TIME} and writes only when that reading is at or before the fence (Fence 3, 4,
 * 6); otherwise it writes nothing and {@link FenceExpiredException} is thrown. The fence
 * is the one bound to the current call for this party by a {@code @Fenced} method.
 * <p>
 * A refusal is reported to the listener these writes were built with or, built without
 * one, to the application's listener carried by the bound fence: counted once either way.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FencedRedisWrites implements FencedParty {

	// The fence travels as whole seconds and microseconds, truncated down: a fence read
	// at a coarser step only ever refuses earlier, never later.
	private static final String CHECK = """
			local now = redis.call('TIME')
			local s, us = tonumber(now[1]), tonumber(now[2])
			local fs, fus = tonumber(ARGV[1]), tonumber(ARGV[2])
			if s > fs or (s == fs and us > fus) then
			  return {0, now[1], now[2]}
			end
			""";

	private static final RedisScript<List<Object>> SET = script(CHECK + """
			if ARGV[4] ~= '' then
			  redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
			else
			  redis.call('SET', KEYS[1], ARGV[3])
			end
			return {1, 1}
			""");

	private static final RedisScript<List<Object>> HASH_SET = script(CHECK + """
			return {1, redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])}
			""");

	private static final RedisScript<List<Object>> DELETE = script(CHECK + """
			return {1, redis.call('DEL', unpack(KEYS))}
			""");

	private final StringRedisTemplate redisTemplate;

	private final String party;

	private final @Nullable FenceRefusalListener listener;

	/**
	 * Create fenced writes for the given party; their refusals are reported to the
	 * application's listener, carried by the fence a {@code @Fenced} method binds.
	 * @param redisTemplate the template to run the scripts with
	 * @param party the fenced party, as named under {@code lease.fences}
	 */
	public FencedRedisWrites(StringRedisTemplate redisTemplate, String party) {
		this(party, redisTemplate, null);
	}

	/**
	 * Create fenced writes for the given party.
	 * @param redisTemplate the template to run the scripts with
	 * @param party the fenced party, as named under {@code lease.fences}
	 * @param listener told of every refusal, instead of the listener the bound fence
	 * carries
	 */
	public FencedRedisWrites(StringRedisTemplate redisTemplate, String party, FenceRefusalListener listener) {
		this(party, redisTemplate, FenceRefusals.requireListener(listener));
	}

	private FencedRedisWrites(String party, StringRedisTemplate redisTemplate,
			@Nullable FenceRefusalListener listener) {
		Assert.notNull(redisTemplate, "'redisTemplate' must not be null");
		Assert.hasText(party, "'party' must not be empty");
		this.redisTemplate = redisTemplate;
		this.party = party;
		this.listener = listener;
	}

	/**
	 * Return the fenced party these writes go to.
	 * @return the party name, as named under {@code lease.fences}
	 */
	@Override
	public String party() {
		return this.party;
	}

	/**
	 * Set a string value, fenced.
	 * @param key the Redis key
	 * @param value the value
	 * @throws FenceExpiredException if the fence had passed on Redis' clock
	 */
	public void set(String key, String value) {
		run(SET, List.of(key), value, "");
	}

	/**
	 * Set a string value with a time to live, fenced.
	 * @param key the Redis key
	 * @param value the value
	 * @param timeToLive the time to live, at least one millisecond
	 * @throws FenceExpiredException if the fence had passed on Redis' clock
	 */
	public void set(String key, String value, Duration timeToLive) {
		Assert.isTrue(timeToLive.toMillis() > 0, "'timeToLive' must be at least one millisecond");
		run(SET, List.of(key), value, Long.toString(timeToLive.toMillis()));
	}

	/**
	 * Set one field of a hash, fenced.
	 * @param key the Redis key
	 * @param field the hash field
	 * @param value the value
	 * @return whether the field was new
	 * @throws FenceExpiredException if the fence had passed on Redis' clock
	 */
	public boolean hashSet(String key, String field, String value) {
		Object added = run(HASH_SET, List.of(key), field, value);
		return (added instanceof Long count) && count > 0;
	}

	/**
	 * Delete keys, fenced.
	 * @param keys the Redis keys
	 * @return the number of keys deleted
	 * @throws FenceExpiredException if the fence had passed on Redis' clock
	 */
	public long delete(String... keys) {
		Assert.notEmpty(keys, "'keys' must not be empty");
		Object deleted = run(DELETE, Arrays.asList(keys));
		return (deleted instanceof Long count) ? count : 0;
	}

	/**
	 * Run a user script, fenced: the script body runs only when admitted, with
	 * {@code KEYS} and {@code ARGV} as given, and its result is answered.
	 * @param body the Lua script body, ending with its own {@code return}
	 * @param keys the Redis keys the script touches
	 * @param args the script arguments
	 * @return the script's result
	 * @throws FenceExpiredException if the fence had passed on Redis' clock
	 */
	public @Nullable Object script(String body, List<String> keys, String... args) {
		Assert.hasText(body, "'body' must not be empty");
		RedisScript<List<Object>> script = script(CHECK + """
				local argv = {}
				for i = 3, #ARGV do argv[i - 2] = ARGV[i] end
				local fenced = function(KEYS, ARGV)
				""" + body + """

				end
				return {1, fenced(KEYS, argv)}
				""");
		return run(script, keys, args);
	}

	private @Nullable Object run(RedisScript<List<Object>> script, List<String> keys, String... args) {
		BoundFence bound = FenceBinding.required(this.party);
		Fence fence = bound.fence();
		Instant instant = fence.instant();
		Object[] argv = StringUtils.concatenateStringArrays(
				new String[] { Long.toString(instant.getEpochSecond()), Long.toString(instant.getNano() / 1_000L) },
				args);
		List<Object> answer = this.redisTemplate.execute(script, keys, argv);
		Assert.state(answer != null && !answer.isEmpty(), "The fenced script answered nothing");
		if (answer.get(0) instanceof Long admitted && admitted == 1L) {
			return (answer.size() > 1) ? answer.get(1) : null;
		}
		throw FenceRefusals.refused(new FenceRefusal(this.party, bound.key(), instant, fence.margin(), reading(answer)),
				FenceRefusals.listener(this.party, this.listener));
	}

	private static Instant reading(List<Object> answer) {
		long seconds = Long.parseLong(String.valueOf(answer.get(1)));
		long micros = Long.parseLong(String.valueOf(answer.get(2)));
		return Instant.ofEpochSecond(seconds, micros * 1_000L);
	}

	@SuppressWarnings("unchecked")
	private static RedisScript<List<Object>> script(String text) {
		return RedisScript.of(text, (Class<List<Object>>) (Class<?>) List.class);
	}

}
