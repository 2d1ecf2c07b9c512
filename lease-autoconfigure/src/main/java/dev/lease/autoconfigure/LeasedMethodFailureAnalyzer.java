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

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import dev.lease.aop.InvalidLeasedMethodException;
import dev.lease.aop.InvalidLeasedMethodException.Problem;

/**
 * Explains an {@link InvalidLeasedMethodException} at start-up: each {@code @Leased} or
 * {@code @Fenced} method of the bean that cannot run as written, the attribute, what is
 * wrong and what to write instead.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class LeasedMethodFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLeasedMethodException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLeasedMethodException cause) {
		String description = cause.getProblems()
			.stream()
			.map((problem) -> "    - " + problem.describe(cause.getBeanName()))
			.collect(Collectors.joining("\n",
					"Bean '" + cause.getBeanName() + "' has lease annotations that cannot run as written:\n\n", ""));
		String action = cause.getProblems()
			.stream()
			.map(LeasedMethodFailureAnalyzer::fix)
			.collect(Collectors.joining("\n", "Change the annotations:\n\n", ""));
		return new FailureAnalysis(description, action, cause);
	}

	private static String fix(Problem problem) {
		return "    - " + problem.annotation() + " on " + problem.method() + ", '" + problem.attribute() + "': "
				+ problem.fix();
	}

}
