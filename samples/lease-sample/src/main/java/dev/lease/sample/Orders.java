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

import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

import dev.lease.annotation.Fenced;
import dev.lease.fence.jdbc.FencedJdbcTemplate;

/**
 * The orders table. Every write is fenced: it lands only if the orders database's own
 * clock still stands at or before the fence minted from the caller's lease.
 *
 * @author Lease contributors
 */
@Repository
public class Orders {

	static final String PARTY = "orders-db";

	private final FencedJdbcTemplate writes;

	private final JdbcTemplate reads;

	Orders(FencedJdbcTemplate writes, JdbcTemplate reads) {
		this.writes = writes;
		this.reads = reads;
	}

	/**
	 * Open an order, or reopen it.
	 * @param id the order
	 */
	public void open(String id) {
		this.reads.update("delete from sample_orders where id = ?", id);
		this.reads.update("insert into sample_orders (id, state) values (?, 'OPEN')", id);
	}

	/**
	 * Mark an order settled by a holder; refused with {@code FenceExpiredException} when
	 * the caller's fence has passed on the database's clock.
	 * @param id the order
	 * @param settledBy who settled it
	 */
	@Fenced(PARTY)
	public void settle(String id, String settledBy) {
		this.writes.update("update sample_orders set state = 'SETTLED', settled_by = ? where id = ?", settledBy, id);
	}

	/**
	 * Read who settled an order.
	 * @param id the order
	 * @return who settled it, if anyone did
	 */
	public Optional<String> settledBy(String id) {
		return Optional.ofNullable(
				this.reads.queryForObject("select settled_by from sample_orders where id = ?", String.class, id));
	}

}
