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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The JDBC lease host's schema scripts: the versioned migrations
 * {@code V<version>__<name>.sql} of each platform at
 * {@link JdbcLeaseHost#SCHEMA_LOCATION}, the one copy of its tables. Run in version order
 * they create the tables, or bring tables an earlier release created up to date; each may
 * be run again, so they are safe to run at every start. A migration tool runs them as
 * they are.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public final class JdbcLeaseSchema {

	/**
	 * Orders scripts by the version in their name, {@code V2__} before {@code V10__};
	 * scripts without one come last, in the order they had.
	 */
	public static final Comparator<Resource> VERSION_ORDER = Comparator.comparingInt(JdbcLeaseSchema::version);

	private static final Pattern VERSION = Pattern.compile("^V(\\d{1,9})__");

	private JdbcLeaseSchema() {
	}

	/**
	 * Return the schema scripts of the given platform, in version order.
	 * @param platform the platform id Spring Boot uses: {@code postgresql}, {@code mysql}
	 * (MySQL and MariaDB) or {@code h2}
	 * @return the scripts, none for a platform the host does not support
	 */
	public static List<Resource> scripts(String platform) {
		String location = JdbcLeaseHost.SCHEMA_LOCATION.replace("@@platform@@", platform);
		try {
			Resource[] scripts = new PathMatchingResourcePatternResolver(JdbcLeaseSchema.class.getClassLoader())
				.getResources(location);
			return Arrays.stream(scripts).filter(Resource::exists).sorted(VERSION_ORDER).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not list the schema scripts at " + location, ex);
		}
	}

	private static int version(Resource script) {
		String name = (script.getFilename() != null) ? script.getFilename() : "";
		Matcher version = VERSION.matcher(name);
		return version.find() ? Integer.parseInt(version.group(1)) : Integer.MAX_VALUE;
	}

}
