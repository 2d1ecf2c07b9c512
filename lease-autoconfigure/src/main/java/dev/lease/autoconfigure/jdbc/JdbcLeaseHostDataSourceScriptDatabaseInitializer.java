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
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.jdbc.init.PropertiesBasedDataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

import dev.lease.host.jdbc.JdbcLeaseHost;
import dev.lease.host.jdbc.JdbcLeaseSchema;

/**
 * {@link DataSourceScriptDatabaseInitializer} for the JDBC lease host's tables: it runs
 * the platform's versioned migrations ({@link JdbcLeaseSchema}) in version order, each
 * safe to run again, so that tables an earlier release created are brought up to date.
 * MariaDB uses the {@code mysql} scripts. With a table prefix other than
 * {@value JdbcLeaseHost#DEFAULT_TABLE_PREFIX}, the table, key and index names of the
 * scripts are given that prefix. May be registered as a bean to override
 * auto-configuration. When the database does not answer as the initializer is built, it
 * initializes nothing and logs a warning.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class JdbcLeaseHostDataSourceScriptDatabaseInitializer
		extends PropertiesBasedDataSourceScriptDatabaseInitializer<JdbcLeaseHostProperties> {

	private static final Log logger = LogFactory.getLog(JdbcLeaseHostDataSourceScriptDatabaseInitializer.class);

	private static final Pattern TABLE_NAMES = Pattern
		.compile("\\b" + JdbcLeaseHost.DEFAULT_TABLE_PREFIX + "(KEYS|WAITERS|PROTOCOL)");

	private final String tablePrefix;

	/**
	 * Create an initializer of the given data source.
	 * @param dataSource the data source of the JDBC lease host
	 * @param properties the JDBC lease host properties
	 */
	public JdbcLeaseHostDataSourceScriptDatabaseInitializer(DataSource dataSource, JdbcLeaseHostProperties properties) {
		super(dataSource, unlessUnreachable(dataSource, properties), Map.of(DatabaseDriver.MARIADB, "mysql"));
		this.tablePrefix = JdbcLeaseHost.requireTablePrefix(properties.getTablePrefix());
	}

	// Boot resolves the scripts' platform from the database as the initializer is
	// built ("Failed to determine DatabaseDriver" when it does not answer): a database
	// that does not answer now is left alone, so that the application starts and reports
	// the host down; the tables are not created later.
	private static JdbcLeaseHostProperties unlessUnreachable(DataSource dataSource,
			JdbcLeaseHostProperties properties) {
		if (properties.getInitializeSchema() == DatabaseInitializationMode.NEVER) {
			return properties;
		}
		try (Connection connection = dataSource.getConnection()) {
			return properties;
		}
		catch (SQLException ex) {
			logger.warn("The JDBC lease host's tables were not initialized (lease.jdbc.initialize-schema="
					+ properties.getInitializeSchema().name().toLowerCase(Locale.ROOT)
					+ "): the database did not answer at start-up, and they are not created later. Restart the"
					+ " application once the database answers, or run the schema scripts yourself: " + ex);
			JdbcLeaseHostProperties none = new JdbcLeaseHostProperties();
			// no script is run; Boot still resolves a location, and fails a pattern
			// over a folder that is missing
			none.setSchema("optional:classpath:dev/lease/host/jdbc/none.sql");
			none.setPlatform("none");
			none.setInitializeSchema(DatabaseInitializationMode.NEVER);
			return none;
		}
	}

	// Boot orders the scripts of a pattern by name, which would run V10 before V2.
	@Override
	protected void runScripts(Scripts scripts) {
		Charset encoding = (scripts.getEncoding() != null) ? scripts.getEncoding() : StandardCharsets.UTF_8;
		List<Resource> ordered = new ArrayList<>();
		scripts.forEach(ordered::add);
		ordered.sort(JdbcLeaseSchema.VERSION_ORDER);
		if (!JdbcLeaseHost.DEFAULT_TABLE_PREFIX.equals(this.tablePrefix)) {
			ordered.replaceAll((script) -> new ByteArrayResource(
					prefixed(read(script, encoding), this.tablePrefix).getBytes(encoding), script.getDescription()));
		}
		super.runScripts(new Scripts(ordered).continueOnError(scripts.isContinueOnError())
			.separator(scripts.getSeparator())
			.encoding(scripts.getEncoding()));
	}

	// The scripts' text with the given table prefix on the table, key and index names,
	// as the initializer runs them and JdbcLeaseSchemaCheck expects them.
	static String prefixed(String sql, String tablePrefix) {
		return TABLE_NAMES.matcher(sql).replaceAll(Matcher.quoteReplacement(tablePrefix) + "$1");
	}

	static String read(Resource script, Charset encoding) {
		try {
			return script.getContentAsString(encoding);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read " + script.getDescription(), ex);
		}
	}

}
