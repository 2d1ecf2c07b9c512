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

package dev.lease.fence;

/**
 * Told of every work item a fenced party refuses; for example to count
 * {@code lease.fence.refused} per party, as lease-spring's
 * {@code MeterRegistryFenceRefusalListener} does.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@FunctionalInterface
public interface FenceRefusalListener {

	/**
	 * A listener that does nothing.
	 */
	FenceRefusalListener NONE = (refusal) -> {
	};

	/**
	 * Called after a fenced party refused a work item.
	 * @param refusal the refusal
	 */
	void refused(FenceRefusal refusal);

}
