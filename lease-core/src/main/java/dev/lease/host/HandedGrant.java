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
 * A grant handed to a waiter, as the model decided it: the store keeps it for its waiter
 * until it asks, and a host that wakes waiters announces it as a {@link Wakeups.Handoff}
 * once saved.
 *
 * @param waiter the waiter the key was handed to
 * @param expiresAt the grant's instant
 * @author Lease contributors
 * @since 0.1.0
 */
public record HandedGrant(QueuedWaiter waiter, long expiresAt) {

}
