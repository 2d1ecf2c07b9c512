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
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Carry a fence to a named fenced party for the duration of the annotated call. Inside a
 * leased call, the fence is minted from the innermost grant of the current thread with
 * the party's declared allowance ({@code lease.fences.<party>.allowance}); each party is
 * minted from {@code expiresAt} on its own (Fence 5, 8, 9). A {@code Fence} parameter
 * passed as {@code null} is filled with it, and fenced parties such as
 * {@code FencedJdbcTemplate} pick it up from the call.
 * <p>
 * Called outside any lease, or for a party with no declared allowance, the method does
 * not run and an {@link IllegalStateException} says why.
 *
 * @author Lease contributors
 * @since 0.1.0
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface Fenced {

	/**
	 * The fenced party the call's work goes to, as named under {@code lease.fences}.
	 * @return the party name
	 */
	String value();

}
