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

package dev.lease.test.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for the start of a test cluster's node ({@link RedisClusterNodes}): test JVMs run
 * at once, each picking free ports, and a node must be set up only where it answers
 * itself.
 *
 * @author Lease contributors
 */
class RedisClusterNodesIntegrationTests {

	@Test
	@DisplayName("A node whose port another server took is refused, not set up as if the other server were the node")
	void nodeWhosePortWasTakenIsRefused(@TempDir Path dir) throws Exception {
		int port = RedisTestServer.freePort();
		try (RedisTestServer other = RedisTestServer.startEmbedded(port, List.of())) {
			assertThat(RedisClusterNodes.ping(port)).as("the other server answers on the port").isTrue();
			Process node = RedisClusterNodes.start(RedisTestServer.binary(), port, dir);
			try {
				assertThatIllegalStateException().isThrownBy(() -> RedisClusterNodes.requireOwn(port, node, dir))
					.withMessageContaining("port " + port);
			}
			finally {
				node.destroyForcibly();
				RedisClusterNodes.waitFor(node);
			}
		}
	}

	@Test
	@DisplayName("A node on a port of its own is its own")
	void nodeOnAPortOfItsOwnIsAccepted(@TempDir Path dir) throws Exception {
		int port = RedisTestServer.freePort();
		File binary = RedisTestServer.binary();
		Process node = RedisClusterNodes.start(binary, port, Files.createDirectories(dir.resolve("node")));
		try {
			RedisClusterNodes.requireOwn(port, node, dir.resolve("node"));
			assertThat(RedisClusterNodes.pid(port)).isEqualTo(node.pid());
		}
		finally {
			node.destroyForcibly();
			RedisClusterNodes.waitFor(node);
		}
	}

}
