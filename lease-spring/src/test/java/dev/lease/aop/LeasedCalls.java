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

import java.util.concurrent.Callable;

import dev.lease.Lease;
import dev.lease.template.LeaseStack;

/**
 * Test stand-in for the {@code @Leased} interceptor: runs a call with a grant on the
 * current thread's {@link LeaseStack}.
 *
 * @author Lease contributors
 */
public final class LeasedCalls {

	private LeasedCalls() {
	}

	/**
	 * Run a call with the given grant pushed on the current thread's stack.
	 * @param <T> the call's result type
	 * @param lease the grant
	 * @param call the call
	 * @return the call's result
	 * @throws Exception the call's failure
	 */
	public static <T> T within(Lease lease, Callable<T> call) throws Exception {
		try (LeaseStack.Scope scope = LeaseStack.bind(lease)) {
			return call.call();
		}
	}

	/**
	 * Run a call with the given grant pushed on the current thread's stack.
	 * @param lease the grant
	 * @param call the call
	 * @throws Exception the call's failure
	 */
	public static void run(Lease lease, ThrowingRunnable call) throws Exception {
		within(lease, () -> {
			call.run();
			return null;
		});
	}

	/**
	 * A call with no result.
	 */
	@FunctionalInterface
	public interface ThrowingRunnable {

		/**
		 * Run the call.
		 * @throws Exception the call's failure
		 */
		void run() throws Exception;

	}

}
