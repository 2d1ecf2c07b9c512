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
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * A holder in a child JVM: takes a key, prints its {@code expiresAt} in microseconds
 * since the epoch and then waits to be killed.
 *
 * @author Lease contributors
 */
public final class RedisHolderProcess {

	private RedisHolderProcess() {
	}

	/**
	 * Take the key and wait.
	 * @param args host, port, key prefix, key, holder, duration in milliseconds
	 * @throws InterruptedException never, in practice: the process is killed
	 */
	public static void main(String[] args) throws InterruptedException {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(args[0], Integer.parseInt(args[1])));
		factory.afterPropertiesSet();
		factory.start();
		RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(args[2]).build();
		TryTakeResult result = host.tryTake(LeaseKey.of(args[3]), LeaseHolder.of(args[4]),
				Duration.ofMillis(Long.parseLong(args[5])));
		if (result instanceof Taken taken) {
			System.out.println("TAKEN " + ChronoUnit.MICROS.between(Instant.EPOCH, taken.expiresAt()));
		}
		else {
			System.out.println("HELD");
		}
		System.out.flush();
		while (true) {
			Thread.sleep(60_000);
		}
	}

}
