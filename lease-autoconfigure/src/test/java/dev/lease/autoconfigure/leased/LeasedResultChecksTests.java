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

package dev.lease.autoconfigure.leased;

import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.lease.annotation.Leased;
import dev.lease.autoconfigure.LeaseAutoConfiguration;
import dev.lease.autoconfigure.inmemory.InMemoryLeaseHostAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Start-up checks of what a {@code @Leased} method returns: a result consumed after the
 * method returned, which the advice cannot hold its key for, fails start-up with a
 * failure report naming the method and what to return instead.
 *
 * @author Lease contributors
 */
class LeasedResultChecksTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(InMemoryLeaseHostAutoConfiguration.class, LeaseAutoConfiguration.class));

	@Test
	@DisplayName("A leased Stream fails start-up: it is consumed after the method returned and its key was released")
	void streamFailsStartUp() {
		this.runner.withBean("numbers", Streams.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains("numbers")
				.contains(Streams.class.getName() + ".boxed()")
				.contains(Streams.class.getName() + ".ints()")
				.contains("java.util.stream.Stream")
				.contains("java.util.stream.IntStream")
				.contains("consumed after the method returned");
			assertThat(analysis[1]).contains("return a List").contains("Flux");
		});
	}

	@Test
	@DisplayName("A leased Publisher of a type no adapter makes from a Flux fails start-up")
	void publisherOfAnUnknownTypeFailsStartUp() {
		this.runner.withBean("own", OwnPublishers.class).run((context) -> {
			String[] analysis = Analyses.of(context);
			assertThat(analysis[0]).contains(OwnPublishers.class.getName() + ".numbers()")
				.contains(OwnPublisher.class.getName());
			assertThat(analysis[1]).contains("Flux");
		});
	}

	@Test
	void monoFluxAndPublisherStart() {
		this.runner.withBean("reactive", Reactive.class).run((context) -> assertThat(context).hasNotFailed());
	}

	static class Streams {

		@Leased(key = "'boxed'", duration = "30s")
		Stream<Integer> boxed() {
			return Stream.of(1, 2, 3);
		}

		@Leased(key = "'ints'", duration = "30s")
		IntStream ints() {
			return IntStream.range(0, 3);
		}

	}

	static class OwnPublishers {

		@Leased(key = "'own'", duration = "30s")
		OwnPublisher numbers() {
			return new OwnPublisher();
		}

	}

	static final class OwnPublisher implements Publisher<Integer> {

		@Override
		public void subscribe(Subscriber<? super Integer> subscriber) {
			Flux.range(1, 3).subscribe(subscriber);
		}

	}

	static class Reactive {

		@Leased(key = "'mono'", duration = "30s")
		Mono<Integer> mono() {
			return Mono.just(1);
		}

		@Leased(key = "'flux'", duration = "30s")
		Flux<Integer> flux() {
			return Flux.range(1, 3);
		}

		@Leased(key = "'publisher'", duration = "30s")
		Publisher<Integer> publisher() {
			return Flux.range(1, 3);
		}

	}

}
