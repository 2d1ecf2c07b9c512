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

package dev.lease.tck;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.NotHeld;
import dev.lease.Released;
import dev.lease.Taken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Identity: a lease is the pair (key, holder), both compared byte for byte and never
 * normalised (Identity 1 to 5).
 *
 * @author Lease contributors
 */
abstract class IdentityChecks extends KitGroup {

	@Test
	@DisplayName("Identity 2, 3: keys differing only by letter case are two leases")
	void keysDifferingByCaseAreTwoLeases() {
		assertTwoLeases("a", "A");
	}

	@Test
	@DisplayName("Identity 2, 3: keys differing only by a trailing space are two leases")
	void keysDifferingByTrailingSpaceAreTwoLeases() {
		assertTwoLeases("a", "a ");
	}

	@Test
	@DisplayName("Identity 3: keys in Unicode NFC and NFD are two leases, never normalised")
	void keysInNfcAndNfdAreTwoLeases() {
		assertTwoLeases("\u00e9", "e\u0301");
	}

	@Test
	@DisplayName("Identity 2: keys differing only by a trailing NUL are two leases")
	void keysDifferingByTrailingNulAreTwoLeases() {
		assertTwoLeases("a", "a\u0000");
	}

	@Test
	@DisplayName("Identity 2: keys of invalid UTF-8 are accepted, kept and told apart")
	void invalidUtf8KeysAreTwoLeases() {
		byte[] prefix = prefix();
		assertTwoLeases(LeaseKey.of(concat(prefix, (byte) 0xC3, (byte) 0x28)),
				LeaseKey.of(concat(prefix, (byte) 0xC3, (byte) 0x29)));
		assertTwoLeases(LeaseKey.of(concat(prefix, (byte) 0xFF)), LeaseKey.of(concat(prefix, (byte) 0xFE)));
	}

	@Test
	@DisplayName("Identity 2, 4: a key and a holder of the maximum size work; one byte over is refused before any host")
	void maximumSizeWorksAndOneByteOverIsRefused() {
		byte[] key = Arrays.copyOf(prefix(), LeaseKey.MAXIMUM_BYTES);
		byte[] holder = Arrays.copyOf(prefix(), LeaseHolder.MAXIMUM_BYTES);
		Arrays.fill(key, 60, key.length, (byte) 0xFF);
		Arrays.fill(holder, 60, holder.length, (byte) 0x00);
		Lease held = taken(LeaseKey.of(key), LeaseHolder.of(holder), LONG);
		assertThat(held.key().bytes()).isEqualTo(key);
		assertThat(held.holder().bytes()).isEqualTo(holder);
		assertThat(host().remaining(LeaseKey.of(key), LeaseHolder.of(holder))).isPresent();
		assertThat(host().release(LeaseKey.of(key), LeaseHolder.of(holder))).isInstanceOf(Released.class);
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseKey.of(new byte[LeaseKey.MAXIMUM_BYTES + 1]))
			.withMessageContaining("1024");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseHolder.of(new byte[LeaseHolder.MAXIMUM_BYTES + 1]))
			.withMessageContaining("1024");
		assertThatIllegalArgumentException().isThrownBy(() -> LeaseKey.of("")).withMessageContaining("empty");
	}

	@Test
	@DisplayName("Identity 4, Operation 9, 12: holders differing only by letter case or invalid UTF-8 are two parties")
	void holdersAreComparedByBytes() {
		LeaseKey key = newKey();
		String name = "holder-" + UUID.randomUUID();
		taken(key, LeaseHolder.of(name), LONG);
		assertThat(host().remaining(key, LeaseHolder.of(name.toUpperCase(Locale.ROOT)))).isEmpty();
		assertThat(host().release(key, LeaseHolder.of(name + " "))).isInstanceOf(NotHeld.class);
		LeaseKey other = newKey();
		LeaseHolder broken = LeaseHolder.of(concat(prefix(), (byte) 0xC3, (byte) 0x28));
		taken(other, broken, LONG);
		assertThat(host().remaining(other, LeaseHolder.of(concat(broken.bytes(), (byte) 0)))).isEmpty();
		assertThat(host().release(other, broken)).isInstanceOf(Released.class);
	}

	@Test
	@DisplayName("Identity 1, 5: take, release and take again on one pair are two grants, told apart by expiresAt")
	void takeReleaseTakeAreTwoGrants() throws Exception {
		LeaseKey key = newKey();
		LeaseHolder holder = newHolder("holder");
		Lease first = taken(key, holder, LONG);
		host().release(key, holder);
		elapse(CLOCK_GRAIN);
		Lease second = taken(key, holder, LONG);
		assertThat(second.expiresAt()).isAfter(first.expiresAt());
		assertThat(host().tryTake(newKey(), holder, LONG)).as("the same holder on another key is another lease")
			.isInstanceOf(Taken.class);
	}

	private void assertTwoLeases(LeaseKey one, LeaseKey other) {
		assertThat(one).isNotEqualTo(other);
		LeaseHolder first = newHolder("first");
		LeaseHolder second = newHolder("second");
		Lease a = taken(one, first, LONG);
		Lease b = taken(other, second, LONG);
		assertThat(a.key().bytes()).isEqualTo(one.bytes());
		assertThat(b.key().bytes()).isEqualTo(other.bytes());
		assertThat(host().remaining(one, second)).isEmpty();
		assertThat(host().release(other, first)).isInstanceOf(NotHeld.class);
		assertThat(host().grants(Integer.MAX_VALUE)).contains(a, b);
	}

	// Two keys that share one fresh prefix and differ only in the given endings.
	private void assertTwoLeases(String one, String other) {
		byte[] prefix = prefix();
		assertTwoLeases(LeaseKey.of(concat(prefix, one.getBytes(StandardCharsets.UTF_8))),
				LeaseKey.of(concat(prefix, other.getBytes(StandardCharsets.UTF_8))));
	}

	private static byte[] prefix() {
		return ("tck-identity:" + UUID.randomUUID() + ":").getBytes(StandardCharsets.US_ASCII);
	}

	private static byte[] concat(byte[] prefix, byte... suffix) {
		byte[] joined = Arrays.copyOf(prefix, prefix.length + suffix.length);
		System.arraycopy(suffix, 0, joined, prefix.length, suffix.length);
		return joined;
	}

}
