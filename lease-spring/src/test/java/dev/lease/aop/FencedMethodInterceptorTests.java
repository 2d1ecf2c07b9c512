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

package dev.lease.aop;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

import dev.lease.Allowance;
import dev.lease.Fence;
import dev.lease.Lease;
import dev.lease.LeaseHolder;
import dev.lease.LeaseKey;
import dev.lease.Taken;
import dev.lease.annotation.Fenced;
import dev.lease.fence.BoundFence;
import dev.lease.fence.FenceAllowances;
import dev.lease.fence.FenceBinding;
import dev.lease.fence.FenceRefusalListener;
import dev.lease.host.inmemory.InMemoryLeaseHost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link FencedMethodInterceptor}.
 *
 * @author Lease contributors
 */
class FencedMethodInterceptorTests {

	private static final Allowance STORE_ALLOWANCE = Allowance.of(Duration.ofMillis(300));

	private static final Allowance JOURNAL_ALLOWANCE = Allowance.of(Duration.ofMillis(50));

	private final InMemoryLeaseHost host = new InMemoryLeaseHost();

	private final FenceAllowances allowances = FenceAllowances
		.of(Map.of("store", STORE_ALLOWANCE, "journal", JOURNAL_ALLOWANCE));

	@Test
	@DisplayName("Check 6.1 (Fence 5, Invariant 6.1): every fence handed out sits at or below expiresAt - allowance")
	void everyFenceHandedOutSitsAtOrBelowTheCeiling() throws Exception {
		Parties parties = proxy(new FencedParties());
		for (int i = 0; i < 20; i++) {
			Lease lease = take(Duration.ofMillis(500 + 100L * i));
			List<Fence> handed = LeasedCalls.within(lease, () -> parties.store(null));
			Instant ceiling = lease.expiresAt().minus(STORE_ALLOWANCE.value());
			assertThat(handed).hasSize(2).allSatisfy((fence) -> {
				assertThat(fence.instant()).isBeforeOrEqualTo(ceiling);
				assertThat(Duration.between(fence.instant(), lease.expiresAt()))
					.isGreaterThanOrEqualTo(STORE_ALLOWANCE.value());
				assertThat(fence.margin()).isGreaterThanOrEqualTo(STORE_ALLOWANCE.value());
			});
			this.host.release(lease.key(), lease.holder());
		}
	}

	@Test
	@DisplayName("Check 6.2 (Fence 8, 9, Invariant 6.2): two parties with two allowances each get a fence minted from expiresAt")
	void twoPartiesGetFencesMintedEachFromExpiresAt() throws Exception {
		Parties parties = proxy(new FencedParties());
		Lease lease = take(Duration.ofSeconds(5));
		Fence[] fences = LeasedCalls.within(lease, parties::storeThenJournal);
		Fence store = fences[0];
		Fence journal = fences[1];
		assertThat(store.instant()).isEqualTo(lease.expiresAt().minus(STORE_ALLOWANCE.value()));
		assertThat(journal.instant()).isEqualTo(lease.expiresAt().minus(JOURNAL_ALLOWANCE.value()));
		assertThat(journal).isNotEqualTo(store);
		assertThat(journal.instant()).isNotEqualTo(store.instant().minus(JOURNAL_ALLOWANCE.value()));
		assertThat(journal.margin()).isEqualTo(JOURNAL_ALLOWANCE.value());
		assertThat(store.margin()).isEqualTo(STORE_ALLOWANCE.value());
	}

	@Test
	@DisplayName("Fence 8: inside a nested call each party reads its own fence from the binding")
	void nestedCallsBindOneFencePerParty() throws Exception {
		Parties parties = proxy(new FencedParties());
		Lease lease = take(Duration.ofSeconds(5));
		BoundFence[] bound = LeasedCalls.within(lease, parties::boundInsideJournalInsideStore);
		assertThat(bound[0].party()).isEqualTo("store");
		assertThat(bound[1].party()).isEqualTo("journal");
		assertThat(bound[0].key()).isEqualTo(lease.key());
		assertThat(bound[0].fence()).isNotEqualTo(bound[1].fence());
		assertThat(FenceBinding.current()).isNull();
	}

	@Test
	@DisplayName("Fence 2: a Fence parameter passed by the caller is kept, one passed as null is filled")
	void fenceParameterIsFilledOnlyWhenNull() throws Exception {
		Parties parties = proxy(new FencedParties());
		Lease lease = take(Duration.ofSeconds(5));
		Fence own = Fence.mint(lease, Allowance.of(Duration.ofSeconds(1)));
		List<Fence> handed = LeasedCalls.within(lease, () -> parties.store(own));
		assertThat(handed.get(0)).isSameAs(own);
		assertThat(handed.get(1)).isEqualTo(Fence.mint(lease, STORE_ALLOWANCE));
	}

	@Test
	@DisplayName("Fence 1: outside any lease there is no grant to mint from: a clear exception and nothing runs")
	void outsideAnyLeaseNothingRuns() {
		FencedParties target = new FencedParties();
		Parties parties = proxy(target);
		assertThatIllegalStateException().isThrownBy(() -> parties.store(null))
			.withMessageContaining("outside any lease")
			.withMessageContaining("store");
		assertThat(target.ran).isFalse();
	}

	@Test
	@DisplayName("Invariant 6: a party with no declared allowance: a clear exception and nothing runs")
	void partyWithoutAllowanceNothingRuns() throws Exception {
		FencedParties target = new FencedParties();
		Parties parties = proxy(target);
		Lease lease = take(Duration.ofSeconds(5));
		assertThatIllegalStateException().isThrownBy(() -> LeasedCalls.run(lease, parties::undeclared))
			.withMessageContaining("lease.fences.undeclared.allowance");
		assertThat(target.ran).isFalse();
	}

	@Test
	@DisplayName("Fence 2: the fence is bound only for the duration of the call")
	void fenceIsUnboundAfterTheCall() throws Exception {
		Parties parties = proxy(new FencedParties());
		Lease lease = take(Duration.ofSeconds(5));
		LeasedCalls.within(lease, () -> parties.store(null));
		assertThat(FenceBinding.current()).isNull();
	}

	@Test
	@DisplayName("Fence 3: the bound fence carries the application's refusal listener, for parties built without one")
	void boundFenceCarriesTheApplicationsListener() throws Exception {
		FenceRefusalListener application = (refusal) -> {
		};
		ProxyFactory factory = new ProxyFactory(new JournalByDefault());
		factory.addInterface(ClassFenced.class);
		factory.addAdvisor(new FencedAdvisor(this.allowances, application));
		ClassFenced parties = (ClassFenced) factory.getProxy();
		Lease lease = take(Duration.ofSeconds(5));
		assertThat(LeasedCalls.within(lease, parties::byClass).listener()).isSameAs(application);
		assertThat(LeasedCalls.within(lease, parties::byMethod).listener()).isSameAs(application);
		assertThat(LeasedCalls.within(lease, proxy(new FencedParties())::boundInsideJournalInsideStore)[0].listener())
			.as("an advisor built without a listener")
			.isSameAs(FenceRefusalListener.NONE);
	}

	@Test
	@DisplayName("Fence 8: @Fenced on a class applies to its methods, a method's own annotation wins")
	void classLevelPartyAppliesAndMethodLevelWins() throws Exception {
		ClassFenced parties = new ProxyFactoryBuilder<ClassFenced>(new JournalByDefault(), ClassFenced.class)
			.proxy(this.allowances);
		Lease lease = take(Duration.ofSeconds(5));
		assertThat(LeasedCalls.within(lease, parties::byClass).party()).isEqualTo("journal");
		assertThat(LeasedCalls.within(lease, parties::byMethod).party()).isEqualTo("store");
	}

	private Lease take(Duration duration) {
		LeaseKey key = LeaseKey.of("fence-" + UUID.randomUUID());
		LeaseHolder holder = LeaseHolder.of("holder-" + UUID.randomUUID());
		return ((Taken) this.host.tryTake(key, holder, duration)).lease();
	}

	private Parties proxy(FencedParties target) {
		return new ProxyFactoryBuilder<Parties>(target, Parties.class).proxy(this.allowances);
	}

	interface Parties {

		List<Fence> store(@Nullable Fence fence);

		Fence[] storeThenJournal();

		BoundFence[] boundInsideJournalInsideStore();

		void undeclared();

		void journal(Fence[] into);

	}

	interface ClassFenced {

		BoundFence byClass();

		BoundFence byMethod();

	}

	static class FencedParties implements Parties {

		private @Nullable Parties self;

		private boolean ran;

		@Override
		@Fenced("store")
		public List<Fence> store(@Nullable Fence fence) {
			this.ran = true;
			List<Fence> handed = new ArrayList<>();
			handed.add(fence);
			handed.add(FenceBinding.required("store").fence());
			return handed;
		}

		@Override
		@Fenced("store")
		public Fence[] storeThenJournal() {
			Fence[] fences = new Fence[2];
			fences[0] = FenceBinding.required("store").fence();
			self().journal(fences);
			return fences;
		}

		@Override
		@Fenced("store")
		public BoundFence[] boundInsideJournalInsideStore() {
			Fence[] ignored = new Fence[2];
			BoundFence[] bound = new BoundFence[2];
			bound[0] = FenceBinding.required("store");
			self().journal(ignored);
			bound[1] = new BoundFence("journal", bound[0].key(), ignored[1]);
			return bound;
		}

		@Override
		@Fenced("journal")
		public void journal(Fence[] into) {
			assertThat(FenceBinding.current("store")).isNotNull();
			into[1] = FenceBinding.required("journal").fence();
		}

		@Override
		@Fenced("undeclared")
		public void undeclared() {
			this.ran = true;
		}

		private Parties self() {
			assertThat(this.self).isNotNull();
			return this.self;
		}

	}

	@Fenced("journal")
	static class JournalByDefault implements ClassFenced {

		@Override
		public BoundFence byClass() {
			return FenceBinding.required("journal");
		}

		@Override
		@Fenced("store")
		public BoundFence byMethod() {
			AtomicBoolean journal = new AtomicBoolean(FenceBinding.current("journal") != null);
			assertThat(journal).isFalse();
			return FenceBinding.required("store");
		}

	}

	static final class ProxyFactoryBuilder<T> {

		private final Object target;

		private final Class<T> type;

		ProxyFactoryBuilder(Object target, Class<T> type) {
			this.target = target;
			this.type = type;
		}

		T proxy(FenceAllowances allowances) {
			ProxyFactory factory = new ProxyFactory(this.target);
			factory.addInterface(this.type);
			factory.addAdvisor(new FencedAdvisor(allowances));
			T proxy = this.type.cast(factory.getProxy());
			if (this.target instanceof FencedParties parties) {
				parties.self = (Parties) proxy;
			}
			return proxy;
		}

	}

}
