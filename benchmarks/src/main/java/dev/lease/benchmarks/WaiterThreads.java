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

package dev.lease.benchmarks;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import org.jspecify.annotations.Nullable;

/**
 * Threads for thousands of blocked waiters: virtual threads on a JDK that has them (21
 * and later; found by reflection, as this module compiles for 17), else platform threads
 * with small stacks.
 *
 * @author Lease contributors
 */
final class WaiterThreads {

	private static final long PLATFORM_STACK_BYTES = 256 * 1024;

	private static final @Nullable MethodHandle VIRTUAL = virtual();

	private WaiterThreads() {
	}

	static String kind() {
		return (VIRTUAL != null) ? "virtual threads, JDK " + Runtime.version().feature() : "platform threads with "
				+ PLATFORM_STACK_BYTES / 1024 + " KiB stacks, JDK " + Runtime.version().feature();
	}

	static Thread unstarted(String name, Runnable task) {
		if (VIRTUAL != null) {
			try {
				Thread thread = (Thread) VIRTUAL.invoke(task);
				thread.setName(name);
				return thread;
			}
			catch (Throwable ex) {
				throw new IllegalStateException("Could not make a virtual thread", ex);
			}
		}
		Thread thread = new Thread(null, task, name, PLATFORM_STACK_BYTES);
		thread.setDaemon(true);
		return thread;
	}

	private static @Nullable MethodHandle virtual() {
		try {
			MethodHandles.Lookup lookup = MethodHandles.publicLookup();
			Class<?> builder = Class.forName("java.lang.Thread$Builder");
			Object ofVirtual = lookup
				.findStatic(Thread.class, "ofVirtual",
						MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual")))
				.invoke();
			return lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class))
				.bindTo(ofVirtual);
		}
		catch (Throwable ex) {
			return null;
		}
	}

}
