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

package dev.lease.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LeaseConfigurationException} at start-up (no host, a missing schema,
 * an unsupported Spring Boot, ...): what is wrong, and what to change.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeaseConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<LeaseConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LeaseConfigurationException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
