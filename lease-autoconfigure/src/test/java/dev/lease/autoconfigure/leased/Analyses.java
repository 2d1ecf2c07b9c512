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

package dev.lease.autoconfigure.leased;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import dev.lease.autoconfigure.LeasedMethodFailureAnalyzer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure analysis of a context that failed to start: description and action.
 *
 * @author Lease contributors
 */
final class Analyses {

	private Analyses() {
	}

	static String[] of(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new LeasedMethodFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
		return new String[] { analysis.getDescription(), analysis.getAction() };
	}

}
