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

import java.time.Duration;

import org.springframework.integration.jdbc.lock.LockRepository;

/**
 * Spring Integration's lock repository, unchanged, with its refusals counted: a
 * {@code JdbcLockRegistry} refusal the database did not give was given in the process.
 *
 * @author Lease contributors
 */
final class CountingLockRepository implements LockRepository {

	private final LockRepository repository;

	private final PeerBenchmarks.Refusals refusals;

	CountingLockRepository(LockRepository repository, PeerBenchmarks.Refusals refusals) {
		this.repository = repository;
		this.refusals = refusals;
	}

	@Override
	public boolean acquire(String lock, Duration ttl) {
		boolean acquired = this.repository.acquire(lock, ttl);
		if (!acquired) {
			this.refusals.storeRefusals.increment();
		}
		return acquired;
	}

	@Override
	@SuppressWarnings("deprecation")
	public boolean acquire(String lock) {
		boolean acquired = this.repository.acquire(lock);
		if (!acquired) {
			this.refusals.storeRefusals.increment();
		}
		return acquired;
	}

	@Override
	public boolean isAcquired(String lock) {
		return this.repository.isAcquired(lock);
	}

	@Override
	public boolean delete(String lock) {
		return this.repository.delete(lock);
	}

	@Override
	public void deleteExpired() {
		this.repository.deleteExpired();
	}

	@Override
	@SuppressWarnings("deprecation")
	public boolean renew(String lock) {
		return this.repository.renew(lock);
	}

	@Override
	public boolean renew(String lock, Duration ttl) {
		return this.repository.renew(lock, ttl);
	}

	@Override
	public void close() {
		this.repository.close();
	}

}
