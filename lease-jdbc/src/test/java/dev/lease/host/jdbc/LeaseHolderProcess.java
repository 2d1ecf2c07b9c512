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

package dev.lease.host.jdbc;

import java.time.Duration;

import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.TryTakeResult;

/**
 * A holder in a JVM of its own: takes a key, prints {@code TAKEN <expiresAt>} and then
 * pauses on purpose until it is killed, so that a test can {@code kill -9} it while it
 * holds the key (Check 3.1, 3.2).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class LeaseHolderProcess {

	private LeaseHolderProcess() {
	}

	/**
	 * Take the key and pause.
	 * @param args the JDBC URL, the key, the holder and the term in milliseconds
	 * @throws Exception if the host fails
	 */
	public static void main(String[] args) throws Exception {
		JdbcLeaseHost host = new JdbcLeaseHost(new DriverManagerDataSource(args[0]));
		TryTakeResult result = host.tryTake(LeaseKey.of(args[1]), LeaseHolder.of(args[2]),
				Duration.ofMillis(Long.parseLong(args[3])));
		if (!(result instanceof Taken taken)) {
			System.out.println("HELD");
			System.exit(1);
			return;
		}
		System.out.println("TAKEN " + taken.expiresAt());
		System.out.flush();
		while (true) {
			// Pauses on purpose: the test kills this process while it holds the key.
			Thread.sleep(1000);
		}
	}

}
