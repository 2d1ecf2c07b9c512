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

package dev.lease.autoconfigure.redis;

import dev.lease.host.redis.RedisLeaseHost;

/**
 * Callback to customize the {@link RedisLeaseHost.Builder} of the auto-configured host,
 * after the properties and the application's threads are applied and before the host is
 * built. Beans of this type are applied in their order.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@FunctionalInterface
public interface RedisLeaseHostBuilderCustomizer {

	/**
	 * Customize the builder.
	 * @param builder the builder to customize
	 */
	void customize(RedisLeaseHost.Builder builder);

}
