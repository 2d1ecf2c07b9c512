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

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link StoreProtocol}: which protocols work beside each other on one store,
 * and when a start raises the store's record.
 *
 * @author Lease contributors
 */
class StoreProtocolTests {

	private final StoreProtocol two = new StoreProtocol(2, 2);

	@Test
	void worksBesideItsOwnVersionAndTheOlderOnesItNames() {
		StoreProtocol three = new StoreProtocol(3, 2);
		assertThat(three.worksBeside(three)).isTrue();
		assertThat(three.worksBeside(this.two)).isTrue();
		assertThat(three.worksBeside(new StoreProtocol(1, 1))).isFalse();
	}

	@Test
	void worksBesideANewerVersionOnlyWhenTheNewerReachesDownToIt() {
		assertThat(this.two.worksBeside(new StoreProtocol(3, 2))).isTrue();
		assertThat(this.two.worksBeside(new StoreProtocol(3, 3))).isFalse();
	}

	@Test
	void raisesAnAbsentRecordAndAnOlderCompatibleOneOnly() {
		StoreProtocol three = new StoreProtocol(3, 2);
		assertThat(three.raises(null)).isTrue();
		assertThat(three.raises(this.two)).isTrue();
		assertThat(three.raises(three)).isFalse();
		assertThat(three.raises(new StoreProtocol(1, 1))).isFalse();
		assertThat(this.two.raises(three)).isFalse();
	}

	@Test
	void refusalNamesBothProtocolsAndWhatToDo() {
		StoreProtocolReading reading = new StoreProtocolReading("Redis key 'lease:protocol'",
				"delete the record (DEL lease:protocol)", this.two, new StoreProtocol(3, 3));
		assertThat(reading.compatible()).isFalse();
		assertThat(reading.refusal()).hasMessageContaining("records protocol 3 (works beside 3 and later)")
			.hasMessageContaining("this instance speaks protocol 2 (works beside 2 and later)")
			.hasMessageContaining("deploy that release here too")
			.hasMessageContaining("DEL lease:protocol");
		assertThat(new StoreProtocolReading("r", "reset", this.two, new StoreProtocol(1, 1)).refusal())
			.hasMessageContaining("stop or upgrade all of them first");
	}

	@Test
	void aRecordedPairNoReleaseWritesIsAnUnknownNewerProtocol() {
		StoreProtocol unknown = new StoreProtocol(Integer.MAX_VALUE, Integer.MAX_VALUE);
		assertThat(StoreProtocol.recorded(3, 2)).isEqualTo(new StoreProtocol(3, 2));
		assertThat(StoreProtocol.recorded(0, 1)).isEqualTo(unknown);
		assertThat(StoreProtocol.recorded(2, 0)).isEqualTo(unknown);
		assertThat(StoreProtocol.recorded(2, 3)).isEqualTo(unknown);
		assertThat(StoreProtocol.recorded(Integer.MAX_VALUE + 1L, 1)).isEqualTo(unknown);
		assertThat(this.two.worksBeside(StoreProtocol.recorded(-1, -1))).isFalse();
	}

	@Test
	void atStartTellsWhatTheStartFoundAndThrowsTheRefusal() {
		List<String> told = new ArrayList<>();
		StoreProtocolReading none = new StoreProtocolReading("r", "reset", this.two, null);
		assertThat(none.atStart((message) -> told.add("refused"), () -> told.add("wrote"),
				(other) -> told.add("beside " + other.version())))
			.isSameAs(none);
		new StoreProtocolReading("r", "reset", this.two, this.two).atStart((message) -> told.add("refused"),
				() -> told.add("wrote"), (other) -> told.add("beside " + other.version()));
		new StoreProtocolReading("r", "reset", this.two, new StoreProtocol(3, 2)).atStart(
				(message) -> told.add("refused"), () -> told.add("wrote"),
				(other) -> told.add("beside " + other.version()));
		StoreProtocolReading newer = new StoreProtocolReading("r", "reset", this.two, new StoreProtocol(3, 3));
		assertThatExceptionOfType(IncompatibleStoreProtocolException.class)
			.isThrownBy(() -> newer.atStart(told::add, () -> told.add("wrote"),
					(other) -> told.add("beside " + other.version())))
			.withMessage(newer.refusal().getMessage());
		assertThat(told).containsExactly("wrote", "beside 3", newer.refusal().getMessage());
	}

	@Test
	void refusesAVersionOutsideItsRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> new StoreProtocol(2, 3));
		assertThatIllegalArgumentException().isThrownBy(() -> new StoreProtocol(0, 0));
	}

}
