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

import java.util.concurrent.Executor;

import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * The context of a leased call's caller, captured through Micrometer's
 * context-propagation ({@code ContextRegistry}: the current {@code Observation}, the MDC
 * keys an application registered, Spring Security's context) and restored where a body
 * that waited for its key runs, as it would have been on the caller's thread. Without
 * context-propagation on the class path there is nothing to capture.
 *
 * @author Lease contributors
 */
final class CallerContext {

	private static final boolean PRESENT = ClassUtils.isPresent("io.micrometer.context.ContextSnapshotFactory",
			CallerContext.class.getClassLoader());

	private static final CallerContext NONE = new CallerContext(null);

	private final @Nullable Object snapshot;

	private CallerContext(@Nullable Object snapshot) {
		this.snapshot = snapshot;
	}

	// The calling thread's context, and that of the given context objects (a Reactor
	// ContextView), which win over the thread's.
	static CallerContext capture(Object... contexts) {
		return PRESENT ? new CallerContext(Snapshots.capture(contexts)) : NONE;
	}

	// The previous context is back after the task.
	void run(Runnable task) {
		if (this.snapshot == null) {
			task.run();
			return;
		}
		Snapshots.run(this.snapshot, task);
	}

	// Hands the body to the executor as the caller would have: the executor's
	// TaskDecorator sees the caller's context when it decorates, and the body runs with
	// it even where no decorator carries it.
	Executor onBehalf(Executor executor) {
		return (task) -> run(() -> executor.execute(() -> run(task)));
	}

	private static final class Snapshots {

		private static final ContextSnapshotFactory FACTORY = ContextSnapshotFactory.builder()
			.clearMissing(true)
			.build();

		static Object capture(Object... contexts) {
			return FACTORY.captureAll(contexts);
		}

		static void run(Object snapshot, Runnable task) {
			try (ContextSnapshot.Scope scope = ((ContextSnapshot) snapshot).setThreadLocals()) {
				task.run();
			}
		}

	}

}
