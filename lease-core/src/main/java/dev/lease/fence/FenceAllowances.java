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

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.lease.Allowance;

/**
 * The declared allowance of every fenced party, one per party (Invariant 6). Bound from
 * {@code lease.fences.<party>.allowance}.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@FunctionalInterface
public interface FenceAllowances {

	/**
	 * Return the declared allowance of a fenced party.
	 * @param party the fenced party
	 * @return the allowance, or {@code null} when none is declared
	 */
	@Nullable Allowance find(String party);

	/**
	 * Create allowances from a map of party to allowance.
	 * @param allowances the allowances by party
	 * @return the allowances
	 */
	static FenceAllowances of(Map<String, Allowance> allowances) {
		Map<String, Allowance> copy = new TreeMap<>(allowances);
		return new FenceAllowances() {

			@Override
			public @Nullable Allowance find(String party) {
				return copy.get(party);
			}

			@Override
			public String toString() {
				return copy.toString();
			}

		};
	}

	/**
	 * Return the parties among the given ones that have no declared allowance; used to
	 * fail at start-up on a party named in code but missing from configuration.
	 * @param parties the party names
	 * @return the parties with no declared allowance, empty when all are declared
	 */
	default Set<String> missing(Set<String> parties) {
		return parties.stream().filter((party) -> find(party) == null).collect(Collectors.toCollection(TreeSet::new));
	}

}
