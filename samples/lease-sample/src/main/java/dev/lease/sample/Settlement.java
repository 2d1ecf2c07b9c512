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

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Service;

import dev.lease.annotation.Leased;

/**
 * Settles orders, one settlement per order at a time, under a lease on the order.
 *
 * @author Lease contributors
 */
@Service
public class Settlement {

	private static final Log logger = LogFactory.getLog(Settlement.class);

	private final Orders orders;

	Settlement(Orders orders) {
		this.orders = orders;
	}

	/**
	 * Settle an order: waits for the order's lease, at most the term of whoever holds it.
	 * @param orderId the order
	 * @param clerk who settles it
	 * @param work how long the settlement takes
	 * @throws InterruptedException if interrupted while working
	 */
	@Leased(key = "'order:' + #orderId", duration = "${sample.settle-term:2s}")
	public void settle(String orderId, String clerk, Duration work) throws InterruptedException {
		logger.info(clerk + " holds order:" + orderId + " and settles it (" + work.toMillis() + " ms of work)");
		Thread.sleep(work.toMillis());
		this.orders.settle(orderId, clerk);
		logger.info(clerk + " wrote the settlement of order:" + orderId);
	}

}
