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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.stereotype.Component;

import dev.lease.FenceExpiredException;

/**
 * Plays three short scenes at start-up and logs them: two settlements racing for one
 * order, a scheduled job on two schedulers, and a holder that pauses past its term and
 * whose late write the fenced repository refuses.
 *
 * @author Lease contributors
 */
@Component
class Demonstration implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(Demonstration.class);

	private final Settlement settlement;

	private final Reports reports;

	private final Orders orders;

	private final Environment environment;

	private final DemonstrationReport report = new DemonstrationReport();

	Demonstration(Settlement settlement, Reports reports, Orders orders, Environment environment) {
		this.settlement = settlement;
		this.reports = reports;
		this.orders = orders;
		this.environment = environment;
	}

	DemonstrationReport report() {
		return this.report;
	}

	@Override
	public void run(ApplicationArguments args) throws Exception {
		twoSettlementsRace();
		oneOfTwoSchedulersRuns();
		lateWriteIsRefused();
		String port = this.environment.getProperty("local.server.port", "8080");
		logger.info("Demonstration done. Try:\n  curl localhost:" + port + "/actuator/leases\n  curl localhost:" + port
				+ "/actuator/health\n  curl localhost:" + port + "/actuator/metrics/lease.take");
	}

	private void twoSettlementsRace() throws Exception {
		logger.info("Scene 1: two clerks settle order:1 at the same moment; the second waits for the first");
		this.orders.open("1");
		long started = System.nanoTime();
		CompletableFuture<Duration> alice = settleTimed("1", "alice", started);
		CompletableFuture<Duration> bob = settleTimed("1", "bob", started);
		List<Duration> took = List.of(alice.get(), bob.get());
		Duration longer = (took.get(0).compareTo(took.get(1)) > 0) ? took.get(0) : took.get(1);
		this.report.settlementsFinished(2, longer);
		logger.info("Scene 1: both settled, one after the other: the later finished after " + longer.toMillis()
				+ " ms; order:1 last settled by " + this.orders.settledBy("1").orElse("nobody"));
	}

	private CompletableFuture<Duration> settleTimed(String orderId, String clerk, long started) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				this.settlement.settle(orderId, clerk, Duration.ofMillis(600));
				return Duration.ofNanos(System.nanoTime() - started);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
	}

	private void oneOfTwoSchedulersRuns() throws Exception {
		logger.info("Scene 2: two schedulers fire the daily report at the same moment; one runs it, one skips");
		CountDownLatch fired = new CountDownLatch(2);
		CountDownLatch done = new CountDownLatch(2);
		for (String name : List.of("scheduler-a", "scheduler-b")) {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setThreadNamePrefix(name + "-");
			scheduler.initialize();
			scheduler.execute(() -> {
				try {
					fired.countDown();
					fired.await();
					Boolean generated = this.reports.generate(name);
					this.report.reportRun(generated != null);
					logger.info(name + ((generated != null) ? " generated the report"
							: " skipped: another scheduler holds report:daily"));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					done.countDown();
					scheduler.shutdown();
				}
			});
		}
		done.await();
	}

	private void lateWriteIsRefused() throws Exception {
		logger.info("Scene 3: carol settles order:2 but pauses past her 2 s term; dave takes the order at the instant");
		this.orders.open("2");
		CompletableFuture<Void> carol = CompletableFuture.runAsync(() -> {
			try {
				this.settlement.settle("2", "carol", Duration.ofMillis(2600));
			}
			catch (FenceExpiredException ex) {
				this.report.lateWriteRefused();
				logger.info("carol's late write was refused by the orders database: " + ex.getMessage());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		Thread.sleep(200);
		this.settlement.settle("2", "dave", Duration.ofMillis(100));
		carol.get();
		String settledBy = this.orders.settledBy("2").orElse("nobody");
		this.report.orderTwoSettledBy(settledBy);
		logger.info("Scene 3: order:2 is settled by " + settledBy + "; nothing of carol's late write landed");
	}

}
