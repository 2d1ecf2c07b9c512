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

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown at start-up when a bean's {@link dev.lease.annotation.Leased @Leased} or
 * {@link dev.lease.annotation.Fenced @Fenced} methods cannot run as written: every
 * problem of the bean, each naming the method, the attribute and the fix.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class InvalidLeasedMethodException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String beanName;

	private final transient List<Problem> problems;

	/**
	 * Create an exception for the given bean's problems.
	 * @param beanName the bean's name
	 * @param problems what is wrong, at least one
	 */
	public InvalidLeasedMethodException(String beanName, List<Problem> problems) {
		super(problems.stream()
			.map((problem) -> problem.describe(beanName) + ". " + problem.fix())
			.collect(Collectors.joining("; ")));
		this.beanName = beanName;
		this.problems = List.copyOf(problems);
	}

	/**
	 * Return the name of the bean whose methods are wrong.
	 * @return the bean's name
	 */
	public String getBeanName() {
		return this.beanName;
	}

	/**
	 * Return what is wrong, one entry per method and attribute.
	 * @return the problems
	 */
	public List<Problem> getProblems() {
		return this.problems;
	}

	/**
	 * One attribute of one method that cannot run as written.
	 *
	 * @param annotation the annotation, {@code @Leased} or {@code @Fenced}
	 * @param method the method, as {@code com.example.Jobs.report()}
	 * @param attribute the attribute, as {@code key}
	 * @param value the attribute's value as written
	 * @param problem what is wrong with it
	 * @param fix what to write instead
	 */
	public record Problem(String annotation, String method, String attribute, String value, String problem,
			String fix) {

		/**
		 * Describe the problem for the given bean.
		 * @param beanName the bean's name
		 * @return the description
		 */
		public String describe(String beanName) {
			return "Bean '" + beanName + "': " + this.annotation + " on " + this.method + ", '" + this.attribute
					+ "' = \"" + this.value + "\": " + this.problem;
		}

	}

}
