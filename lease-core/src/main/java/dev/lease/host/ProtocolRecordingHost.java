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

/**
 * A host whose store records the protocol its instances speak ({@link StoreProtocol}), so
 * that health can show it and report a protocol met later that it cannot work beside.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public interface ProtocolRecordingHost {

	/**
	 * Read the store's protocol record now, writing nothing.
	 * @return this instance's protocol beside the recorded one
	 * @throws dev.lease.LeaseHostException if the store cannot be read
	 */
	StoreProtocolReading protocol();

}
