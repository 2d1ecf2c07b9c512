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

package dev.lease.template;

import dev.lease.Lease;

/**
 * Work that runs under a lease taken by {@link LeaseTemplate} and answers nothing.
 *
 * @param <E> the type of the checked exception the work may throw
 * @author Lease contributors
 * @since 0.1.0
 */
@FunctionalInterface
public interface LeaseRunnable<E extends Throwable> {

	/**
	 * Do the work. The grant is bound to the thread meanwhile: a {@code @Fenced} call
	 * inside mints its fence from it.
	 * @param lease the grant the work runs under
	 * @throws E the work's failure; the grant is released all the same
	 */
	void run(Lease lease) throws E;

}
