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

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * What a host read of its store's protocol record: the protocol this instance speaks
 * beside the one the store records, and where the record is kept.
 *
 * @param record where the store keeps its record, such as {@code Redis key
 * 'lease:protocol'}
 * @param reset how an operator removes the record, so that the next start writes its own
 * @param ours the protocol this instance speaks
 * @param recorded the protocol the store records, or {@code null} when it records none
 * @author Lease contributors
 * @since 0.1.0
 */
public record StoreProtocolReading(String record, String reset, StoreProtocol ours, @Nullable StoreProtocol recorded) {

	/**
	 * Return whether this instance can work beside the instances the record speaks for.
	 * @return {@code true} when the store records nothing or a protocol this one works
	 * beside
	 */
	public boolean compatible() {
		return this.recorded == null || this.ours.worksBeside(this.recorded);
	}

	/**
	 * Judge this reading as a host's start does, each host telling it in its own words on
	 * its own log: a protocol this instance cannot work beside is refused, its message
	 * given to {@code refused} (logged as an error) and the refusal thrown; a record this
	 * start wrote where there was none is told to {@code wroteRecord} (logged as
	 * information), and instances of another protocol this one works beside to
	 * {@code workingBeside} (logged as a warning, as in a rolling deploy).
	 * @param refused told the refusal's message
	 * @param wroteRecord told that the store recorded no protocol before this start,
	 * which recorded its own
	 * @param workingBeside told the other protocol the store records
	 * @return this reading
	 * @throws IncompatibleStoreProtocolException if this instance cannot work beside the
	 * recorded protocol
	 */
	public StoreProtocolReading atStart(Consumer<String> refused, Runnable wroteRecord,
			Consumer<StoreProtocol> workingBeside) {
		if (!compatible()) {
			IncompatibleStoreProtocolException refusal = refusal();
			refused.accept(refusal.getMessage());
			throw refusal;
		}
		if (this.recorded == null) {
			wroteRecord.run();
		}
		else if (this.recorded.version() != this.ours.version()) {
			workingBeside.accept(this.recorded);
		}
		return this;
	}

	/**
	 * Return the refusal to work on beside an incompatible protocol: both versions, and
	 * what to do.
	 * @return the exception to throw
	 */
	public IncompatibleStoreProtocolException refusal() {
		StoreProtocol other = (this.recorded != null) ? this.recorded : this.ours;
		String action = (other.version() > this.ours.version())
				? "instances of a newer release that cannot work beside this one use the store: deploy that"
						+ " release here too, or stop those instances and then " + this.reset
				: "instances of an older release that this one cannot work beside may still use the store: stop or"
						+ " upgrade all of them first (this change is not safe in a rolling deploy), then "
						+ this.reset;
		return new IncompatibleStoreProtocolException(this,
				"The lease store's " + this.record + " records protocol " + other
						+ ", and this instance speaks protocol " + this.ours + ": it refuses to work beside it",
				Character.toUpperCase(action.charAt(0)) + action.substring(1));
	}

}
