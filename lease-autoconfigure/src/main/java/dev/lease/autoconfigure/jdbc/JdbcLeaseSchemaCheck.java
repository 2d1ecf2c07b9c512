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

package dev.lease.autoconfigure.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.NonTransientDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.StreamUtils;

import dev.lease.LeaseHostException;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.host.jdbc.JdbcLeaseHost;

/**
 * Checks at start-up that the JDBC lease host's tables exist with every column its schema
 * script declares, so that a missing table fails start-up with the fix instead of failing
 * every leased call later. The expected columns are read from the script the jar ships
 * for the platform, so the check follows the schema without a second copy of it.
 * <p>
 * A database that cannot be reached is not judged here: the application starts, and the
 * host answers (and health reports) the failure when the database is asked.
 *
 * @author Lease contributors
 */
final class JdbcLeaseSchemaCheck {

	private static final Log logger = LogFactory.getLog(JdbcLeaseSchemaCheck.class);

	private static final Pattern CREATE_TABLE = Pattern.compile(
			"CREATE\\s+TABLE\\s+IF\\s+NOT\\s+EXISTS\\s+(\\w+)\\s*\\((.*?)\\)\\s*(?:ENGINE\\s*=\\s*\\w+\\s*)?;",
			Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

	private static final Set<String> NOT_COLUMNS = Set.of("CONSTRAINT", "PRIMARY", "UNIQUE", "KEY", "INDEX", "FOREIGN",
			"CHECK");

	private JdbcLeaseSchemaCheck() {
	}

	static void check(DataSource dataSource, JdbcLeaseHost host) {
		String platform;
		try {
			platform = host.platform();
		}
		catch (LeaseHostException ex) {
			logger.warn("Could not check the JDBC lease host's tables, the database did not answer; they are not"
					+ " checked later");
			return;
		}
		String location = JdbcLeaseHost.SCHEMA_LOCATION.replace("@@platform@@", platform);
		List<String> problems;
		try {
			problems = problems(new JdbcTemplate(dataSource), expected(location, host.tablePrefix()));
		}
		catch (DataAccessResourceFailureException ex) {
			logger
				.warn("Could not check the JDBC lease host's tables, the database did not answer: " + ex.getMessage());
			return;
		}
		if (!problems.isEmpty()) {
			throw new LeaseConfigurationException(
					"The JDBC lease host's tables do not match its schema: " + String.join("; ", problems),
					"Set lease.jdbc.initialize-schema=always to create them at start-up, or run the script " + location
							+ " (with the table prefix '" + host.tablePrefix() + "') against the database yourself");
		}
	}

	// Table name (with the prefix) to its column names, upper case, from the schema
	// script.
	static Map<String, Set<String>> expected(String location, String tablePrefix) {
		Resource script = new DefaultResourceLoader().getResource(location);
		String sql;
		try {
			sql = StreamUtils.copyToString(script.getInputStream(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + location, ex);
		}
		Map<String, Set<String>> tables = new LinkedHashMap<>();
		Matcher table = CREATE_TABLE.matcher(sql);
		while (table.find()) {
			String name = table.group(1).toUpperCase(Locale.ROOT);
			if (name.startsWith(JdbcLeaseHost.DEFAULT_TABLE_PREFIX)) {
				name = tablePrefix.toUpperCase(Locale.ROOT)
						+ name.substring(JdbcLeaseHost.DEFAULT_TABLE_PREFIX.length());
			}
			Set<String> columns = new TreeSet<>();
			for (String line : table.group(2).split(",\\s*\\n")) {
				String first = line.trim().split("\\s+")[0].toUpperCase(Locale.ROOT);
				if (!first.isEmpty() && !NOT_COLUMNS.contains(first)) {
					columns.add(first);
				}
			}
			tables.put(name, columns);
		}
		return tables;
	}

	private static List<String> problems(JdbcTemplate jdbc, Map<String, Set<String>> expected) {
		List<String> problems = new ArrayList<>();
		expected.forEach((table, columns) -> {
			try {
				Set<String> found = jdbc.query("SELECT * FROM " + table + " WHERE 1 = 0", (rs) -> {
					Set<String> names = new TreeSet<>();
					for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
						names.add(rs.getMetaData().getColumnLabel(i).toUpperCase(Locale.ROOT));
					}
					return names;
				});
				Set<String> missing = new TreeSet<>(columns);
				missing.removeAll(found);
				if (!missing.isEmpty()) {
					problems.add("table " + table + " has no column " + String.join(", ", missing));
				}
			}
			catch (DataAccessResourceFailureException ex) {
				throw ex;
			}
			catch (NonTransientDataAccessException ex) {
				problems.add("table " + table + " is missing (" + ex.getMostSpecificCause().getMessage() + ")");
			}
		});
		return problems;
	}

}
