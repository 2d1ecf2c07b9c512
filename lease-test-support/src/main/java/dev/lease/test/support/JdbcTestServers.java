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

package dev.lease.test.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Matcher;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.lease.LeaseKey;

/**
 * The databases the JDBC tests run on: the running servers named by
 * {@code LEASE_TEST_POSTGRES_URL} and {@code LEASE_TEST_MARIADB_URL}, else an embedded
 * PostgreSQL started here on a free port (stopped when the JVM exits), and H2 in memory.
 * MariaDB has no embedded form: without its variable its tests are skipped, naming the
 * variable. Every database gets its tables from the shipped schema scripts, the versioned
 * migrations of its platform run in version order.
 *
 * @author Lease contributors
 */
public final class JdbcTestServers {

	/**
	 * The variable naming a running PostgreSQL to use instead of an embedded one.
	 */
	public static final String POSTGRES_VARIABLE = "LEASE_TEST_POSTGRES_URL";

	/**
	 * The variable naming the running MariaDB or MySQL the MariaDB tests need.
	 */
	public static final String MARIADB_VARIABLE = "LEASE_TEST_MARIADB_URL";

	private static @Nullable EmbeddedPostgres embeddedPostgres;

	private JdbcTestServers() {
	}

	// The JDBC URL of the PostgreSQL the tests use, starting the embedded one if needed.
	public static synchronized String postgresUrl() {
		String url = System.getenv(POSTGRES_VARIABLE);
		if (url != null && !url.isBlank()) {
			return url;
		}
		if (embeddedPostgres == null) {
			try {
				EmbeddedPostgres started = EmbeddedPostgres.builder().start();
				Runtime.getRuntime().addShutdownHook(new Thread(() -> {
					try {
						started.close();
					}
					catch (IOException ex) {
						// the JVM is going away
					}
				}));
				embeddedPostgres = started;
			}
			catch (IOException ex) {
				throw new IllegalStateException(
						"Could not start embedded PostgreSQL; set " + POSTGRES_VARIABLE + " to use a running server",
						ex);
			}
		}
		return embeddedPostgres.getJdbcUrl("postgres", "postgres");
	}

	/**
	 * Start an embedded PostgreSQL of the test's own, on a free port, with the given
	 * server settings ({@code max_connections}, ...): for a fault the shared server must
	 * never be put in. The test closes it.
	 * @param settings the server's settings, by name
	 * @return the started server; {@code getJdbcUrl("postgres", "postgres")} names it
	 */
	public static EmbeddedPostgres ownPostgres(Map<String, String> settings) {
		EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
		settings.forEach(builder::setServerConfig);
		try {
			return builder.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start an embedded PostgreSQL with " + settings, ex);
		}
	}

	// The JDBC URL of the MariaDB the tests use; aborts the test when there is none.
	public static String mariadbUrl() {
		String url = System.getenv(MARIADB_VARIABLE);
		Assumptions.assumeTrue(url != null && !url.isBlank(),
				"MariaDB tests skipped: set " + MARIADB_VARIABLE
						+ " (e.g. jdbc:mariadb://127.0.0.1:3306/test?user=root)"
						+ " to run them against a running MariaDB or MySQL");
		return url;
	}

	public static String h2Url() {
		return "jdbc:h2:mem:lease-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
	}

	public static HikariDataSource postgres() {
		return withSchema(pool(postgresUrl(), "postgresql"), "postgresql");
	}

	public static HikariDataSource mariadb() {
		return withSchema(pool(mariadbUrl(), "mysql"), "mysql");
	}

	public static HikariDataSource h2() {
		return withSchema(pool(h2Url(), "h2"), "h2");
	}

	public static HikariDataSource pool(String url, String platform) {
		return pool(url, platform, null);
	}

	public static HikariDataSource pool(String url, String platform, @Nullable String applicationName) {
		HikariConfig config = new HikariConfig();
		if (applicationName != null) {
			config.addDataSourceProperty("ApplicationName", applicationName);
		}
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(24);
		config.setPoolName("lease-test-" + platform + "-" + UUID.randomUUID().toString().substring(0, 8));
		return new HikariDataSource(config);
	}

	// The rows a test left behind for the given keys, in both tables.
	public static List<String> rows(DataSource dataSource, LeaseKey... keys) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		List<String> rows = new ArrayList<>();
		for (LeaseKey key : keys) {
			for (String table : List.of("LEASE_KEYS", "LEASE_WAITERS")) {
				Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM " + table + " WHERE LEASE_KEY = ?",
						Integer.class, (Object) key.bytes());
				for (int i = 0; i < ((count != null) ? count : 0); i++) {
					rows.add(table + " row of " + key);
				}
			}
		}
		return rows;
	}

	// Create the tables with the shipped scripts, never test-only DDL.
	public static <T extends DataSource> T withSchema(T dataSource, String platform) {
		return withSchema(dataSource, platform, "LEASE_");
	}

	// Create the tables under the given prefix with the shipped scripts, in version
	// order,
	// their table names prefixed as the schema initializer does.
	public static <T extends DataSource> T withSchema(T dataSource, String platform, String tablePrefix) {
		ResourceDatabasePopulator populator = new ResourceDatabasePopulator();
		for (Resource script : schemaScripts(platform.toLowerCase(Locale.ROOT))) {
			populator.addScript(prefixed(script, tablePrefix));
		}
		populator.execute(dataSource);
		return dataSource;
	}

	// The shipped schema scripts of the platform, in version order (lease-jdbc's
	// JdbcLeaseSchema, which this module cannot depend on: lease-jdbc's tests use it).
	public static List<Resource> schemaScripts(String platform) {
		try {
			Resource[] scripts = new PathMatchingResourcePatternResolver()
				.getResources("classpath*:dev/lease/host/jdbc/migration/" + platform + "/V*__*.sql");
			List<Resource> ordered = new ArrayList<>(List.of(scripts));
			ordered.sort(Comparator.comparingInt((script) -> Integer
				.parseInt(Objects.requireNonNull(script.getFilename()).replaceAll("^V(\\d+)__.*", "$1"))));
			if (ordered.isEmpty()) {
				throw new IllegalStateException("No schema scripts for " + platform + " on the class path");
			}
			return ordered;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	// A shipped script with its table names under the given prefix.
	public static Resource prefixed(Resource script, String tablePrefix) {
		try {
			String sql = script.getContentAsString(StandardCharsets.UTF_8)
				.replaceAll("\\bLEASE_(KEYS|WAITERS|PROTOCOL)", Matcher.quoteReplacement(tablePrefix) + "$1");
			return new ByteArrayResource(sql.getBytes(StandardCharsets.UTF_8), script.getDescription());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
