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

package dev.lease.autoconfigure.fence;

import java.util.UUID;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import dev.lease.FenceExpiredException;
import dev.lease.annotation.Fenced;
import dev.lease.annotation.Leased;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.jdbc.FencedJdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that {@code lease.fence.refused} counts each refusal of a fenced party exactly
 * once, however the party was built: a {@link FencedJdbcTemplate} made with
 * {@code new FencedJdbcTemplate(dataSource, party)}, as the README shows it, reports to
 * the application's listener through the fence {@code @Fenced} binds; one made with the
 * listener reports to that listener alone.
 *
 * @author Lease contributors
 */
class FenceRefusalCountingTests {

	private static final String PARTY = "orders-db";

	// An allowance longer than the term: the fence has passed before the write starts, as
	// it has for a holder that paused past it.
	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LeaseAutoConfiguration.class,
				InMemoryLeaseHostAutoConfiguration.class, FenceAutoConfiguration.class))
		.withPropertyValues("lease.host=memory", "lease.fences." + PARTY + ".allowance=1h");

	@Test
	@DisplayName("Fence 3: a refusal by new FencedJdbcTemplate(dataSource, party) inside @Leased/@Fenced "
			+ "counts lease.fence.refused{party} once")
	void refusalByATemplateBuiltWithoutTheListenerIsCountedOnce() {
		this.contextRunner.withUserConfiguration(OrdersConfiguration.class, TemplateWithoutListener.class)
			.run((context) -> assertRefusedAndCountedOnce(context));
	}

	@Test
	@DisplayName("Fence 3: a refusal by a template built with the listener bean counts once, never twice")
	void refusalByATemplateBuiltWithTheListenerIsCountedOnce() {
		this.contextRunner.withUserConfiguration(OrdersConfiguration.class, TemplateWithListener.class)
			.run((context) -> assertRefusedAndCountedOnce(context));
	}

	@Test
	@DisplayName("Fence 3: an admitted write counts nothing")
	void admittedWriteCountsNothing() {
		this.contextRunner.withUserConfiguration(OrdersConfiguration.class, TemplateWithoutListener.class)
			.withPropertyValues("lease.fences." + PARTY + ".allowance=100ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				String order = UUID.randomUUID().toString();
				context.getBean(Settlement.class).settle(order);
				assertThat(settled(context, order)).isEqualTo(1);
				assertThat(context.getBean(SimpleMeterRegistry.class).find("lease.fence.refused").counter()).isNull();
			});
	}

	private static void assertRefusedAndCountedOnce(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		String order = UUID.randomUUID().toString();
		assertThatExceptionOfType(FenceExpiredException.class)
			.isThrownBy(() -> context.getBean(Settlement.class).settle(order))
			.satisfies((refused) -> assertThat(refused.getParty()).isEqualTo(PARTY));
		assertThat(settled(context, order)).isZero();
		Counter refused = context.getBean(SimpleMeterRegistry.class)
			.find("lease.fence.refused")
			.tag("party", PARTY)
			.counter();
		assertThat(refused).as("lease.fence.refused{party=%s}", PARTY).isNotNull();
		assertThat(refused.count()).isEqualTo(1);
	}

	private static int settled(AssertableApplicationContext context, String order) {
		Integer count = new JdbcTemplate(context.getBean(DataSource.class))
			.queryForObject("SELECT COUNT(*) FROM orders WHERE id = ?", Integer.class, order);
		return (count != null) ? count : -1;
	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersConfiguration {

		@Bean
		SimpleMeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		DataSource ordersDataSource() {
			DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
					"jdbc:h2:mem:orders-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
			new JdbcTemplate(dataSource).execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY)");
			return dataSource;
		}

		@Bean
		Settlement settlement(OrderRepository orders) {
			return new Settlement(orders);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TemplateWithoutListener {

		@Bean
		OrderRepository orderRepository(DataSource dataSource) {
			return new OrderRepository(new FencedJdbcTemplate(dataSource, PARTY));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TemplateWithListener {

		@Bean
		OrderRepository orderRepository(DataSource dataSource, ObjectProvider<FenceRefusalListener> listener) {
			return new OrderRepository(new FencedJdbcTemplate(dataSource, PARTY, listener.getObject()));
		}

	}

	static class Settlement {

		private final OrderRepository orders;

		Settlement(OrderRepository orders) {
			this.orders = orders;
		}

		@Leased(key = "#order", duration = "10s")
		void settle(String order) {
			this.orders.save(order);
		}

	}

	static class OrderRepository {

		private final FencedJdbcTemplate writes;

		OrderRepository(FencedJdbcTemplate writes) {
			this.writes = writes;
		}

		@Fenced(PARTY)
		void save(String order) {
			this.writes.update("INSERT INTO orders (id) VALUES (?)", order);
		}

	}

}
