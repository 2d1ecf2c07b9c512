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

import java.nio.charset.StandardCharsets;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.io.Resource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.NonTransientDataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHostException;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseSchema;

/**
 * Checks at start-up that the JDBC lease host's tables exist with every column and index
 * its schema scripts declare, so that a missing table fails start-up with the fix instead
 * of failing every leased call later, and a missing index (tables an older release
 * created) names the migration script that adds it. The expected columns and indexes are
 * read from the scripts the jar ships for the platform, so the check follows the schema
 * without a second copy of it.
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

	private static final Pattern CREATE_INDEX = Pattern
		.compile("CREATE\\s+INDEX\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)\\s+ON\\s+(\\w+)", Pattern.CASE_INSENSITIVE);

	private static final Pattern ADD_COLUMN = Pattern.compile(
			"ALTER\\s+TABLE\\s+(\\w+)\\s+ADD\\s+COLUMN\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)",
			Pattern.CASE_INSENSITIVE);

	private static final Pattern INLINE_INDEX = Pattern.compile("^\\s*(?:INDEX|KEY)\\s+(\\w+)\\s*\\(",
			Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);

	private static final Pattern COMMENT = Pattern.compile("--[^\\n]*");

	private static final Set<String> NOT_COLUMNS = Set.of("CONSTRAINT", "PRIMARY", "UNIQUE", "KEY", "INDEX", "FOREIGN",
			"CHECK");

	private JdbcLeaseSchemaCheck() {
	}

	static void check(DataSource dataSource, JdbcLeaseHost host) {
		String location;
		List<String> problems;
		try {
			String platform = host.platform();
			location = JdbcLeaseHost.SCHEMA_LOCATION.replace("@@platform@@", platform);
			problems = problems(new JdbcTemplate(dataSource), platform, host.tablePrefix());
		}
		catch (LeaseHostException | DataAccessResourceFailureException ex) {
			logger.warn("Could not check the JDBC lease host's tables, the database did not answer; they are not"
					+ " checked later: " + ex.getMessage());
			return;
		}
		if (!problems.isEmpty()) {
			throw new LeaseConfigurationException(
					"The JDBC lease host's tables do not match its schema: " + String.join("; ", problems),
					"Set lease.jdbc.initialize-schema=always to create them, or bring tables an older release"
							+ " created up to date, at start-up; or run the scripts " + location
							+ " in version order (with the table prefix '" + host.tablePrefix() + "') against the"
							+ " database yourself, each safe to run again; or add the scripts under "
							+ location.substring(0, location.lastIndexOf('/') + 1)
							+ " to your Flyway or Liquibase migrations");
		}
	}

	// Table name (with the prefix) to its column names, upper case, from the schema
	// scripts.
	static Map<String, Set<String>> expected(String platform, String tablePrefix) {
		String sql = read(platform, tablePrefix);
		Map<String, Set<String>> tables = new LinkedHashMap<>();
		Matcher table = CREATE_TABLE.matcher(sql);
		while (table.find()) {
			tables.put(table.group(1),
					Arrays.stream(table.group(2).split(",\\s*\\n"))
						.map((line) -> line.trim().split("\\s+")[0])
						.filter((first) -> !first.isEmpty() && !NOT_COLUMNS.contains(first))
						.collect(Collectors.toCollection(TreeSet::new)));
		}
		Matcher added = ADD_COLUMN.matcher(sql);
		while (added.find()) {
			tables.computeIfAbsent(added.group(1), (name) -> new TreeSet<>()).add(added.group(2));
		}
		return tables;
	}

	// Table name (with the prefix) to the names (with the prefix) of the indexes the
	// schema scripts create on it, upper case.
	static Map<String, Set<String>> expectedIndexes(String platform, String tablePrefix) {
		String sql = read(platform, tablePrefix);
		Map<String, Set<String>> indexes = new LinkedHashMap<>();
		Matcher index = CREATE_INDEX.matcher(sql);
		while (index.find()) {
			indexes.computeIfAbsent(index.group(2), (table) -> new TreeSet<>()).add(index.group(1));
		}
		Matcher table = CREATE_TABLE.matcher(sql);
		while (table.find()) {
			Matcher inline = INLINE_INDEX.matcher(table.group(2));
			while (inline.find()) {
				indexes.computeIfAbsent(table.group(1), (name) -> new TreeSet<>()).add(inline.group(1));
			}
		}
		return indexes;
	}

	// The migration script that creates the index or table (named without the prefix), so
	// that a report names the one script that adds it.
	static String migrationCreating(String platform, String indexOrTable) {
		return migrationAdding(platform, indexOrTable)
			.orElse(JdbcLeaseHost.SCHEMA_LOCATION.replace("@@platform@@", platform));
	}

	// The migration script that creates the index or table, or adds the column to a table
	// created without it; none for a column the table was created with.
	private static Optional<String> migrationAdding(String platform, String name) {
		Pattern adds = Pattern.compile(
				"(?:\\b(?:INDEX|TABLE|ADD\\s+COLUMN)\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?)" + Pattern.quote(name) + "\\b",
				Pattern.CASE_INSENSITIVE);
		for (Resource script : JdbcLeaseSchema.scripts(platform)) {
			if (adds.matcher(read(script)).find()) {
				return Optional.of("classpath:dev/lease/host/jdbc/migration/" + platform + "/" + script.getFilename());
			}
		}
		return Optional.empty();
	}

	// The platform's scripts, in version order, as one, with the table prefix the
	// initializer gives them, upper case.
	private static String read(String platform, String tablePrefix) {
		String sql = JdbcLeaseSchema.scripts(platform)
			.stream()
			.map((script) -> read(script) + "\n")
			.collect(Collectors.joining());
		return JdbcLeaseHostDataSourceScriptDatabaseInitializer.prefixed(sql, tablePrefix).toUpperCase(Locale.ROOT);
	}

	// A script without its comments, which may hold commas and words the parsing reads.
	private static String read(Resource script) {
		return COMMENT.matcher(JdbcLeaseHostDataSourceScriptDatabaseInitializer.read(script, StandardCharsets.UTF_8))
			.replaceAll("");
	}

	private static List<String> problems(JdbcTemplate jdbc, String platform, String prefix) {
		Map<String, Set<String>> expectedIndexes = expectedIndexes(platform, prefix);
		String tablePrefix = prefix.toUpperCase(Locale.ROOT);
		List<String> problems = new ArrayList<>();
		expected(platform, prefix).forEach((table, columns) -> {
			try {
				Set<String> found = jdbc.query("SELECT * FROM " + table + " WHERE 1 = 0", (rs) -> {
					Set<String> names = new TreeSet<>();
					for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
						names.add(rs.getMetaData().getColumnLabel(i).toUpperCase(Locale.ROOT));
					}
					return names;
				});
				columns.stream()
					.filter((column) -> !found.contains(column))
					.forEach((column) -> problems.add("table " + table + " has no column " + column
							+ migrationAdding(platform, column).map((script) -> " (added by " + script + ")")
								.orElse("")));
				Set<String> indexes = new TreeSet<>(expectedIndexes.getOrDefault(table, Set.of()));
				indexes.removeAll(indexes(jdbc, table));
				for (String index : indexes) {
					String unprefixed = JdbcLeaseHost.DEFAULT_TABLE_PREFIX + index.substring(tablePrefix.length());
					problems.add("table " + table + " has no index " + index + " (added by "
							+ migrationCreating(platform, unprefixed) + ")");
				}
			}
			catch (DataAccessResourceFailureException ex) {
				throw ex;
			}
			catch (NonTransientDataAccessException ex) {
				String unprefixed = JdbcLeaseHost.DEFAULT_TABLE_PREFIX + table.substring(tablePrefix.length());
				problems.add("table " + table + " is missing (" + ex.getMostSpecificCause().getMessage()
						+ ") (added by " + migrationCreating(platform, unprefixed) + ")");
			}
		});
		return problems;
	}

	// The names of the table's indexes, upper case, as the driver's metadata gives them;
	// the table is looked up as written and in the case the database folds it to.
	private static Set<String> indexes(JdbcTemplate jdbc, String table) {
		Set<String> names = new TreeSet<>();
		jdbc.execute((ConnectionCallback<Void>) (connection) -> {
			DatabaseMetaData metaData = connection.getMetaData();
			for (String name : new LinkedHashSet<>(
					List.of(table, table.toUpperCase(Locale.ROOT), table.toLowerCase(Locale.ROOT)))) {
				try (ResultSet rs = metaData.getIndexInfo(connection.getCatalog(), connection.getSchema(), name, false,
						true)) {
					while (rs.next()) {
						String index = rs.getString("INDEX_NAME");
						if (index != null) {
							names.add(index.toUpperCase(Locale.ROOT));
						}
					}
				}
			}
			return null;
		});
		return names;
	}

}
