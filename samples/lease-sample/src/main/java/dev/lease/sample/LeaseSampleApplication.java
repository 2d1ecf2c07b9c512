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

package dev.lease.sample;

import javax.sql.DataSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import dev.lease.fence.jdbc.FencedJdbcTemplate;

/**
 * Orders being settled under leases, with a repository fenced against late writes.
 *
 * @author Lease contributors
 */
@SpringBootApplication(proxyBeanMethods = false)
public class LeaseSampleApplication {

	@Bean
	FencedJdbcTemplate ordersDatabase(DataSource dataSource) {
		return new FencedJdbcTemplate(dataSource, Orders.PARTY);
	}

	/**
	 * Start the sample.
	 * @param args the command line
	 */
	public static void main(String[] args) {
		SpringApplication.run(LeaseSampleApplication.class, args);
	}

}
