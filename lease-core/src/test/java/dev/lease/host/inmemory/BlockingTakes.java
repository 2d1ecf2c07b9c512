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

package dev.lease.host.inmemory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.lease.LeaseHolder;
import dev.lease.LeaseHost;
import dev.lease.LeaseKey;
import dev.lease.TakeResult;

/**
 * A blocking take on a daemon thread of its own, its answer or failure as a future: so
 * that a test can queue waiters and go on.
 *
 * @author Lease contributors
 */
final class BlockingTakes {

	private BlockingTakes() {
	}

	static CompletableFuture<TakeResult> onThread(LeaseHost host, LeaseKey key, LeaseHolder holder, Duration duration) {
		CompletableFuture<TakeResult> answer = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				answer.complete(host.take(key, holder, duration));
			}
			catch (Throwable ex) {
				answer.completeExceptionally(ex);
			}
		});
		thread.setDaemon(true);
		thread.start();
		return answer;
	}

}
