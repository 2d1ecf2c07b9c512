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

package dev.lease.autoconfigure.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;

/**
 * On a test class ({@code @SpringBootTest} or a test slice) or a test's configuration:
 * the application's leases are taken on an in-memory host that reads a
 * {@link TestLeaseClock}, a bean the test injects and advances. The host replaces the one
 * the application would otherwise get: the Redis and JDBC hosts back off, and a
 * {@link dev.lease.LeaseHost} bean of the application is removed, never created.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Import(LeaseTestingConfiguration.class)
public @interface AutoConfigureLeaseTesting {

}
