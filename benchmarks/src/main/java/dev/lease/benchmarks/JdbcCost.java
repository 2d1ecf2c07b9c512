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

package dev.lease.benchmarks;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.jdbc.JdbcLeaseHost;

/**
 * The cost of the JDBC host's try_take+release pair and of its floor on one thread: the
 * calls that reach the driver, counted under the pool, and the client's CPU, over
 * {@link PairCost#PAIRS} pairs; then, on a pool of its own, the server's time per
 * statement over {@link ServerStatementTimes#PAIRS} pairs ({@link ServerStatementTimes}).
 *
 * @author Lease contributors
 */
final class JdbcCost {

	private static final Duration TERM = Duration.ofSeconds(30);

	private JdbcCost() {
	}

	static void run(CostTable table, String database, String url, String floorUpsert) {
		boolean postgresql = database.equals("PostgreSQL");
		LeaseHolder holder = LeaseHolder.of("benchmark");
		LeaseKey[][] keys = JdbcBenchmarks.keys("bench:cost:", 1);
		LeaseKey[][] floorKeys = JdbcBenchmarks.keys("bench:cost-floor:", 1);
		Function<JdbcLeaseHost, PairThroughput.Pair> lease = (host) -> (thread, index) -> {
			LeaseKey key = keys[thread][(int) (index & 1023)];
			host.tryTake(key, holder, TERM);
			host.release(key, holder);
		};
		Function<DataSource, PairThroughput.Pair> floor = (pool) -> JdbcBenchmarks.floor(new JdbcTemplate(pool),
				floorUpsert, floorKeys, holder.bytes());
		try {
			DriverCalls calls = new DriverCalls(new DriverManagerDataSource(url));
			PairCost.Measured leaseCost;
			PairCost.Measured floorCost;
			try (HikariDataSource pool = countedPool(calls); JdbcLeaseHost host = host(pool, url, postgresql)) {
				leaseCost = PairCost.measure(lease.apply(host), calls::counters);
				floorCost = PairCost.measure(floor.apply(pool), calls::counters);
			}
			@Nullable StatementTimes leaseTimes = null;
			@Nullable StatementTimes floorTimes = null;
			try (HikariDataSource pool = ServerStatementTimes.timedPool(url, postgresql);
					JdbcLeaseHost host = host(pool, url, postgresql)) {
				leaseTimes = postgresql ? ServerStatementTimes.postgresql(url, lease.apply(host))
						: ServerStatementTimes.mariadb(pool, lease.apply(host));
				floorTimes = postgresql ? ServerStatementTimes.postgresql(url, floor.apply(pool))
						: ServerStatementTimes.mariadb(pool, floor.apply(pool));
			}
			catch (Exception ex) {
				table.note(database + ": server time not measured: " + ex);
			}
			table.add(row(database + ", lease try_take+release", leaseCost, leaseTimes, postgresql));
			table.add(row(database + ", floor upsert+delete", floorCost, floorTimes, postgresql));
			table.note(database + (postgresql
					? ": server time from the server's log, each session of a pool of its own logging every statement's"
							+ " duration (log_min_duration_statement = 0; pg_stat_statements is not preloaded here);"
							+ " parse, bind and execute summed per statement, over " + ServerStatementTimes.PAIRS
							+ " pairs; pgjdbc sends BEGIN with the statement after it, in the same round trip"
					: ": server time from SHOW PROFILES of the pool's one session (SET profiling = 1;"
							+ " performance_schema is off here), over " + ServerStatementTimes.PAIRS
							+ " pairs; MariaDB Connector/J sends each auto-commit change as a statement"));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			throw new IllegalStateException("JDBC cost on " + database + " failed", ex);
		}
	}

	// Round trips are the statements and transaction ends; an auto-commit change is one
	// more on MariaDB's driver, which sends it, and none on PostgreSQL's, which sends
	// BEGIN with the next statement.
	private static CostTable.Row row(String name, PairCost.Measured cost, @Nullable StatementTimes times,
			boolean postgresql) {
		double roundTrips = cost.counted().getOrDefault(DriverCalls.STATEMENTS, 0.0)
				+ cost.counted().getOrDefault(DriverCalls.TRANSACTION_ENDS, 0.0)
				+ (postgresql ? 0 : cost.counted().getOrDefault(DriverCalls.AUTO_COMMIT_CHANGES, 0.0));
		String roundTripText = String.format(Locale.ROOT, "%.2f (%s)", roundTrips, cost.describe());
		return new CostTable.Row(name, roundTripText, cost.threadCpuMicros(), cost.jvmCpuMicros(),
				(times != null) ? times.microsPerStatement() : Double.NaN, (times != null) ? times.describe() : "—");
	}

	private static HikariDataSource countedPool(DriverCalls calls) {
		HikariConfig config = new HikariConfig();
		config.setDataSource(calls.dataSource());
		config.setMaximumPoolSize(4);
		return new HikariDataSource(config);
	}

	// PostgreSQL's LISTEN connection from the driver, outside the counted calls.
	private static JdbcLeaseHost host(DataSource pool, String url, boolean postgresql) {
		JdbcLeaseHost.Builder builder = JdbcLeaseHost.builder(pool);
		return (postgresql ? builder.listenDataSource(new DriverManagerDataSource(url)) : builder).build();
	}

}
