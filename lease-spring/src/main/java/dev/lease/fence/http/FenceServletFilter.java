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

package dev.lease.fence.http;

import java.io.IOException;
import java.time.InstantSource;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.FenceRefusals;

/**
 * Judges the {@code Lease-Fence} header of each request on this server's own clock (Fence
 * 4, 6): a fence that has passed is answered {@code 409 Conflict} with a problem-detail
 * body, and the request goes no further. A request without the header passes unless the
 * filter requires one ({@code 428}); a malformed header is a {@code 400}.
 * <p>
 * Each refusal is reported to the listener the filter was built with; built without one
 * and declared as a bean, to the application's {@link FenceRefusalListener} bean. Spring
 * Boot registers this filter by itself ({@code lease.fenced-server.*}).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FenceServletFilter extends OncePerRequestFilter implements BeanFactoryAware {

	private final FenceJudge judge;

	/**
	 * Create a filter judging on the system clock, reporting refusals to the
	 * application's listener when declared as a bean.
	 * @param party this server's name as a fenced party, for the refusal counter and log
	 */
	public FenceServletFilter(String party) {
		this.judge = new FenceJudge(party, InstantSource.system(), null);
	}

	/**
	 * Create a filter.
	 * @param party this server's name as a fenced party, for the refusal counter and log
	 * @param clock this server's clock
	 * @param listener told of every refusal
	 */
	public FenceServletFilter(String party, InstantSource clock, FenceRefusalListener listener) {
		this.judge = new FenceJudge(party, clock, FenceRefusals.requireListener(listener));
	}

	/**
	 * Return this server's name as a fenced party.
	 * @return the party name
	 */
	public String getParty() {
		return this.judge.party();
	}

	/**
	 * Set whether a request without a {@code Lease-Fence} header is refused.
	 * @param required whether the header is required
	 */
	public void setRequired(boolean required) {
		this.judge.setRequired(required);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		this.judge.useApplicationListener(beanFactory);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		FenceJudge.ProblemAnswer problem = this.judge.judge(request.getHeader(LeaseFenceHeader.NAME));
		if (problem == null) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body = problem.body();
		response.setStatus(problem.status());
		response.setContentType(FenceJudge.PROBLEM_CONTENT_TYPE);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
