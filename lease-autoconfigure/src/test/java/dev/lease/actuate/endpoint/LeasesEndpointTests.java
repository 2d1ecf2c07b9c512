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

package dev.lease.actuate.endpoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

import dev.lease.GrantsPage;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.QueuedTakes;
import dev.lease.ReleaseResult;
import dev.lease.TakeResult;
import dev.lease.TryTakeResult;
import dev.lease.actuate.endpoint.LeasesDescriptor.LeaseDescriptor;
import dev.lease.host.inmemory.InMemoryLeaseHost;
import dev.lease.observation.ObservedLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LeasesEndpoint}.
 *
 * @author Lease contributors
 */
class LeasesEndpointTests {

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	@Test
	@DisplayName("Operation 8: each standing grant is listed with its expiresAt and remaining as the host reads them")
	void leasesListsStandingGrants() {
		String key = fresh();
		LeaseHolder holder = LeaseHolder.of("worker-" + fresh());
		this.host.tryTake(LeaseKey.of(key), holder, Duration.ofSeconds(30));
		LeasesDescriptor leases = endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null, null);
		assertThat(leases.leases()).singleElement().satisfies((lease) -> {
			assertThat(lease.key()).isEqualTo(key);
			assertThat(lease.holder()).isEqualTo(holder.asString());
			assertThat(lease.expiresAt()).isNotNull();
			assertThat(lease.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
		});
	}

	@Test
	@DisplayName("Operation 8: each grant's remaining term is also answered in whole milliseconds, and a page says it counts no total")
	void leasesAnswerRemainingInMillisecondsAndNoTotal() {
		LeaseKey key = LeaseKey.of(fresh());
		this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		LeasesDescriptor leases = endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null, null);
		assertThat(leases.total()).isNull();
		assertThat(leases.isTotalCounted()).isFalse();
		assertThat(leases.leases()).singleElement()
			.satisfies((lease) -> assertThat(lease.remainingMillis()).isEqualTo(lease.remaining().toMillis())
				.isPositive()
				.isLessThanOrEqualTo(30_000));
		assertThat(endpoint(Show.ALWAYS).lease(SecurityContext.NONE, key.asString())).isNotNull()
			.satisfies((lease) -> assertThat(lease.remainingMillis()).isPositive());
	}

	@Test
	@DisplayName("Grants 8: every grant listed or read shows when it began on the host's clock, taken through this application or another")
	void grantedAtIsShownForEveryGrantOfAHostThatKeepsIt() {
		ObservedLeaseHost observed = new ObservedLeaseHost(this.host, "memory", new SimpleMeterRegistry(),
				ObservationRegistry.NOOP);
		LeaseKey here = LeaseKey.of(fresh());
		LeaseKey elsewhere = LeaseKey.of(fresh());
		observed.tryTake(here, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.host.tryTake(elsewhere, LeaseHolder.of(fresh()), Duration.ofSeconds(20));
		LeasesEndpoint endpoint = new LeasesEndpoint(observed, Show.ALWAYS, Set.of());
		assertThat(endpoint.leases(SecurityContext.NONE, null, null).leases()).hasSize(2)
			.allSatisfy((lease) -> assertThat(lease.grantedAt())
				.isEqualTo(lease.expiresAt().minusSeconds(lease.key().equals(here.asString()) ? 30 : 20)));
		assertThat(endpoint.lease(SecurityContext.NONE, elsewhere.asString())).isNotNull()
			.satisfies((lease) -> assertThat(lease.grantedAt()).isEqualTo(lease.expiresAt().minusSeconds(20)));
	}

	@Test
	@DisplayName("Fence 1: on a host that keeps no grant's start, a grant taken through the observed host shows when it began, read exactly; another grant shows nothing")
	void grantedAtIsShownForGrantsTakenThroughTheObservedHost() {
		ObservedLeaseHost observed = new ObservedLeaseHost(new RemainingCountingHost(this.host), "memory",
				new SimpleMeterRegistry(), ObservationRegistry.NOOP);
		LeaseKey here = LeaseKey.of(fresh());
		LeaseKey elsewhere = LeaseKey.of(fresh());
		observed.tryTake(here, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.host.tryTake(elsewhere, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		LeasesEndpoint endpoint = new LeasesEndpoint(observed, Show.ALWAYS, Set.of());
		assertThat(endpoint.leases(SecurityContext.NONE, null, null).leases()).hasSize(2)
			.allSatisfy((lease) -> assertThat(lease.grantedAt()).isNull());
		assertThat(endpoint.lease(SecurityContext.NONE, here.asString())).isNotNull()
			.satisfies((lease) -> assertThat(lease.grantedAt()).isEqualTo(lease.expiresAt().minusSeconds(30)));
		assertThat(endpoint.lease(SecurityContext.NONE, elsewhere.asString())).isNotNull()
			.satisfies((lease) -> assertThat(lease.grantedAt()).isNull());
	}

	@Test
	void leasesIsBoundedByTheLimit() {
		for (int i = 0; i < 5; i++) {
			this.host.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		}
		assertThat(endpoint(Show.ALWAYS).leases(SecurityContext.NONE, 3, null).leases()).hasSize(3);
		assertThat(endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null, null).leases()).hasSize(5);
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint(Show.ALWAYS).leases(SecurityContext.NONE, 0, null))
			.withMessageContaining("'limit' must be between 1 and");
	}

	@Test
	void holdersAreHiddenUnlessShown() {
		this.host.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(endpoint(Show.NEVER).leases(SecurityContext.NONE, null, null).leases())
			.allSatisfy((lease) -> assertThat(lease.holder()).isEqualTo("******"));
		assertThat(endpoint(Show.WHEN_AUTHORIZED).leases(SecurityContext.NONE, null, null).leases())
			.allSatisfy((lease) -> assertThat(lease.holder()).isEqualTo("******"));
	}

	@Test
	@DisplayName("Identity 2: a key that is not valid UTF-8 is printed as URL-safe Base64 with a marker")
	void binaryKeyIsPrintedAsBase64WithMarker() {
		byte[] key = { (byte) 0xff, (byte) 0xfe, 0x00, 0x01 };
		this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null, null).leases()).singleElement()
			.extracting(LeaseDescriptor::key)
			.isEqualTo("base64url:" + Base64.getUrlEncoder().withoutPadding().encodeToString(key));
	}

	@Test
	void textKeyThatLooksLikeTheMarkerIsPrintedAsBase64() {
		for (String key : new String[] { "base64:" + fresh(), "base64url:" + fresh() }) {
			assertThat(LeasesEndpoint.display(LeaseKey.of(key))).isNotEqualTo(key).startsWith("base64url:");
			assertThat(LeasesEndpoint.parse(LeasesEndpoint.display(LeaseKey.of(key)))).isEqualTo(LeaseKey.of(key));
		}
	}

	@Test
	void leaseFindsOneKeyAsTextOrBase64() {
		String text = fresh();
		byte[] binary = { (byte) 0xc3, 0x28 };
		this.host.tryTake(LeaseKey.of(text), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.host.tryTake(LeaseKey.of(binary), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		LeasesEndpoint endpoint = endpoint(Show.ALWAYS);
		assertThat(endpoint.lease(SecurityContext.NONE, text)).isNotNull()
			.extracting(LeaseDescriptor::key)
			.isEqualTo(text);
		assertThat(endpoint.lease(SecurityContext.NONE, "base64:" + Base64.getEncoder().encodeToString(binary)))
			.isNotNull();
	}

	@Test
	@DisplayName("Identity 2: a key that is not valid UTF-8 is listed in a URL-safe form that reads it back")
	void binaryKeyIsListedInAFormThatReadsItBack() {
		// standard Base64 of these bytes is "+/+/wyg=": a '/' and a '+' a path cannot
		// carry
		byte[] key = { (byte) 0xfb, (byte) 0xff, (byte) 0xbf, (byte) 0xc3, 0x28 };
		this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		LeasesEndpoint endpoint = endpoint(Show.ALWAYS);
		String listed = endpoint.leases(SecurityContext.NONE, null, null).leases().get(0).key();
		assertThat(listed).isEqualTo("base64url:-_-_wyg");
		assertThat(endpoint.lease(SecurityContext.NONE, listed)).isNotNull()
			.extracting(LeaseDescriptor::key)
			.isEqualTo(listed);
	}

	@Test
	@DisplayName("Identity 2: a text key that a path cannot carry as it is is listed in a form that reads it back")
	void textKeyAPathCannotCarryIsListedInAFormThatReadsItBack() {
		for (String key : new String[] { "tenant//" + fresh(), "/" + fresh(), fresh() + "/", "a / " + fresh() }) {
			this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			String listed = LeasesEndpoint.display(LeaseKey.of(key));
			assertThat(listed).as(key).startsWith("base64url:");
			assertThat(endpoint(Show.ALWAYS).lease(SecurityContext.NONE, listed)).as(key).isNotNull();
		}
	}

	@Test
	void keyWrittenInTheEarlierStandardBase64FormIsStillRead() {
		byte[] key = { (byte) 0xfb, (byte) 0xff, (byte) 0xbf, (byte) 0xc3, 0x28 };
		this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(endpoint(Show.ALWAYS).lease(SecurityContext.NONE, "base64:+/+/wyg=")).isNotNull();
	}

	@Test
	void limitOutsideItsRangeIsABadRequestNamingTheRange() {
		for (int limit : new int[] { 0, -1, LeasesEndpoint.MAXIMUM_LIMIT + 1 }) {
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint(Show.ALWAYS).leases(SecurityContext.NONE, limit, null))
				.as("limit=" + limit)
				.withMessageContaining("'limit' must be between 1 and " + LeasesEndpoint.MAXIMUM_LIMIT)
				.satisfies((ex) -> assertThat(ex.getReason()).contains("'limit'").contains("1 and 10000"));
		}
	}

	@Test
	@DisplayName("State 2: a key with no standing grant answers nothing (404)")
	void leaseOfAFreeKeyIsNull() {
		assertThat(endpoint(Show.ALWAYS).lease(SecurityContext.NONE, fresh())).isNull();
	}

	@Test
	@DisplayName("Operation 8: GET /{key} answers a held key however many grants stand before it in the listing")
	void leaseFindsAHeldKeyBeyondTheFirstTenThousandGrants() {
		List<LeaseKey> keys = new ArrayList<>();
		for (int i = 0; i < LeasesEndpoint.MAXIMUM_LIMIT + 50; i++) {
			LeaseKey key = LeaseKey.of(fresh());
			this.host.tryTake(key, LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			keys.add(key);
		}
		Set<LeaseKey> firstListed = this.host.grants(LeasesEndpoint.MAXIMUM_LIMIT)
			.stream()
			.map(Lease::key)
			.collect(Collectors.toSet());
		LeaseKey beyond = keys.stream().filter((key) -> !firstListed.contains(key)).findFirst().orElseThrow();
		assertThat(endpoint(Show.ALWAYS).lease(SecurityContext.NONE, beyond.asString())).isNotNull()
			.extracting(LeaseDescriptor::key)
			.isEqualTo(beyond.asString());
	}

	@Test
	@DisplayName("Operation 10: a listing answers each remaining term from the page's one reading of the host's clock, asking remaining of no grant")
	void leasesAsksRemainingOfNoGrant() {
		for (int i = 0; i < 3; i++) {
			this.host.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		}
		RemainingCountingHost counting = new RemainingCountingHost(this.host);
		LeasesDescriptor leases = new LeasesEndpoint(counting, Show.ALWAYS, Set.of()).leases(SecurityContext.NONE, null,
				null);
		assertThat(leases.leases()).hasSize(3)
			.allSatisfy(
					(lease) -> assertThat(lease.remaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
		assertThat(counting.remainingCalls).hasValue(0);
	}

	@Test
	@DisplayName("Grants 1: a listing pages through a cursor, each grant once, the last page naming no next")
	void leasesPagesThroughACursor() {
		Set<String> held = new HashSet<>();
		for (int i = 0; i < 5; i++) {
			String key = fresh();
			this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
			held.add(key);
		}
		List<String> listed = new ArrayList<>();
		String cursor = null;
		int pages = 0;
		do {
			LeasesDescriptor page = endpoint(Show.ALWAYS).leases(SecurityContext.NONE, 2, cursor);
			assertThat(page.leases()).hasSizeLessThanOrEqualTo(2);
			assertThat(page.readAt()).isNotNull();
			page.leases().forEach((lease) -> listed.add(lease.key()));
			cursor = page.next();
			pages++;
		}
		while (cursor != null);
		assertThat(listed).containsExactlyInAnyOrderElementsOf(held);
		assertThat(pages).isGreaterThanOrEqualTo(3);
	}

	@Test
	void leasesWithACursorOfNoPageIsABadRequest() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null, "not a cursor!"))
			.withMessageContaining("'cursor'");
	}

	private LeasesEndpoint endpoint(Show show) {
		return new LeasesEndpoint(this.host, show, Set.of());
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

	/**
	 * A host that counts the questions of remaining it is asked, and answers the takes
	 * waiting it is given, or that it cannot tell; it keeps no grant's start.
	 */
	static final class RemainingCountingHost implements LeaseHost {

		private final LeaseHost host;

		final AtomicInteger remainingCalls = new AtomicInteger();

		volatile @Nullable QueuedTakes queuedTakes;

		RemainingCountingHost(LeaseHost host) {
			this.host = host;
		}

		@Override
		public TakeResult take(LeaseKey key, LeaseHolder holder, Duration duration) throws InterruptedException {
			return this.host.take(key, holder, duration);
		}

		@Override
		public TryTakeResult tryTake(LeaseKey key, LeaseHolder holder, Duration duration) {
			return this.host.tryTake(key, holder, duration);
		}

		@Override
		public Optional<Duration> remaining(LeaseKey key, LeaseHolder holder) {
			this.remainingCalls.incrementAndGet();
			return this.host.remaining(key, holder);
		}

		@Override
		public ReleaseResult release(LeaseKey key, LeaseHolder holder) {
			return this.host.release(key, holder);
		}

		@Override
		public List<Lease> grants(int limit) {
			return this.host.grants(limit);
		}

		@Override
		public GrantsPage grants(@Nullable String cursor, int limit) {
			GrantsPage page = this.host.grants(cursor, limit);
			return new GrantsPage(page.grants(), page.readAt(), page.next());
		}

		@Override
		public Optional<Lease> grant(LeaseKey key) {
			return this.host.grant(key);
		}

		@Override
		public Optional<QueuedTakes> waiting(LeaseKey key) {
			return Optional.ofNullable(this.queuedTakes);
		}

	}

}
