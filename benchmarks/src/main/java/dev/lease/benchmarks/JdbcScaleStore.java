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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseSchema;

/**
 * The JDBC host on PostgreSQL or MariaDB, on tables of its own ({@code SCALE_BENCH_KEYS},
 * {@code SCALE_BENCH_WAITERS}, made from the shipped schema) so that other users of the
 * same database neither share its rows, its sizes nor its notification channel.
 * Statements are counted and timed at the client: {@code pg_stat_statements} needs
 * {@code shared_preload_libraries}, which this suite does not change on a shared server.
 *
 * @author Lease contributors
 */
final class JdbcScaleStore implements ScaleStore {

	static final String TABLE_PREFIX = "SCALE_BENCH_";

	private final String name;

	private final String platform;

	private final HikariDataSource pool;

	private final CountingDataSource counting;

	private final JdbcTemplate jdbc;

	private final JdbcLeaseHost host;

	JdbcScaleStore(String name, String url, int poolSize) {
		this.name = name;
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(poolSize);
		this.pool = new HikariDataSource(config);
		this.jdbc = new JdbcTemplate(this.pool);
		this.counting = new CountingDataSource(this.pool);
		try (JdbcLeaseHost probe = JdbcLeaseHost.builder(this.pool).notifications(false).build()) {
			this.platform = probe.platform();
		}
		run(new ClassPathResource("dev/lease/host/jdbc/schema-drop-" + this.platform + ".sql"));
		JdbcLeaseSchema.scripts(this.platform).forEach(this::run);
		this.host = JdbcLeaseHost.builder(this.counting.dataSource())
			.tablePrefix(TABLE_PREFIX)
			.listenDataSource(new DriverManagerDataSource(url))
			.build();
	}

	// A shipped script with this suite's table prefix; the LEASE_KEY column keeps its
	// name.
	private void run(Resource script) {
		try {
			String text = script.getContentAsString(StandardCharsets.UTF_8)
				.replaceAll("\\bLEASE_(?!KEY\\b)", TABLE_PREFIX);
			new ResourceDatabasePopulator(new ByteArrayResource(text.getBytes(StandardCharsets.UTF_8)))
				.execute(this.pool);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public LeaseHost host() {
		return this.host;
	}

	@Override
	public Counters counters() {
		return this.counting.takeMax();
	}

	@Override
	public void forget(LeaseKey key) {
		this.jdbc.update("DELETE FROM " + TABLE_PREFIX + "WAITERS WHERE LEASE_KEY = ?", (Object) key.bytes());
		this.jdbc.update("DELETE FROM " + TABLE_PREFIX + "KEYS WHERE LEASE_KEY = ?", (Object) key.bytes());
	}

	@Override
	public void clear() {
		this.jdbc.execute("DELETE FROM " + TABLE_PREFIX + "WAITERS");
		this.jdbc.execute("DELETE FROM " + TABLE_PREFIX + "KEYS");
		vacuum();
	}

	private void vacuum() {
		for (String table : new String[] { "KEYS", "WAITERS" }) {
			this.jdbc.execute((this.platform.equals("postgresql") ? "VACUUM FULL ANALYZE " : "OPTIMIZE TABLE ")
					+ TABLE_PREFIX + table);
		}
	}

	@Override
	public long storedBytes() {
		if (this.platform.equals("postgresql")) {
			this.jdbc.execute("ANALYZE " + TABLE_PREFIX + "KEYS");
			Long bytes = this.jdbc.queryForObject("SELECT pg_total_relation_size('" + TABLE_PREFIX + "KEYS')"
					+ " + pg_total_relation_size('" + TABLE_PREFIX + "WAITERS')", Long.class);
			return (bytes != null) ? bytes : -1;
		}
		this.jdbc.execute("ANALYZE TABLE " + TABLE_PREFIX + "KEYS, " + TABLE_PREFIX + "WAITERS");
		Long bytes = this.jdbc.queryForObject("SELECT SUM(DATA_LENGTH + INDEX_LENGTH) FROM information_schema.TABLES"
				+ " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('" + TABLE_PREFIX + "KEYS', '" + TABLE_PREFIX
				+ "WAITERS')", Long.class);
		return (bytes != null) ? bytes : -1;
	}

	@Override
	public void close() {
		this.host.close();
		this.pool.close();
	}

}
