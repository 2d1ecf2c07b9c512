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

/**
 * The host kit: the parts every {@link dev.lease.LeaseHost} needs besides its store,
 * written once for our hosts and for third-party ones: the state model of a key
 * ({@link dev.lease.host.KeyModel}), argument checks, the conversion of a store's
 * microseconds, the registry that wakes waiting threads, and the withdrawal of a waiter
 * that gives up.
 */
@NullMarked
package dev.lease.host;

import org.jspecify.annotations.NullMarked;
