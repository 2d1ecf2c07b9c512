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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Time the server spent per statement, measured without changing the server: on
 * PostgreSQL, whose {@code pg_stat_statements} is only there when preloaded, each session
 * of a pool of its own logs every statement's duration
 * ({@code log_min_duration_statement = 0}, a superuser's session setting) and the lines
 * of those sessions are read back from the server's log ({@code pg_read_file}); on
 * MariaDB, whose {@code performance_schema} is off unless started with it, the session
 * profiles its statements ({@code SET profiling = 1}, {@code SHOW PROFILES}).
 *
 * @author Lease contributors
 */
final class ServerStatementTimes {

	static final int PAIRS = Integer.getInteger("bench.cost-timed-pairs", 500);

	private static final int WARM_UP = PAIRS * 2 / 5;

	private static final String APPLICATION = "lease-bench-cost";

	// "... [pid] ... LOG: duration: 0.051 ms execute S_1: INSERT ..."
	private static final Pattern DURATION = Pattern
		.compile("\\[(\\d+)\\].*?LOG:\\s+duration: ([0-9.]+) ms\\s+(parse|bind|execute|statement)[^:]*:\\s*(.*)");

	// SHOW PROFILES keeps at most 100 statements; fewer than that run between reads.
	private static final int PROFILED_BATCH = 10;

	private ServerStatementTimes() {
	}

	/**
	 * A pool whose every session has the server time its statements.
	 * @param url the database
	 * @param postgresql whether it is PostgreSQL, else MariaDB or MySQL
	 * @return the pool
	 */
	static HikariDataSource timedPool(String url, boolean postgresql) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		// One session, so that SHOW PROFILES on MariaDB reads the pairs' own statements.
		config.setMaximumPoolSize(postgresql ? 4 : 1);
		config
			.setConnectionInitSql(postgresql
					? "SELECT set_config('log_min_duration_statement', '0', false),"
							+ " set_config('log_parameter_max_length', '0', false),"
							+ " set_config('application_name', '" + APPLICATION + "', false)"
					: "SET profiling = 1, profiling_history_size = 100");
		return new HikariDataSource(config);
	}

	// The log of the machine's Debian cluster unless LEASE_BENCH_POSTGRES_LOG names it.
	static StatementTimes postgresql(String url, PairThroughput.Pair pair) throws Exception {
		try (Connection reader = DriverManager.getConnection(url); Statement statement = reader.createStatement()) {
			String log = System.getenv("LEASE_BENCH_POSTGRES_LOG");
			if (log == null || log.isBlank()) {
				int major = Integer.parseInt(single(statement, "SHOW server_version_num")) / 10000;
				log = "/var/log/postgresql/postgresql-" + major + "-main.log";
			}
			String size = "SELECT size FROM pg_stat_file('" + log.replace("'", "''") + "')";
			long index = run(pair, 0, WARM_UP);
			long from = Long.parseLong(single(statement, size));
			run(pair, index, PAIRS);
			long to = Long.parseLong(single(statement, size));
			List<String> pids = new ArrayList<>();
			try (ResultSet rows = statement
				.executeQuery("SELECT pid FROM pg_stat_activity WHERE application_name = '" + APPLICATION + "'")) {
				while (rows.next()) {
					pids.add(rows.getString(1));
				}
			}
			String text = single(statement,
					"SELECT pg_read_file('" + log.replace("'", "''") + "', " + from + ", " + (to - from) + ")");
			StatementTimes times = new StatementTimes(PAIRS);
			for (String line : text.split("\n")) {
				Matcher matcher = DURATION.matcher(line);
				if (matcher.find() && pids.contains(matcher.group(1))) {
					String phase = matcher.group(3);
					times.add(StatementTimes.kind(matcher.group(4)),
							phase.equals("execute") || phase.equals("statement"),
							Math.round(Double.parseDouble(matcher.group(2)) * 1_000_000));
				}
			}
			return times;
		}
	}

	static StatementTimes mariadb(HikariDataSource pool, PairThroughput.Pair pair) throws Exception {
		JdbcTemplate jdbc = new JdbcTemplate(pool);
		long index = run(pair, 0, WARM_UP);
		long[] last = { lastProfiled(jdbc, (id, seconds, sql) -> {
		}) };
		StatementTimes times = new StatementTimes(PAIRS);
		for (int done = 0; done < PAIRS; done += PROFILED_BATCH) {
			index = run(pair, index, PROFILED_BATCH);
			long seen = last[0];
			last[0] = Math.max(seen, lastProfiled(jdbc, (id, seconds, sql) -> {
				if (id > seen) {
					times.add(StatementTimes.kind(sql), true, Math.round(seconds * 1e9));
				}
			}));
		}
		return times;
	}

	private static long lastProfiled(JdbcTemplate jdbc, Profiled profiled) {
		long[] last = { 0 };
		jdbc.query("SHOW PROFILES", (row) -> {
			long id = row.getLong("Query_ID");
			profiled.accept(id, row.getDouble("Duration"), row.getString("Query"));
			last[0] = Math.max(last[0], id);
		});
		return last[0];
	}

	private static long run(PairThroughput.Pair pair, long from, int pairs) throws Exception {
		for (int i = 0; i < pairs; i++) {
			pair.run(0, from + i);
		}
		return from + pairs;
	}

	private static String single(Statement statement, String sql) throws SQLException {
		try (ResultSet rows = statement.executeQuery(sql)) {
			rows.next();
			return rows.getString(1);
		}
	}

	private interface Profiled {

		void accept(long id, double seconds, String sql);

	}

}
