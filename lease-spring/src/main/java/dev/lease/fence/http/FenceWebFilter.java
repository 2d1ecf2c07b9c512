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

import java.time.InstantSource;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import dev.lease.fence.FenceRefusalListener;
import dev.lease.fence.FenceRefusals;

/**
 * WebFlux form of {@link FenceServletFilter}: judges the {@code Lease-Fence} header on
 * this server's own clock and answers {@code 409 Conflict} with a problem-detail body
 * when the fence has passed.
 * <p>
 * Each refusal is reported to the listener the filter was built with; built without one
 * and declared as a bean, to the application's {@link FenceRefusalListener} bean. Spring
 * Boot registers this filter by itself ({@code lease.fenced-server.*}).
 *
 * @author Lease contributors
 * @since 0.1.0
 */
public class FenceWebFilter implements WebFilter, BeanFactoryAware {

	private final FenceJudge judge;

	/**
	 * Create a filter judging on the system clock, reporting refusals to the
	 * application's listener when declared as a bean.
	 * @param party this server's name as a fenced party, for the refusal counter and log
	 */
	public FenceWebFilter(String party) {
		this.judge = new FenceJudge(party, InstantSource.system(), null);
	}

	/**
	 * Create a filter.
	 * @param party this server's name as a fenced party, for the refusal counter and log
	 * @param clock this server's clock
	 * @param listener told of every refusal
	 */
	public FenceWebFilter(String party, InstantSource clock, FenceRefusalListener listener) {
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
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String header = exchange.getRequest().getHeaders().getFirst(LeaseFenceHeader.NAME);
		FenceJudge.ProblemAnswer problem = this.judge.judge(header);
		if (problem == null) {
			return chain.filter(exchange);
		}
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(problem.status()));
		response.getHeaders().set(HttpHeaders.CONTENT_TYPE, FenceJudge.PROBLEM_CONTENT_TYPE);
		DataBuffer body = response.bufferFactory().wrap(problem.body());
		return response.writeWith(Mono.just(body));
	}

}
