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

package dev.lease.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * The context of one lease operation's observation: which operation, on which host, and
 * how it ended. It holds neither the key nor the holder.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseObservationContext extends Observation.Context {

	/** The outcome while the operation runs. */
	public static final String UNKNOWN = "unknown";

	/** The outcome of an operation that threw. */
	public static final String ERROR = "error";

	private final LeaseObservationDocumentation operation;

	private final String hostName;

	private volatile String outcome = UNKNOWN;

	private volatile @Nullable Object result;

	/**
	 * Create a context.
	 * @param operation the operation observed
	 * @param hostName the host's low-cardinality name
	 */
	public LeaseObservationContext(LeaseObservationDocumentation operation, String hostName) {
		this.operation = operation;
		this.hostName = hostName;
	}

	/**
	 * Return the operation observed.
	 * @return the operation
	 */
	public LeaseObservationDocumentation getOperation() {
		return this.operation;
	}

	/**
	 * Return the host's low-cardinality name, such as {@code redis}.
	 * @return the host name
	 */
	public String getHostName() {
		return this.hostName;
	}

	/**
	 * Return how the operation ended: {@value #UNKNOWN} while it runs, {@value #ERROR}
	 * when it threw, else one of the outcomes its {@link LeaseObservationDocumentation
	 * operation} lists.
	 * @return the outcome
	 */
	public String getOutcome() {
		return this.outcome;
	}

	/**
	 * Set how the operation ended.
	 * @param outcome the outcome
	 */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

	/**
	 * Return what the host answered, such as a {@link dev.lease.TakeResult}; {@code null}
	 * while the operation runs or when it threw.
	 * @return the answer, or {@code null}
	 */
	public @Nullable Object getResult() {
		return this.result;
	}

	/**
	 * Set what the host answered.
	 * @param result the answer
	 */
	public void setResult(@Nullable Object result) {
		this.result = result;
	}

}
