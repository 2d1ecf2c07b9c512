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

package dev.lease.autoconfigure;

/**
 * Thrown at start-up on a Spring Boot version the lease starter does not support; its
 * report names the version found, the versions supported, and what to change.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class UnsupportedSpringBootException extends LeaseConfigurationException {

	UnsupportedSpringBootException(String version, String supported) {
		super("The lease starter does not support Spring Boot " + version + "; it needs " + supported
				+ ". Its leases would not be hosted where you expect",
				"Upgrade the application to " + supported + ", or remove dev.lease:lease-spring-boot-starter (see the"
						+ " compatibility table in the lease starter's README)");
	}

}
