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
import java.util.Base64;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.actuate.endpoint.LeasesDescriptor.LeaseDescriptor;
import dev.lease.host.inmemory.InMemoryLeaseHost;

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
		LeasesDescriptor leases = endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null);
		assertThat(leases.getLeases()).singleElement().satisfies((lease) -> {
			assertThat(lease.getKey()).isEqualTo(key);
			assertThat(lease.getHolder()).isEqualTo(holder.asString());
			assertThat(lease.getExpiresAt()).isNotNull();
			assertThat(lease.getRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
		});
	}

	@Test
	void leasesIsBoundedByTheLimit() {
		for (int i = 0; i < 5; i++) {
			this.host.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		}
		assertThat(endpoint(Show.ALWAYS).leases(SecurityContext.NONE, 3).getLeases()).hasSize(3);
		assertThat(endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null).getLeases()).hasSize(5);
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint(Show.ALWAYS).leases(SecurityContext.NONE, 0))
			.withMessageContaining("'limit' must be positive");
	}

	@Test
	void holdersAreHiddenUnlessShown() {
		this.host.tryTake(LeaseKey.of(fresh()), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(endpoint(Show.NEVER).leases(SecurityContext.NONE, null).getLeases())
			.allSatisfy((lease) -> assertThat(lease.getHolder()).isEqualTo("******"));
		assertThat(endpoint(Show.WHEN_AUTHORIZED).leases(SecurityContext.NONE, null).getLeases())
			.allSatisfy((lease) -> assertThat(lease.getHolder()).isEqualTo("******"));
	}

	@Test
	@DisplayName("Identity 2: a key that is not valid UTF-8 is printed as Base64 with a marker")
	void binaryKeyIsPrintedAsBase64WithMarker() {
		byte[] key = { (byte) 0xff, (byte) 0xfe, 0x00, 0x01 };
		this.host.tryTake(LeaseKey.of(key), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		assertThat(endpoint(Show.ALWAYS).leases(SecurityContext.NONE, null).getLeases()).singleElement()
			.extracting(LeaseDescriptor::getKey)
			.isEqualTo("base64:" + Base64.getEncoder().encodeToString(key));
	}

	@Test
	void textKeyThatLooksLikeTheMarkerIsPrintedAsBase64() {
		String key = "base64:" + fresh();
		assertThat(LeasesEndpoint.display(LeaseKey.of(key).bytes())).isNotEqualTo(key).startsWith("base64:");
		assertThat(LeasesEndpoint.parse(LeasesEndpoint.display(LeaseKey.of(key).bytes()))).isEqualTo(LeaseKey.of(key));
	}

	@Test
	void leaseFindsOneKeyAsTextOrBase64() {
		String text = fresh();
		byte[] binary = { (byte) 0xc3, 0x28 };
		this.host.tryTake(LeaseKey.of(text), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		this.host.tryTake(LeaseKey.of(binary), LeaseHolder.of(fresh()), Duration.ofSeconds(30));
		LeasesEndpoint endpoint = endpoint(Show.ALWAYS);
		assertThat(endpoint.lease(SecurityContext.NONE, text)).isNotNull()
			.extracting(LeaseDescriptor::getKey)
			.isEqualTo(text);
		assertThat(endpoint.lease(SecurityContext.NONE, "base64:" + Base64.getEncoder().encodeToString(binary)))
			.isNotNull();
	}

	@Test
	@DisplayName("State 2: a key with no standing grant answers nothing (404)")
	void leaseOfAFreeKeyIsNull() {
		assertThat(endpoint(Show.ALWAYS).lease(SecurityContext.NONE, fresh())).isNull();
	}

	private LeasesEndpoint endpoint(Show show) {
		return new LeasesEndpoint(this.host, show, Set.of());
	}

	private static String fresh() {
		return UUID.randomUUID().toString();
	}

}
