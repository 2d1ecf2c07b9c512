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
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;

import dev.lease.tck.soak.SoakRun.SoakReport;
import dev.lease.tck.soak.SoakSettings;
import dev.lease.test.support.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Soak of {@link RedisLeaseHost}: run by the {@code soak} profile only.
 *
 * @author Lease contributors
 */
class RedisLeaseHostSoak {

	private static RedisTestServer server;

	@BeforeAll
	static void start() {
		server = RedisTestServer.start();
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	@DisplayName("Invariant 1: a soak of mixed operations never has two holders inside one key and leaves no Redis key behind")
	void soak() throws Exception {
		String prefix = "soak" + System.nanoTime() + ":";
		RedisConnectionFactory factory = server.lettuce();
		try (RedisLeaseHost host = RedisLeaseHost.builder(factory).keyPrefix(prefix).build()) {
			SoakReport report = SoakSettings.run().run(host);
			System.out.println(report.line("redis"));
			assertThat(report.overlaps()).isZero();
			assertThat(report.heapAfter() - report.heapBefore()).as("heap growth, bytes").isLessThan(32L << 20);
			await("no Redis key left under " + prefix).atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(keys(factory, prefix)).isEmpty());
		}
	}

	private static List<String> keys(RedisConnectionFactory factory, String prefix) {
		try (RedisConnection connection = factory.getConnection();
				Cursor<byte[]> cursor = connection.keyCommands()
					.scan(ScanOptions.scanOptions().match(prefix + "*").count(1000).build())) {
			return cursor.stream().map(String::new).toList();
		}
	}

}
