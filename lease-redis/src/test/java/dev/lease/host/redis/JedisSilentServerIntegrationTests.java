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

package dev.lease.host.redis;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * {@link RedisSilentServerIntegrationTests} through Jedis as Spring Boot configures it by
 * default: a pool of eight that lends without a time limit, and a read timeout of two
 * seconds.
 *
 * @author Lease contributors
 */
class JedisSilentServerIntegrationTests extends RedisSilentServerIntegrationTests {

	@Override
	RedisConnectionFactory proxiedFactory(RedisStandaloneConfiguration configuration) {
		JedisConnectionFactory factory = new JedisConnectionFactory(configuration,
				JedisClientConfiguration.builder().usePooling().build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
