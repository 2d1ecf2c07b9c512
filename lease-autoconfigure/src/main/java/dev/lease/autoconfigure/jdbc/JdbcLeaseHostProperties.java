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

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.init.DatabaseInitializationProperties;

import dev.lease.host.jdbc.JdbcLeaseHost;

/**
 * Configuration properties for the JDBC lease host. The inherited {@code schema},
 * {@code platform}, {@code initialize-schema} and {@code continue-on-error} properties
 * control how its tables are created.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@ConfigurationProperties("lease.jdbc")
public class JdbcLeaseHostProperties extends DatabaseInitializationProperties {

	/**
	 * Prefix of the host's two tables, KEYS and WAITERS: letters, digits and underscores,
	 * not starting with a digit, at most 48 characters.
	 */
	private String tablePrefix = "LEASE_";

	/**
	 * Whether to wake waiters with PostgreSQL LISTEN/NOTIFY over one connection of their
	 * own, opened outside the application's pool (see listen-url); when off, or on other
	 * databases, waiters poll with a short bounded backoff.
	 */
	private boolean notifications = true;

	/**
	 * Whether to check at start-up that the host's tables exist with every column of its
	 * schema script, failing start-up with the fix when they do not. A database that does
	 * not answer at start-up is not judged.
	 */
	private boolean checkSchema = true;

	/**
	 * JDBC URL of the host's own connections, opened outside the application's pool: the
	 * one LISTEN connection and the one interrupted waiters withdraw on. Not needed with
	 * a Hikari pool configured with a JDBC URL, whose settings are used; with another
	 * pool, when not set, the LISTEN connection is borrowed from the pool for as long as
	 * the host runs and withdrawals borrow one each.
	 */
	private @Nullable String listenUrl;

	/**
	 * User of the LISTEN connection opened with listen-url.
	 */
	private @Nullable String listenUsername;

	/**
	 * Password of the LISTEN connection opened with listen-url.
	 */
	private @Nullable String listenPassword;

	/**
	 * How often the host removes passed grants with nobody queued, and other rows no
	 * question needs, on a thread of its own: such a row is gone at most this long (plus
	 * one clean-up's time) after its instant, with no call at all. Zero runs no thread:
	 * takes clean up as they go, at most once a second.
	 */
	private Duration cleanupInterval = JdbcLeaseHost.DEFAULT_CLEANUP_INTERVAL;

	public String getTablePrefix() {
		return this.tablePrefix;
	}

	public void setTablePrefix(String tablePrefix) {
		this.tablePrefix = tablePrefix;
	}

	public boolean isNotifications() {
		return this.notifications;
	}

	public void setNotifications(boolean notifications) {
		this.notifications = notifications;
	}

	public boolean isCheckSchema() {
		return this.checkSchema;
	}

	public void setCheckSchema(boolean checkSchema) {
		this.checkSchema = checkSchema;
	}

	public Duration getCleanupInterval() {
		return this.cleanupInterval;
	}

	public void setCleanupInterval(Duration cleanupInterval) {
		this.cleanupInterval = cleanupInterval;
	}

	public @Nullable String getListenUrl() {
		return this.listenUrl;
	}

	public void setListenUrl(@Nullable String listenUrl) {
		this.listenUrl = listenUrl;
	}

	public @Nullable String getListenUsername() {
		return this.listenUsername;
	}

	public void setListenUsername(@Nullable String listenUsername) {
		this.listenUsername = listenUsername;
	}

	public @Nullable String getListenPassword() {
		return this.listenPassword;
	}

	public void setListenPassword(@Nullable String listenPassword) {
		this.listenPassword = listenPassword;
	}

	@Override
	public String getDefaultSchemaLocation() {
		return JdbcLeaseHost.SCHEMA_LOCATION;
	}

}
