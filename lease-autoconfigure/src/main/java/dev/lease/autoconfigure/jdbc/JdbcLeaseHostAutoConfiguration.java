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

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.autoconfigure.init.OnDatabaseInitializationCondition;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.StringUtils;

import dev.lease.LeaseHost;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.LeaseConfigurationException;
import dev.lease.autoconfigure.LeaseHostThreads;
import dev.lease.host.IncompatibleStoreProtocolException;
import dev.lease.host.jdbc.JdbcLeaseHost;

/**
 * {@link EnableAutoConfiguration Auto-configuration} for the {@link JdbcLeaseHost}:
 * chosen by {@code lease.host=jdbc}, or detected after Redis when a {@link DataSource} is
 * available and no {@link LeaseHost} bean is defined. Creates the host's tables on an
 * embedded database, or as {@code lease.jdbc.initialize-schema} says.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
// Types outside this jar are named, never class literals (see
// RedisLeaseHostAutoConfiguration).
@AutoConfiguration(before = LeaseAutoConfiguration.class,
		afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"dev.lease.autoconfigure.redis.RedisLeaseHostAutoConfiguration" })
@ConditionalOnClass(name = { "org.springframework.jdbc.core.JdbcTemplate",
		"org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer" })
@ConditionalOnBean(type = "javax.sql.DataSource")
@ConditionalOnProperty(name = "lease.host", havingValue = "jdbc", matchIfMissing = true)
@EnableConfigurationProperties(JdbcLeaseHostProperties.class)
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class JdbcLeaseHostAutoConfiguration {

	private static final Log logger = LogFactory.getLog(JdbcLeaseHostAutoConfiguration.class);

	// Declared before leaseHost(): registered only when no LeaseHost bean was, so that no
	// tables are created for a host the application does not use.
	@Bean
	@ConditionalOnMissingBean({ JdbcLeaseHostDataSourceScriptDatabaseInitializer.class, LeaseHost.class })
	@Conditional(OnJdbcLeaseHostInitializationCondition.class)
	JdbcLeaseHostDataSourceScriptDatabaseInitializer jdbcLeaseHostDataSourceScriptDatabaseInitializer(
			DataSource dataSource, JdbcLeaseHostProperties properties) {
		return new JdbcLeaseHostDataSourceScriptDatabaseInitializer(dataSource, validTablePrefix(properties));
	}

	@Bean
	@ConditionalOnMissingBean(LeaseHost.class)
	JdbcLeaseHost leaseHost(DataSource dataSource, JdbcLeaseHostProperties properties, Environment environment,
			ObjectProvider<JdbcLeaseHostDataSourceScriptDatabaseInitializer> initializer,
			ObjectProvider<LeaseHostThreads> threads, ObjectProvider<JdbcLeaseHostBuilderCustomizer> customizers) {
		// the tables first, when this application creates them
		initializer.getIfAvailable();
		if (!environment.containsProperty("lease.host") && EmbeddedDatabaseConnection.isEmbedded(dataSource)) {
			logger.warn("Leases are hosted in an embedded database, detected as the JDBC lease host: it is not"
					+ " shared across instances, so a lease excludes callers in this JVM only. Point the"
					+ " DataSource at a shared database, or set lease.host (jdbc, redis or memory) to choose");
		}
		// closed by the context: its destroy method, close(), is inferred
		JdbcLeaseHost.Builder builder = JdbcLeaseHost.builder(dataSource)
			.tablePrefix(validTablePrefix(properties).getTablePrefix())
			.notifications(properties.isNotifications());
		LeaseConfigurationException.applyProperty("lease.jdbc.cleanup-interval", properties.getCleanupInterval(),
				"a positive duration such as '5s', or 0 to clean up only as takes go",
				() -> builder.cleanupInterval(properties.getCleanupInterval()));
		if (StringUtils.hasText(properties.getListenUrl())) {
			builder.listenDataSource(new DriverManagerDataSource(properties.getListenUrl(),
					properties.getListenUsername(), properties.getListenPassword()));
		}
		threads.ifAvailable((given) -> given.applyTo(builder));
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		JdbcLeaseHost host;
		try {
			host = builder.build();
		}
		catch (IncompatibleStoreProtocolException ex) {
			throw new LeaseConfigurationException(ex.description(), ex.action(), ex);
		}
		if (properties.isCheckSchema()) {
			try {
				JdbcLeaseSchemaCheck.check(dataSource, host);
			}
			catch (RuntimeException ex) {
				// not a bean yet: the context would not close it
				host.close();
				throw ex;
			}
		}
		return host;
	}

	private static JdbcLeaseHostProperties validTablePrefix(JdbcLeaseHostProperties properties) {
		LeaseConfigurationException.applyProperty("lease.jdbc.table-prefix", properties.getTablePrefix(),
				"an SQL identifier of letters, digits and underscores, such as 'ORDERS_LEASE_'",
				() -> JdbcLeaseHost.requireTablePrefix(properties.getTablePrefix()));
		return properties;
	}

	static class OnJdbcLeaseHostInitializationCondition extends OnDatabaseInitializationCondition {

		OnJdbcLeaseHostInitializationCondition() {
			super("Lease JDBC host", "lease.jdbc.initialize-schema");
		}

	}

}
