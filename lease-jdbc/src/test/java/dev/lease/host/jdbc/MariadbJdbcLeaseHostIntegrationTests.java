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

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.TakeResult;
import dev.lease.Taken;
import dev.lease.test.support.JdbcTestServers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JdbcLeaseHost} on MariaDB (or MySQL) named by
 * {@code LEASE_TEST_MARIADB_URL}, beyond the conformance kit; skipped without it. Its
 * default collations would find "A" equal to "a" and "a" equal to "a " in a text column:
 * the keys stay distinct here because they are bytes.
 *
 * @author Lease contributors
 */
@EnabledIfEnvironmentVariable(named = JdbcTestServers.MARIADB_VARIABLE, matches = ".+",
		disabledReason = "MariaDB tests skipped: set LEASE_TEST_MARIADB_URL (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root)")
class MariadbJdbcLeaseHostIntegrationTests extends JdbcLeaseHostChecks {

	@Override
	String url() {
		return JdbcTestServers.mariadbUrl();
	}

	@Override
	String platform() {
		return "mysql";
	}

	@Test
	@DisplayName("Issue 16: try_take and take of a free key, remaining and release with nobody queued are one statement each, with no transaction")
	void commonCasesAreOneRoundTripEach() throws Exception {
		List<String> calls = new CopyOnWriteArrayList<>();
		JdbcLeaseHost counted = host(counting(this.dataSource, calls));
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Duration term = Duration.ofSeconds(60);
		counted.remaining(key, holder);
		calls.clear();
		assertThat(counted.tryTake(key, holder, term)).isInstanceOf(Taken.class);
		assertThat(calls).as("try_take of a key with no row").hasSize(1);
		calls.clear();
		assertThat(counted.remaining(key, holder)).isPresent();
		assertThat(calls).as("remaining").hasSize(1);
		calls.clear();
		assertThat(counted.release(key, holder)).isInstanceOf(Released.class);
		assertThat(calls).as("release").hasSize(1);
		calls.clear();
		assertThat(counted.take(key, holder, term)).isInstanceOf(Taken.class);
		assertThat(calls).as("take of a free key").hasSize(1);
		this.jdbc.update("UPDATE LEASE_KEYS SET EXPIRES_AT = LATEST WHERE LEASE_KEY = ?", (Object) key.bytes());
		calls.clear();
		assertThat(counted.tryTake(key, holder, term)).isInstanceOf(Taken.class);
		assertThat(calls).as("try_take of a key whose grant passed").hasSize(1);
		counted.release(key, holder);
	}

	@Test
	@DisplayName("Operation 2, Operation 11: on MariaDB a release that hands the key to a waiter on another instance is four statements: the release for an empty queue, the key's row locked, the queue's head read with the clock, the waiter and the key written in one")
	void handoffToAWaiterElsewhereIsFourStatements() throws Exception {
		List<String> calls = new CopyOnWriteArrayList<>();
		JdbcLeaseHost counted = host(counting(this.dataSource, calls));
		JdbcLeaseHost other = host(pool());
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		LeaseHolder waiter = newHolder("waiter");
		Duration term = Duration.ofSeconds(60);
		assertThat(counted.tryTake(key, holder, term)).isInstanceOf(Taken.class);
		CompletableFuture<TakeResult> waiting = CompletableFuture.supplyAsync(() -> take(other, key, waiter, term));
		awaitQueued(key, 1);
		calls.clear();
		assertThat(counted.release(key, holder)).isInstanceOf(Released.class);
		assertThat(calls.stream().filter((call) -> call.startsWith("prepare") || call.startsWith("create")))
			.as("statements of the release: %s", calls)
			.hasSize(4);
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isInstanceOf(Taken.class);
		assertThat(counted.remaining(key, waiter)).isPresent();
		assertThat(other.release(key, waiter)).isInstanceOf(Released.class);
		assertThat(rows(key)).as("rows of the key once its last holder released").isZero();
	}

	// Every statement a connection prepares or creates, and every commit, rollback and
	// change of auto-commit or isolation: the round trips of a call.
	private static DataSource counting(DataSource target, List<String> calls) {
		Set<String> counted = Set.of("prepareStatement", "createStatement", "prepareCall", "commit", "rollback",
				"setAutoCommit", "setTransactionIsolation");
		return (DataSource) Proxy.newProxyInstance(MariadbJdbcLeaseHostIntegrationTests.class.getClassLoader(),
				new Class<?>[] { DataSource.class }, (proxy, method, args) -> {
					Object result = invoke(target, method, args);
					if (!(result instanceof Connection connection)) {
						return result;
					}
					return Proxy.newProxyInstance(MariadbJdbcLeaseHostIntegrationTests.class.getClassLoader(),
							new Class<?>[] { Connection.class }, (connectionProxy, call, callArgs) -> {
								if (counted.contains(call.getName())) {
									calls.add(call.getName() + ((callArgs != null) ? " " + callArgs[0] : ""));
								}
								return invoke(connection, call, callArgs);
							});
				});
	}

	private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

}
