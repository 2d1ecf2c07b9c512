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

package dev.lease.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;

/**
 * Closes the beans of one type that hold releases back ({@code holdAtLeast},
 * {@code lockAtLeastFor}) when the application stops: each release due within
 * {@code spring.lifecycle.timeout-per-shutdown-phase} is made when due, so that a restart
 * within a hold keeps the other instances out for at most the hold, and each grant due
 * later ends at its instant. Only beans already created are closed.
 * <p>
 * It stops in {@link #PHASE}: after the task executors and schedulers, whose stop waits
 * for the work they run to complete, so the releases that work holds back are among those
 * made; and before the lifecycle components of phase 0, such as the Redis connection
 * factories, and the destruction of any bean, so the host is still open for them. After a
 * stop, those beans leave any later hold to its instant.
 *
 * @param <T> the type of the beans
 * @author Lease contributors
 * @since 0.1.0
 */
public final class HeldReleasesLifecycle<T> implements SmartLifecycle {

	/**
	 * The phase this lifecycle stops in: below the default phase of executors and
	 * schedulers, above 0.
	 */
	public static final int PHASE = ExecutorConfigurationSupport.DEFAULT_PHASE - 1024;

	private static final String TIMEOUT_PROPERTY = "spring.lifecycle.timeout-per-shutdown-phase";

	// Spring's own default for the timeout per shutdown phase.
	private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	private final ConfigurableListableBeanFactory beanFactory;

	private final Class<T> type;

	private final BiConsumer<T, Duration> close;

	private final Duration wait;

	private final Executor stopper;

	private volatile boolean running;

	/**
	 * Create a lifecycle that closes the beans of the given type, waiting at most the
	 * application's timeout per shutdown phase.
	 * @param beanFactory the bean factory holding the beans
	 * @param type the type of the beans
	 * @param close how to close one bean, waiting at most the given time
	 * @param environment the environment to read
	 * {@code spring.lifecycle.timeout-per-shutdown-phase} from
	 * @param threads the application's threads for the hosts, whose executor runs the
	 * wait while the other components of the phase stop; without one, a daemon thread per
	 * stop
	 */
	public HeldReleasesLifecycle(ConfigurableListableBeanFactory beanFactory, Class<T> type,
			BiConsumer<T, Duration> close, Environment environment, @Nullable LeaseHostThreads threads) {
		this.beanFactory = beanFactory;
		this.type = type;
		this.close = close;
		this.wait = Binder.get(environment).bind(TIMEOUT_PROPERTY, Duration.class).orElse(DEFAULT_TIMEOUT);
		Executor executor = (threads != null) ? threads.executor() : null;
		this.stopper = (executor != null) ? executor : ownThreads();
	}

	private static Executor ownThreads() {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("lease-held-releases-stop-");
		executor.setDaemon(true);
		return executor;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		closeAll(created());
		this.running = false;
	}

	// Waits on another thread, so that the other components of the phase stop meanwhile,
	// as they do with Spring's own asynchronous stops.
	@Override
	public void stop(Runnable callback) {
		List<T> beans = created();
		if (beans.isEmpty()) {
			this.running = false;
			callback.run();
			return;
		}
		this.stopper.execute(() -> {
			try {
				closeAll(beans);
			}
			finally {
				this.running = false;
				callback.run();
			}
		});
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	// One wait for all the beans, not one each.
	private void closeAll(List<T> beans) {
		long deadline = System.nanoTime() + this.wait.toNanos();
		for (T bean : beans) {
			this.close.accept(bean, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
		}
	}

	// A bean not created yet (the template is lazy) held nothing back: it is not
	// created now.
	private List<T> created() {
		return Arrays.stream(this.beanFactory.getBeanNamesForType(this.type, false, false))
			.filter(this.beanFactory::containsSingleton)
			.map(this.beanFactory::getSingleton)
			.filter(this.type::isInstance)
			.map(this.type::cast)
			.toList();
	}

}
