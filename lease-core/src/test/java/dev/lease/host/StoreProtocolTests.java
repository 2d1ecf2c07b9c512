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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
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
	void refusesAVersionOutsideItsRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> new StoreProtocol(2, 3));
		assertThatIllegalArgumentException().isThrownBy(() -> new StoreProtocol(0, 0));
	}

}
