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

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import dev.lease.Held;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseHostException;
import dev.lease.LeaseKey;
import dev.lease.Released;
import dev.lease.Taken;
import dev.lease.TryTakeResult;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.redis.FailoverLoad.KeptGrant;
import dev.lease.tck.Stalls;
import dev.lease.tck.history.Event;
import dev.lease.tck.history.Event.Call;
import dev.lease.tck.history.HistoryChecker;
import dev.lease.tck.history.RecordingLeaseHost;
import dev.lease.test.support.RedisSentinelGroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A Redis failover under the lease host, configured as an application would be: through
 * Spring Boot's {@code spring.data.redis.sentinel.*} properties and the auto-configured
 * host. A primary, its replica and three Sentinels run as processes of their own
 * ({@link RedisSentinelGroup}); the primary is killed with {@code kill -9} and the
 * Sentinels promote the replica, which the host's Lettuce connection follows on its own.
 * <p>
 * Three Sentinels with a quorum of two, as a deployment runs them, rather than one: on
 * this 2-core machine they promote the replica about 2.5 s after the kill (one second to
 * mark the primary down, then agreement and the promotion), and the whole class runs in
 * well under a minute.
 *
 * @author Lease contributors
 */
class RedisSentinelFailoverIntegrationTests {

	// Servers on this machine share its clock.
	private static final Duration SKEW = Duration.ofMillis(10);

	private static final Duration TOLERANCE = Duration.ofSeconds(2);

	private static final Duration ARRIVAL_SLACK = Duration.ofMillis(150);

	private static final Duration TERM = Duration.ofSeconds(60);

	private static final Duration FAILOVER = Duration.ofSeconds(30);

	private static final Duration BEFORE_KILL = Duration.ofSeconds(3);

	private static final Duration STALL = Duration.ofMillis(700);

	private static final Duration AFTER_REJOIN = Duration.ofSeconds(2);

	private static final int THREADS = 6;

	private static final int KEYS = 8;

	private final String keyPrefix = "failover-" + UUID.randomUUID() + ":";

	// The time the test lost to the machine: the checker's tolerance grows by it, as a
	// loaded machine delays every answer of a failover (docs/architecture.md, "Time.").
	private final Stalls stalls = new Stalls();

	@AfterEach
	void stopWatching() {
		this.stalls.close();
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(Replica.class)
	@DisplayName("Invariant 1.2, 2.2, Check 1.1: with replicas-to-ack=1, kill -9 of the primary under load loses no grant answered Taken; the history, continued on the promoted replica, holds")
	void primaryKilledUnderLoadLosesNoGrantAnsweredTakenWithReplicasToAck(Replica replica) throws Throwable {
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			runner(group).withPropertyValues("lease.redis.replicas-to-ack=1").run(withLogs(group, (context) -> {
				RecordingLeaseHost host = new RecordingLeaseHost(context.getBean(LeaseHost.class));
				FailoverLoad load = new FailoverLoad(host, THREADS, KEYS);
				long started = System.nanoTime();
				load.start();
				Instant stalledAt;
				Instant killedAt;
				Instant promotedAt;
				Instant rejoinedAt;
				try {
					Thread.sleep(BEFORE_KILL.toMillis());
					if (replica == Replica.LAGGING) {
						group.holdReplication();
					}
					stalledAt = host.now();
					if (replica == Replica.LAGGING) {
						Thread.sleep(STALL.toMillis());
						// On a loaded machine the workers may not have reached the host
						// in
						// the stall: keep the replica behind until a take has been
						// answered.
						Instant since = stalledAt;
						await("a take called while the replica lags").atMost(FAILOVER)
							.pollInterval(Duration.ofMillis(20))
							.until(() -> host.history()
								.stream()
								.anyMatch((event) -> (event.call() == Call.TAKE || event.call() == Call.TRY_TAKE)
										&& event.invokedAt().isAfter(since)));
					}
					killedAt = host.now();
					group.killPrimary();
					group.awaitPromotion(FAILOVER);
					promotedAt = host.now();
					// The same host bean: its connection asks the Sentinels again.
					await("the host answers again, on the promoted replica").atMost(FAILOVER)
						.pollInterval(Duration.ofMillis(50))
						.until(() -> load.lastAnswer().isAfter(promotedAt));
					group.rejoinOldPrimary();
					rejoinedAt = host.now();
					// The rejoined replica first copies the new primary whole: on a
					// loaded machine that outlasts any fixed pause, so wait for the
					// first grant it acknowledges, then let the load run a while.
					Instant since = rejoinedAt;
					await("a grant answered Taken once the rejoined replica acknowledges").atMost(FAILOVER)
						.pollInterval(Duration.ofMillis(50))
						.until(() -> host.history()
							.stream()
							.anyMatch((event) -> event.grant().isPresent() && event.invokedAt().isAfter(since)));
					Thread.sleep(AFTER_REJOIN.toMillis());
				}
				finally {
					load.stop();
				}
				List<Event> history = host.history();
				if (replica == Replica.LAGGING) {
					// A grant written once the replica stopped receiving cannot be
					// acknowledged: it is given back, or its take fails unanswered.
					List<Event> stalled = history.stream()
						.filter((event) -> (event.call() == Call.TAKE || event.call() == Call.TRY_TAKE)
								&& event.invokedAt().isAfter(stalledAt) && event.invokedAt().isBefore(killedAt))
						.toList();
					assertThat(stalled).as("takes called while the replica lagged").isNotEmpty();
					assertThat(stalled).as("while the replica lagged, the primary granted nothing answered Taken")
						.noneMatch((event) -> event.grantedAt().filter((at) -> at.isBefore(killedAt)).isPresent());
				}
				assertThat(history).as("grants answered Taken on the new primary once a replica acknowledges again")
					.anyMatch((event) -> event.grant().isPresent() && event.invokedAt().isAfter(rejoinedAt));
				List<KeptGrant> kept = load.kept();
				List<KeptGrant> beforeKill = kept.stream()
					.filter((grant) -> grant.answeredAt().isBefore(killedAt))
					.toList();
				assertThat(beforeKill).as("grants answered Taken before the kill").isNotEmpty();
				for (KeptGrant grant : kept) {
					LeaseKey key = grant.lease().key();
					LeaseHolder holder = grant.lease().holder();
					assertThat(grant.lease().expiresAt()).as("the check runs within every kept term")
						.isAfter(host.now().plus(TOLERANCE));
					assertThat(host.remaining(key, holder))
						.as("Invariant 2.2: %s, answered Taken at %s (kill at %s), stands on the new primary", grant,
								grant.answeredAt(), killedAt)
						.isPresent();
					assertThat(host.tryTake(key, LeaseHolder.of("other-" + UUID.randomUUID()), TERM))
						.as("Invariant 1.2: another holder is refused the key of %s", grant)
						.isInstanceOf(Held.class);
				}
				for (KeptGrant grant : kept) {
					assertThat(host.release(grant.lease().key(), grant.lease().holder())).isInstanceOf(Released.class);
				}
				System.out.printf(
						"Redis failover under load, %s: %d calls answered, %d failed (unknown outcome); %d kept grants, "
								+ "%d answered before the kill, the last %d ms before it; promoted %d ms after the kill;"
								+ " %d s in all%n",
						replica, load.answered(), load.failed(), kept.size(), beforeKill.size(),
						Duration.between(
								beforeKill.stream().map(KeptGrant::answeredAt).max(Instant::compareTo).orElseThrow(),
								killedAt)
							.toMillis(),
						Duration.between(killedAt, promotedAt).toMillis(),
						Duration.ofNanos(System.nanoTime() - started).toSeconds());
				new HistoryChecker(SKEW, tolerance(), ARRIVAL_SLACK).check(history);
			}));
		}
	}

	@Test
	@DisplayName("Invariant 1.2 (the README's documented loss): without replicas-to-ack a failover loses a grant answered Taken that the lagging replica lacked, and a second holder takes its key while its term stands; with replicas-to-ack=1 the same lag makes the take give its grant back, so nothing answered Taken is lost")
	void withoutReplicasToAckAFailoverLosesAGrantTheReplicaLacked() throws Throwable {
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			ApplicationContextRunner runner = runner(group);
			// Two hosts on the same servers, one with replicas-to-ack=1 and one without.
			runner.withPropertyValues("lease.redis.replicas-to-ack=1")
				.run(withLogs(group,
						(acking) -> runner.withPropertyValues("lease.redis.replicas-to-ack=0")
							.run((plain) -> failOverALaggingReplica(group, acking.getBean(LeaseHost.class),
									plain.getBean(LeaseHost.class)))));
		}
	}

	@Test
	@DisplayName("Operation 11, 13, Invariant 2.2: with replicas-to-ack=1 a release the lagging replica cannot acknowledge is not answered released, since a failover brings its grant back")
	void releaseTheReplicaCannotAcknowledgeIsNotAnsweredReleased() throws Throwable {
		try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
			runner(group).withPropertyValues("lease.redis.replicas-to-ack=1").run(withLogs(group, (context) -> {
				RecordingLeaseHost host = new RecordingLeaseHost(context.getBean(LeaseHost.class));
				LeaseKey key = LeaseKey.of("released-" + UUID.randomUUID());
				LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
				assertThat(host.tryTake(key, holder, TERM)).isInstanceOf(Taken.class);
				group.holdReplication();
				assertThatExceptionOfType(LeaseHostException.class)
					.as("the replica lags: the end of the grant may be lost, so it is not answered released")
					.isThrownBy(() -> host.release(key, holder))
					.withMessageContaining("not acknowledged");
				group.killPrimary();
				group.awaitPromotion(FAILOVER);
				await("the host answers again, on the promoted replica").atMost(FAILOVER)
					.pollInterval(Duration.ofMillis(100))
					.ignoreExceptions()
					.until(() -> host.remaining(key, holder).isPresent());
				// The failover brought the grant back, as the failed release warned:
				// another
				// holder is refused, which no released answer in the history could
				// explain.
				assertThat(host.tryTake(key, LeaseHolder.of("other-" + UUID.randomUUID()), TERM))
					.isInstanceOf(Held.class);
				new HistoryChecker(SKEW, tolerance(), ARRIVAL_SLACK).check(host.history());
			}));
		}
	}

	private void failOverALaggingReplica(RedisSentinelGroup group, LeaseHost ackingHost, LeaseHost plainHost) {
		RecordingLeaseHost acked = new RecordingLeaseHost(ackingHost);
		RecordingLeaseHost unacked = acked.alongside(plainHost);
		LeaseKey confirmedKey = LeaseKey.of("confirmed-" + UUID.randomUUID());
		LeaseKey givenBackKey = LeaseKey.of("given-back-" + UUID.randomUUID());
		LeaseKey lostKey = LeaseKey.of("lost-" + UUID.randomUUID());
		LeaseHolder first = LeaseHolder.of("first-" + UUID.randomUUID());
		LeaseHolder second = LeaseHolder.of("second-" + UUID.randomUUID());
		assertThat(acked.tryTake(confirmedKey, first, TERM)).isInstanceOf(Taken.class);

		group.holdReplication();
		assertThatExceptionOfType(LeaseHostException.class)
			.as("replicas-to-ack=1: the lagging replica cannot acknowledge the grant")
			.isThrownBy(() -> acked.tryTake(givenBackKey, first, TERM))
			.withMessageContaining("given back");
		assertThat(acked.remaining(givenBackKey, first)).as("the grant was given back").isEmpty();
		TryTakeResult lost = unacked.tryTake(lostKey, first, TERM);
		assertThat(lost).as("replicas-to-ack=0 answers at once").isInstanceOf(Taken.class);
		assertThat(group.replicaHasKey(this.keyPrefix, lostKey)).as("the replica lags: it never received the grant")
			.isFalse();
		assertThat(group.replicaHasKey(this.keyPrefix, confirmedKey)).isTrue();

		group.killPrimary();
		group.awaitPromotion(FAILOVER);
		await("the host answers again, on the promoted replica").atMost(FAILOVER)
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> plainHost.remaining(confirmedKey, first).isPresent());

		assertThat(acked.remaining(confirmedKey, first))
			.as("Invariant 2.2: the grant the replica acknowledged stands on the new primary")
			.isPresent();
		assertThat(acked.tryTake(confirmedKey, second, TERM)).isInstanceOf(Held.class);
		assertThat(acked.remaining(givenBackKey, first)).isEmpty();
		// The loss: the grant answered Taken is gone, and its key goes to another.
		assertThat(unacked.remaining(lostKey, first))
			.as("the grant answered Taken without replicas-to-ack is gone after the failover")
			.isEmpty();
		TryTakeResult next = unacked.tryTake(lostKey, second, TERM);
		assertThat(next).isInstanceOf(Taken.class);
		assertThat(((Taken) next).lease().expiresAt().minus(TERM))
			.as("the second grant starts while the first one's term stands")
			.isBefore(((Taken) lost).lease().expiresAt());
		List<String> violations = new HistoryChecker(SKEW, tolerance(), ARRIVAL_SLACK).violations(acked.history());
		assertThat(violations).as("the history checker names the loss, and only it")
			.anyMatch((violation) -> violation.startsWith("Invariant 1.2"))
			.allMatch((violation) -> violation.contains(lostKey.toString()));
		unacked.release(lostKey, second);
		// The promoted replica has no replica of its own: only the host that asks for no
		// acknowledgement can release here.
		unacked.release(confirmedKey, first);
	}

	private Duration tolerance() {
		return TOLERANCE.plus(this.stalls.lost());
	}

	private ApplicationContextRunner runner(RedisSentinelGroup group) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RedisLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class))
			.withPropertyValues(group.properties())
			// a call in flight when the primary dies fails after this, rather than
			// Lettuce's default of a minute
			.withPropertyValues("spring.data.redis.timeout=1s", "lease.redis.replica-timeout=500ms",
					"lease.redis.key-prefix=" + this.keyPrefix);
	}

	// A failure also shows the last lines the servers and Sentinels logged.
	private static ContextConsumer<AssertableApplicationContext> withLogs(RedisSentinelGroup group,
			ContextConsumer<AssertableApplicationContext> test) {
		return (context) -> {
			try {
				test.accept(context);
			}
			catch (Throwable ex) {
				ex.addSuppressed(new AssertionError("Server logs:\n" + group.logs()));
				throw ex;
			}
		};
	}

	/**
	 * The replica when the primary is killed.
	 */
	enum Replica {

		/** Replicating as usual. */
		IN_STEP("the replica in step"),

		/** Its link stalled for the last 700 ms: nothing written then reached it. */
		LAGGING("the replica lagging for the last 700 ms");

		private final String description;

		Replica(String description) {
			this.description = description;
		}

		@Override
		public String toString() {
			return this.description;
		}

	}

}
