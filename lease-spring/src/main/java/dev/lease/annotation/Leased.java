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

package dev.lease.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Run a method under a lease: take the key on entry, release it when the method completes
 * (on return or throw; for a {@code CompletionStage}, or a Reactor {@code Mono} or
 * {@code Flux}, when the returned value completes).
 * <p>
 * The lease is taken by Spring's proxy around the bean, so only calls that pass through
 * the proxy are leased: a call from the same bean ({@code this.settle(id)}) runs
 * <strong>without a lease</strong>, and nothing reports it. Call the method from another
 * bean, or take the lease with {@link dev.lease.template.LeaseTemplate}.
 * <p>
 * A lease is not reentrant: a nested {@code @Leased} call on a key the current thread
 * already holds fails with {@link dev.lease.ReentrantTakeException} before the host is
 * asked. Different keys nest, and are released innermost first.
 * <p>
 * The lease encloses any {@code @Transactional} on the same method: the transaction
 * commits (or rolls back) before the key is released.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Leased {

	/**
	 * SpEL expression over the method's arguments ({@code #orderId}, {@code #p0}, beans
	 * as {@code @bean}) that yields the key as a {@code String} or {@code byte[]}. A
	 * constant key is a quoted literal: {@code "'nightly-report'"}.
	 * @return the key expression
	 */
	String key();

	/**
	 * The term to ask for, as a duration string ({@code 30s}, {@code 500ms},
	 * {@code PT1M}) or a {@code ${…}} placeholder resolving to one. Required: there is no
	 * default term (Non-goal 10).
	 * @return the duration
	 */
	String duration();

	/**
	 * Whether to wait for the key ({@link LeaseMode#TAKE}) or never wait
	 * ({@link LeaseMode#TRY_TAKE}). Unset ({@link LeaseMode#DEFAULT}): never wait on a
	 * {@code @Scheduled} method, wait elsewhere.
	 * <p>
	 * A scheduled job runs on every instance's trigger; the instance that waited for the
	 * key would run the tick the holder just ran, once the holder released it (after
	 * {@link #holdAtLeast()}), so each tick would run once per instance. Only a job that
	 * must run on every trigger, one instance after another, asks for
	 * {@link LeaseMode#TAKE}.
	 * @return the mode
	 */
	LeaseMode mode() default LeaseMode.DEFAULT;

	/**
	 * What to do when the key was not taken. Unset ({@link OnUnavailable#DEFAULT}):
	 * {@link OnUnavailable#SKIP} on a {@code @Scheduled} method, whose tick another
	 * instance ran, {@link OnUnavailable#THROW} elsewhere.
	 * @return the reaction
	 */
	OnUnavailable onUnavailable() default OnUnavailable.DEFAULT;

	/**
	 * Optional SpEL expression yielding the holder as a {@code String} or {@code byte[]}.
	 * Empty: a fresh readable holder per invocation, {@code <prefix>/<uuid>}.
	 * @return the holder expression
	 */
	String holder() default "";

	/**
	 * How old the grant must be before it is released, as a duration string or a
	 * {@code ${…}} placeholder, parsed once like {@link #duration()}. Empty (the
	 * default): released as soon as the method completes.
	 * <p>
	 * A short job on a schedule needs it: without it the instance that runs first
	 * releases before a later instance's trigger fires, and that instance runs the job
	 * again for the same tick. With {@code holdAtLeast} longer than the spread of the
	 * instances' triggers, one instance runs each tick and the others skip. The release
	 * never waits past the grant's instant and never extends the grant: a
	 * {@code holdAtLeast} equal to the duration is never released, its instant ends it.
	 * Longer than the duration, or negative, fails at start-up naming the method (with
	 * the auto-configuration, as a failure report). See
	 * {@link dev.lease.template.LeaseRequest#holdAtLeast()} for how the wait is kept.
	 * @return the shortest age of the grant at its release
	 */
	String holdAtLeast() default "";

}
