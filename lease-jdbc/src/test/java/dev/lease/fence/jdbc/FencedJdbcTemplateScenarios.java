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

package dev.lease.fence.jdbc;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.FenceExpiredException;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusal;
import dev.lease.fence.FencedStoreScenarios;
import dev.lease.host.jdbc.DatabaseClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The fenced-store scenarios for {@link FencedJdbcTemplate} on one database, plus the
 * checks only a transactional store has.
 *
 * @author Lease contributors
 */
abstract class FencedJdbcTemplateScenarios extends FencedStoreScenarios {

	private final String table = "fence_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);

	private @Nullable FencedJdbcTemplate template;

	protected abstract DataSource dataSource();

	@BeforeEach
	void createTable() {
		this.template = new FencedJdbcTemplate(dataSource(), PARTY);
		this.template.getJdbcOperations()
			.execute("CREATE TABLE " + this.table + " (id VARCHAR(64) PRIMARY KEY, val VARCHAR(64))");
	}

	@AfterEach
	void dropTable() {
		if (this.template != null) {
			this.template.getJdbcOperations().execute("DROP TABLE " + this.table);
		}
	}

	@Override
	protected void write(String id, String value) {
		template().write((jdbc) -> {
			jdbc.update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, value);
			return jdbc.update("UPDATE " + this.table + " SET val = ? WHERE id = ?", value, id);
		});
	}

	@Override
	protected @Nullable String read(String id) {
		List<String> values = template().getJdbcOperations()
			.queryForList("SELECT val FROM " + this.table + " WHERE id = ?", String.class, id);
		return values.isEmpty() ? null : values.get(0);
	}

	@Test
	@DisplayName("Fence 3, 4: a fence already passed on the database's clock rolls the whole write back")
	void passedFenceRollsBackEveryStatementOfTheWrite() {
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().minusSeconds(5));
		Fence fence = Fence.mint(lease, ALLOWANCE);
		String id = UUID.randomUUID().toString();
		assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(() -> template().write(fence, (jdbc) -> {
			jdbc.update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, "one");
			return jdbc.update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id + "-2", "two");
		}));
		assertThat(read(id)).isNull();
		assertThat(read(id + "-2")).isNull();
	}

	@Test
	@DisplayName("Fence 4: the reading the store judged by is its own clock, read when the check runs")
	void storeClockIsReadAtTheCheck() {
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().plusSeconds(60));
		Fence fence = Fence.mint(lease, Allowance.of(java.time.Duration.ofSeconds(1)));
		String id = UUID.randomUUID().toString();
		assertThat(template().update(fence, "INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, "v"))
			.isEqualTo(1);
		assertThat(read(id)).isEqualTo("v");
		java.time.Instant before = java.time.Instant.now().minusSeconds(2);
		java.time.Instant reading = DatabaseClock.of(dataSource()).read(template().getJdbcOperations());
		assertThat(reading).isAfter(before).isBefore(java.time.Instant.now().plusSeconds(2));
	}

	@Test
	@DisplayName("Fence 3, 4: joined to a longer transaction, the check runs again last, before that transaction commits")
	void joinedTransactionIsCheckedAgainBeforeItCommits() {
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().plusMillis(700));
		Fence fence = Fence.mint(lease, ALLOWANCE);
		String id = UUID.randomUUID().toString();
		TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(() -> outer.executeWithoutResult((status) -> {
			template().update(fence, "INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, "joined");
			// The holder pauses on purpose inside its own transaction, past the fence.
			sleep(java.time.Duration.ofMillis(900));
		}));
		assertThat(read(id)).isNull();
	}

	@Test
	@DisplayName("Fence 8: a template for one party never writes under another party's fence")
	void anotherPartysFenceIsNeverUsed() {
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().plusSeconds(60));
		String id = UUID.randomUUID().toString();
		try (FenceBinding.Scope scope = FenceBinding
			.bind(new BoundFence("journal", lease.key(), Fence.mint(lease, ALLOWANCE)))) {
			assertThatIllegalStateException()
				.isThrownBy(() -> template().update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, "x"))
				.withMessageContaining("'" + PARTY + "'");
		}
		assertThat(read(id)).isNull();
	}

	@Test
	@DisplayName("Fence 3: a template built without a listener reports a refusal once, to the listener the bound fence carries")
	void refusalIsReportedToTheBoundFencesListener() {
		List<FenceRefusal> application = new CopyOnWriteArrayList<>();
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().minusSeconds(5));
		String id = UUID.randomUUID().toString();
		try (FenceBinding.Scope scope = FenceBinding
			.bind(new BoundFence(PARTY, lease.key(), Fence.mint(lease, ALLOWANCE), application::add))) {
			assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(
					() -> template().update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, "late"));
		}
		assertThat(application).singleElement().satisfies((refusal) -> {
			assertThat(refusal.party()).isEqualTo(PARTY);
			assertThat(refusal.key()).isEqualTo(lease.key());
		});
		assertThat(read(id)).isNull();
	}

	@Test
	@DisplayName("Fence 3: a template built with a listener reports a refusal to it alone, never also to the bound fence's")
	void refusalIsReportedToTheTemplatesOwnListenerAlone() {
		List<FenceRefusal> application = new CopyOnWriteArrayList<>();
		List<FenceRefusal> own = new CopyOnWriteArrayList<>();
		FencedJdbcTemplate template = new FencedJdbcTemplate(dataSource(), PARTY, own::add);
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().minusSeconds(5));
		try (FenceBinding.Scope scope = FenceBinding
			.bind(new BoundFence(PARTY, lease.key(), Fence.mint(lease, ALLOWANCE), application::add))) {
			assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(() -> template
				.update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", UUID.randomUUID().toString(), "x"));
		}
		assertThat(own).hasSize(1);
		assertThat(application).isEmpty();
	}

	@Test
	@DisplayName("Fence 3: a refusal just before a joined transaction commits, after the fenced call ended, "
			+ "is reported to the listener the fence carried")
	void refusalBeforeCommitIsReportedToTheListenerOfTheWrite() {
		List<FenceRefusal> application = new CopyOnWriteArrayList<>();
		Lease lease = new Lease(LeaseKey.of("fence-" + UUID.randomUUID()), LeaseHolder.of("holder"),
				java.time.Instant.now().plusMillis(1500));
		String id = UUID.randomUUID().toString();
		TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource()));
		assertThatExceptionOfType(FenceExpiredException.class).isThrownBy(() -> outer.executeWithoutResult((status) -> {
			try (FenceBinding.Scope scope = FenceBinding
				.bind(new BoundFence(PARTY, lease.key(), Fence.mint(lease, ALLOWANCE), application::add))) {
				template().update("INSERT INTO " + this.table + " (id, val) VALUES (?, ?)", id, "joined");
			}
			// The holder pauses on purpose inside its own transaction, past the fence.
			sleep(java.time.Duration.ofMillis(1800));
		}));
		assertThat(application).hasSize(1);
		assertThat(read(id)).isNull();
	}

	private static void sleep(java.time.Duration pause) {
		try {
			Thread.sleep(pause.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private FencedJdbcTemplate template() {
		assertThat(this.template).isNotNull();
		return this.template;
	}

}
