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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;

/**
 * The {@code scale} suite: a hot key with N waiters on every host ({@link HotKeyRun}),
 * and many standing grants ({@link StandingGrants}). Hosts: {@code memory}; {@code redis}
 * on a {@code redis-server} of its own; {@code postgresql} at
 * {@code LEASE_TEST_POSTGRES_URL}, else the local server; {@code mariadb} at
 * {@code LEASE_TEST_MARIADB_URL} when set. Prints each row as it ends and both tables at
 * the end; asserts nothing.
 *
 * @author Lease contributors
 */
final class ScaleBenchmarks {

	private static final String POSTGRES_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

	// One unrecorded row first, so that no row measures a cold JVM and client.
	private static final int WARM_UP_WAITERS = 100;

	private final ScaleSettings settings;

	private final PrintStream out;

	private final List<HotKeyRun.Row> hotKeyRows = new ArrayList<>();

	private final List<StandingGrants.Row> grantRows = new ArrayList<>();

	private ScaleBenchmarks(ScaleSettings settings, PrintStream out) {
		this.settings = settings;
		this.out = out;
	}

	static void run(BenchmarkTable table) {
		ScaleSettings settings = ScaleSettings.fromSystemProperties();
		System.out.println("scale: " + settings + "; waiters on " + WaiterThreads.kind());
		new ScaleBenchmarks(settings, System.out).runAll();
	}

	private void runAll() {
		for (String name : this.settings.hosts()) {
			try (ScaleStore store = open(name)) {
				if (store == null) {
					this.out.println("scale: " + name + " skipped (no URL set)");
					continue;
				}
				measure(store);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Exception ex) {
				this.out.println("scale: " + name + " failed: " + ex);
				ex.printStackTrace(this.out);
			}
		}
		printHotKeyTable();
		printGrantTable();
	}

	private void measure(ScaleStore store) throws InterruptedException, ExecutionException {
		store.clear();
		HotKeyRun.Row warmUp = HotKeyRun.run(store, this.settings, WARM_UP_WAITERS);
		this.out.println("scale warm-up (not in the table): " + hotKeyLine(warmUp));
		for (int run = 0; run < this.settings.runs(); run++) {
			for (int waiters : this.settings.waiters()) {
				store.clear();
				HotKeyRun.Row row = HotKeyRun.run(store, this.settings, waiters);
				this.hotKeyRows.add(row);
				this.out.println("scale row: " + hotKeyLine(row));
				this.out.flush();
			}
			if (this.settings.grants() > 0) {
				StandingGrants.Row row = StandingGrants.run(store, this.settings.grants());
				this.grantRows.add(row);
				this.out.println("scale grants: " + grantLine(row));
				this.out.flush();
			}
		}
	}

	private ScaleStore open(String name) throws Exception {
		return switch (name) {
			case "memory" -> new MemoryScaleStore();
			case "redis" -> new RedisScaleStore(this.settings.redisServer());
			case "postgresql" ->
				new JdbcScaleStore("postgresql", env("LEASE_TEST_POSTGRES_URL", POSTGRES_URL), this.settings.pool());
			case "mariadb" -> {
				String url = env("LEASE_TEST_MARIADB_URL", "");
				yield url.isEmpty() ? null : new JdbcScaleStore("mariadb", url, this.settings.pool());
			}
			default -> throw new IllegalArgumentException("Unknown scale host '" + name + "'");
		};
	}

	private void printHotKeyTable() {
		this.out.println();
		this.out.println("| host | waiters | queued (setup s) | handoffs measured (window s) | ms per handoff"
				+ " | host calls per handoff | script calls per handoff | store ms per handoff"
				+ " | handoff p50 / p99 ms | largest single call ms | order / twice / late / unavailable / errors |");
		this.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
		for (HotKeyRun.Row row : this.hotKeyRows) {
			this.out.println(hotKeyLine(row));
		}
		this.out.println();
	}

	private void printGrantTable() {
		this.out.println("| host | standing grants (fill s) | bytes per grant | page of " + StandingGrants.PAGE
				+ " median / max ms | grants on the page |");
		this.out.println("|---|---:|---:|---:|---:|");
		for (StandingGrants.Row row : this.grantRows) {
			this.out.println(grantLine(row));
		}
		this.out.println();
	}

	private static String hotKeyLine(HotKeyRun.Row row) {
		HotKeyRun.Window window = row.window();
		int handoffs = row.handoffs();
		String calls = perHandoff(window.calls(), handoffs, 1);
		String scripts = perHandoff(window.scriptCalls(), handoffs, 1);
		String store = perHandoff(window.storeMicros(), handoffs, 1000);
		String max = (window.maxSingleMicros() < 0) ? "—"
				: format(window.maxSingleMicros() / 1000.0) + " (" + window.maxSingleName() + ")";
		String checks = row.outOfOrder() + " / " + row.overlaps() + " / " + row.afterBound() + " / " + row.unavailable()
				+ " / " + row.errors() + (row.firstError().isEmpty() ? "" : " (" + row.firstError() + ")");
		return "| " + row.host() + " | " + String.format(Locale.ROOT, "%,d", row.waiters()) + " | "
				+ String.format(Locale.ROOT, "%,d (%.1f)", row.queued(), row.setupSeconds()) + " | " + handoffs
				+ (row.finished() ? "" : " (capped)") + String.format(Locale.ROOT, " (%.1f)", row.windowSeconds())
				+ " | " + ((handoffs > 0) ? format(row.windowSeconds() * 1000 / handoffs) : "—") + " | " + calls + " | "
				+ scripts + " | " + store + " | " + format(row.p50Millis()) + " / " + format(row.p99Millis()) + " | "
				+ max + " | " + checks + " |";
	}

	// Per handoff; with no handoff in the window, the window's total.
	private static String perHandoff(long total, int handoffs, double scale) {
		if (total < 0) {
			return "—";
		}
		if (handoffs == 0) {
			return format(total / scale) + " in the window";
		}
		return format(total / scale / handoffs);
	}

	private static String grantLine(StandingGrants.Row row) {
		return "| " + row.host() + " | " + String.format(Locale.ROOT, "%,d (%.0f)", row.grants(), row.fillSeconds())
				+ " | " + format(row.bytesPerGrant()) + " | " + format(row.pageMedianMillis()) + " / "
				+ format(row.pageMaxMillis()) + " | " + row.listed() + " |";
	}

	private static String format(double value) {
		if (Double.isNaN(value)) {
			return "—";
		}
		return (value >= 100) ? String.format(Locale.ROOT, "%,.0f", value)
				: String.format(Locale.ROOT, (value >= 10) ? "%.1f" : "%.2f", value);
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value == null || value.isBlank()) ? fallback : value.trim();
	}

}
