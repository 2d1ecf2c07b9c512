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

package dev.lease.host;

import org.jspecify.annotations.Nullable;

/**
 * The protocol a host's instances speak on their store: the layout of what they keep
 * there and the statements or script that read and write it. Each store records the
 * newest protocol that started on it, so that an instance of one release meeting
 * instances of another on one store is told whether it can work beside them, instead of
 * working on with rules that disagree (a rolling deploy between incompatible releases).
 * <p>
 * A protocol works beside every version from {@code worksBesideSince} to its own; a newer
 * recorded protocol works beside this one when its own {@code worksBesideSince} reaches
 * down to it.
 *
 * @param version the protocol's version, counted per store kind
 * @param worksBesideSince the oldest version whose instances this protocol works beside
 * on one store
 * @author Lease contributors
 * @since 0.1.0
 */
public record StoreProtocol(int version, int worksBesideSince) {

	/**
	 * Create a protocol.
	 * @param version the protocol's version, at least 1
	 * @param worksBesideSince the oldest version it works beside, from 1 to
	 * {@code version}
	 */
	public StoreProtocol {
		if (version < 1 || worksBesideSince < 1 || worksBesideSince > version) {
			throw new IllegalArgumentException("A store protocol's version must be at least 1 and the oldest version"
					+ " it works beside from 1 to it, but were " + version + " and " + worksBesideSince);
		}
	}

	/**
	 * Return the protocol a store's record names in the given numbers. A record no
	 * release writes (a number below 1 or beyond an {@code int}, or a version below the
	 * oldest it works beside) is judged as an unknown newer protocol that works beside
	 * none of its own.
	 * @param version the recorded version
	 * @param worksBesideSince the recorded oldest version it works beside
	 * @return the recorded protocol
	 */
	public static StoreProtocol recorded(long version, long worksBesideSince) {
		if (version < 1 || worksBesideSince < 1 || version > Integer.MAX_VALUE || worksBesideSince > version) {
			return new StoreProtocol(Integer.MAX_VALUE, Integer.MAX_VALUE);
		}
		return new StoreProtocol((int) version, (int) worksBesideSince);
	}

	/**
	 * Return whether instances of this protocol work beside those of the recorded one on
	 * one store: the older of the two is one the newer works beside.
	 * @param recorded the protocol the store records
	 * @return whether both can work on the store together
	 */
	public boolean worksBeside(StoreProtocol recorded) {
		return (recorded.version <= this.version) ? recorded.version >= this.worksBesideSince
				: recorded.worksBesideSince <= this.version;
	}

	/**
	 * Return whether an instance of this protocol starting on a store that records the
	 * given one writes its own in its place: the store records nothing yet, or an older
	 * protocol this one works beside.
	 * @param recorded the protocol the store records, or {@code null} for none
	 * @return whether the record is to be raised to this protocol
	 */
	public boolean raises(@Nullable StoreProtocol recorded) {
		return recorded == null || (recorded.version < this.version && worksBeside(recorded));
	}

	@Override
	public String toString() {
		return this.version + " (works beside " + this.worksBesideSince + " and later)";
	}

}
