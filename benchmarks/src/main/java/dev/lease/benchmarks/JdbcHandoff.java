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

package dev.lease.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.host.jdbc.JdbcLeaseHost;

/**
 * The JDBC handoff: the time from a release to the waiter's take returning, on the same
 * host and on another one (woken by {@code LISTEN/NOTIFY} on PostgreSQL, by the key's
 * poller on MariaDB and MySQL), and what one handoff costs: the round trips at the driver
 * on each side, their time at the client, and how the latency splits between the release
 * call and the waiter's wake-up.
 *
 * @author Lease contributors
 */
final class JdbcHandoff {

	private static final Duration TERM = Duration.ofSeconds(30);

	private static final int HANDOFFS = 500;

	private static final int WARM_UP = 50;

	private static final int COSTED = 200;

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private JdbcHandoff() {
	}

	/**
	 * Add the handoff rows of a MariaDB or MySQL server whose schema is in place.
	 * @param table the table
	 * @param url the server
	 * @throws Exception if a handoff fails
	 */
	static void mariadbRows(BenchmarkTable table, String url) throws Exception {
		try (HikariDataSource pool = pool(url);
				HikariDataSource otherPool = pool(url);
				HikariDataSource probe = pool(url);
				JdbcLeaseHost host = new JdbcLeaseHost(pool);
				JdbcLeaseHost other = new JdbcLeaseHost(otherPool)) {
			JdbcTemplate jdbc = new JdbcTemplate(probe);
			add(table, "jdbc handoff (MariaDB), same instance", run(host, host, jdbc, HANDOFFS, List.of()).latencies);
			add(table, "jdbc handoff (MariaDB), other instance (the key's poller)",
					run(host, other, jdbc, HANDOFFS, List.of()).latencies);
		}
	}

	/**
	 * Print the cost of one handoff on a server whose schema is in place, on the same
	 * host and on another.
	 * @param out where to print
	 * @param database the server's name
	 * @param url the server
	 * @param otherWoken how the other host's waiter is woken
	 * @throws Exception if a handoff fails
	 */
	static void cost(PrintStream out, String database, String url, String otherWoken) throws Exception {
		try (HikariDataSource pool = pool(url);
				HikariDataSource otherPool = pool(url);
				HikariDataSource probe = pool(url)) {
			HandoffStatements log = new HandoffStatements(pool);
			HandoffStatements otherLog = new HandoffStatements(otherPool);
			JdbcTemplate jdbc = new JdbcTemplate(probe);
			double roundTrip = roundTripMicros(jdbc);
			try (JdbcLeaseHost host = new JdbcLeaseHost(log.dataSource());
					JdbcLeaseHost other = new JdbcLeaseHost(otherLog.dataSource())) {
				print(out, database + ", same instance", roundTrip, run(host, host, jdbc, COSTED, List.of(log)));
				print(out, database + ", other instance (" + otherWoken + ")", roundTrip,
						run(host, other, jdbc, COSTED, List.of(log, otherLog)));
			}
		}
	}

	// Release on one host while a waiter stands on the other: the time from the release
	// call to the waiter's take returning, after a warm-up.
	private static Run run(JdbcLeaseHost releasing, JdbcLeaseHost waiting, JdbcTemplate probe, int handoffs,
			List<HandoffStatements> logs) throws Exception {
		Run run = new Run(handoffs);
		LeaseHolder holder = LeaseHolder.of("bench:holder");
		LeaseHolder waiter = LeaseHolder.of("bench:waiter");
		for (int i = -WARM_UP; i < handoffs; i++) {
			LeaseKey key = LeaseKey.of("bench:handoff:" + System.nanoTime() + ":" + i);
			releasing.tryTake(key, holder, TERM);
			long[] returned = new long[1];
			@Nullable Thread[] waiterThread = new Thread[1];
			CompletableFuture<Void> take = CompletableFuture.runAsync(() -> {
				waiterThread[0] = Thread.currentThread();
				try {
					waiting.take(key, waiter, TERM);
					returned[0] = System.nanoTime();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			// a take that failed never queues: stop spinning so that take.get reports it
			while (!take.isDone() && probe.queryForObject("SELECT COUNT(*) FROM LEASE_WAITERS WHERE LEASE_KEY = ?",
					Integer.class, (Object) key.bytes()) == 0) {
				Thread.onSpinWait();
			}
			// The row is visible before the waiter has its commit's answer: start once it
			// sleeps, so that its own entry is not counted as the handoff's.
			while (!take.isDone() && !asleep(waiterThread[0])) {
				Thread.onSpinWait();
			}
			logs.forEach(HandoffStatements::start);
			long cpu = THREADS.getCurrentThreadCpuTime();
			long released = System.nanoTime();
			releasing.release(key, holder);
			long releaseReturned = System.nanoTime();
			cpu = THREADS.getCurrentThreadCpuTime() - cpu;
			take.get(30, TimeUnit.SECONDS);
			List<HandoffStatements.Entry> entries = new ArrayList<>();
			logs.forEach((log) -> entries.addAll(log.stop()));
			if (i >= 0) {
				run.add(i, released, releaseReturned, returned[0], cpu, Thread.currentThread(), waiterThread[0],
						entries);
			}
			waiting.release(key, waiter);
		}
		return run;
	}

	private static boolean asleep(@Nullable Thread thread) {
		Thread.State state = (thread != null) ? thread.getState() : Thread.State.RUNNABLE;
		return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
	}

	private static void print(PrintStream out, String scenario, double roundTripMicros, Run run) {
		int n = run.latencies.length;
		out.println();
		out.println("handoff cost, " + scenario + ": " + n + " handoffs, round trips counted at the driver"
				+ " from the release call to the waiter's take returning; client time per round trip;"
				+ String.format(Locale.ROOT, " SELECT 1 round trip p50 %.0f µs on the same server", roundTripMicros));
		out.println("| side | round trip | per handoff | client µs p50 | client µs mean | client µs p99 |");
		out.println("|---|---|---:|---:|---:|---:|");
		double perHandoff = 0;
		for (Map.Entry<String, List<Long>> row : run.byStatement.entrySet()) {
			long[] nanos = row.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
			perHandoff += (double) nanos.length / n;
			out.println("| " + row.getKey().replace(" @ ", " | ") + " | " + number((double) nanos.length / n) + " | "
					+ micros(percentile(nanos, 0.50)) + " | " + micros((long) Arrays.stream(nanos).average().orElse(0))
					+ " | " + micros(percentile(nanos, 0.99)) + " |");
		}
		out.println("| all sides | all | " + number(perHandoff) + " | | | |");
		out.println("| release call (releaser) | time, CPU of the releasing thread | | "
				+ micros(percentile(run.releaseCalls, 0.50)) + " (CPU " + micros(percentile(run.releaseCpu, 0.50))
				+ ") | | " + micros(percentile(run.releaseCalls, 0.99)) + " (CPU "
				+ micros(percentile(run.releaseCpu, 0.99)) + ") |");
		out.println("| release returned → take returned | the waiter's wake-up | | "
				+ micros(percentile(run.afterRelease, 0.50)) + " | | " + micros(percentile(run.afterRelease, 0.99))
				+ " |");
		out.println("| release call → take returned | the handoff, logged | | "
				+ micros(percentile(run.latencies, 0.50)) + " | | " + micros(percentile(run.latencies, 0.99)) + " |");
	}

	private static double roundTripMicros(JdbcTemplate jdbc) {
		long[] nanos = new long[300];
		for (int i = -100; i < nanos.length; i++) {
			long start = System.nanoTime();
			jdbc.queryForObject("SELECT 1", Integer.class);
			if (i >= 0) {
				nanos[i] = System.nanoTime() - start;
			}
		}
		Arrays.sort(nanos);
		return nanos[nanos.length / 2] / 1000.0;
	}

	private static void add(BenchmarkTable table, String name, long[] latencies) {
		table.add(name + ", p50", "ms", percentile(latencies, 0.50) / 1e6, Double.NaN);
		table.add(name + ", p99", "ms", percentile(latencies, 0.99) / 1e6, Double.NaN);
	}

	private static long percentile(long[] values, double rank) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[(int) Math.ceil(sorted.length * rank) - 1];
	}

	private static String micros(long nanos) {
		return String.format(Locale.ROOT, "%.0f", nanos / 1000.0);
	}

	private static String number(double value) {
		return String.format(Locale.ROOT, "%.2f", value);
	}

	static HikariDataSource pool(String url) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(10);
		return new HikariDataSource(config);
	}

	/**
	 * The figures of one series of handoffs.
	 */
	private static final class Run {

		final long[] latencies;

		final long[] releaseCalls;

		final long[] releaseCpu;

		final long[] afterRelease;

		// "side @ round trip" to the client time of each, in order of first sight.
		final Map<String, List<Long>> byStatement = new LinkedHashMap<>();

		Run(int handoffs) {
			this.latencies = new long[handoffs];
			this.releaseCalls = new long[handoffs];
			this.releaseCpu = new long[handoffs];
			this.afterRelease = new long[handoffs];
		}

		void add(int i, long released, long releaseReturned, long takeReturned, long cpu, Thread releaser,
				@Nullable Thread waiter, List<HandoffStatements.Entry> entries) {
			this.latencies[i] = takeReturned - released;
			this.releaseCalls[i] = releaseReturned - released;
			this.releaseCpu[i] = cpu;
			this.afterRelease[i] = takeReturned - releaseReturned;
			for (HandoffStatements.Entry entry : entries) {
				String side = (entry.thread() == releaser) ? "releaser (in the release call)"
						: (entry.thread() == waiter)
								? ((entry.startNanos() < takeReturned) ? "waiter (before its take returned)"
										: "waiter (after its take returned)")
								: "other thread (" + entry.thread().getName().replaceAll("[0-9]+$", "") + ")";
				this.byStatement.computeIfAbsent(side + " @ " + entry.label(), (k) -> new ArrayList<>())
					.add(entry.nanos());
			}
		}

	}

}
