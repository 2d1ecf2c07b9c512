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

package dev.lease.host.redis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.data.redis.connection.RedisConnection;

import dev.lease.host.redis.RedisDurability.Status;

/**
 * One reading of every server setting that can lose a grant: persistence
 * ({@code appendonly}, {@code appendfsync}) and eviction ({@code maxmemory},
 * {@code maxmemory-policy}), with the server's {@code run_id} from {@code INFO server} to
 * tell a restarted or failed-over server from the one read before.
 * <p>
 * Eviction loses grants whatever the policy but {@code noeviction}: lease keys carry a
 * {@code PEXPIRE} (garbage collection only), so the {@code volatile-*} policies, which
 * evict only keys with a TTL, take them first. With {@code noeviction} a full Redis
 * refuses the write, and the take fails instead.
 *
 * @author Lease contributors
 */
final class RedisDurabilityCheck {

	private static final List<String> SETTINGS = List.of("appendonly", "appendfsync", "maxmemory", "maxmemory-policy");

	private static final List<Status> WEAKNESS = List.of(Status.DURABLE, Status.UNKNOWN, Status.NOT_DURABLE);

	private RedisDurabilityCheck() {
	}

	/**
	 * Read the server's settings.
	 * @param connection a connection to the server
	 * @return the reading
	 * @throws RuntimeException when the server cannot be reached at all: the caller keeps
	 * its previous answer
	 */
	static Reading read(RedisConnection connection) {
		String runId = runId(connection);
		// node -> setting -> value; on a cluster every node answers under "<node>.<name>"
		Map<String, Map<String, String>> nodes = new TreeMap<>();
		try {
			for (String name : SETTINGS) {
				byNode(connection.serverCommands().getConfig(name), name)
					.forEach((node, value) -> nodes.computeIfAbsent(node, (n) -> new TreeMap<>()).put(name, value));
			}
		}
		catch (RuntimeException ex) {
			// The reason says what was refused; RedisDurabilityMonitor adds what to do
			// about it.
			requireRefused(connection, ex);
			return new Reading(runId, new RedisDurability(Status.UNKNOWN,
					"CONFIG GET is not available (" + RedisCalls.rootMessage(ex) + ")"));
		}
		// A server that reports none of the settings is read as one that reports nothing.
		return new Reading(runId, weakest(nodes.isEmpty() ? Map.of("", Map.of()) : nodes));
	}

	// The weakest node decides: known not durable, then unknown, then durable.
	private static RedisDurability weakest(Map<String, Map<String, String>> nodes) {
		Status status = Status.DURABLE;
		Set<String> reasons = new LinkedHashSet<>();
		for (Map.Entry<String, Map<String, String>> node : nodes.entrySet()) {
			RedisDurability verdict = verdict(node.getValue());
			if (WEAKNESS.indexOf(verdict.status()) > WEAKNESS.indexOf(status)) {
				status = verdict.status();
				reasons.clear();
			}
			if (verdict.status() == status) {
				String where = node.getKey().isEmpty() ? ""
						: "node " + node.getKey().substring(0, node.getKey().length() - 1) + ": ";
				reasons.add(((nodes.size() > 1 && status != Status.DURABLE) ? where : "") + verdict.reason());
			}
		}
		return new RedisDurability(status, String.join("; ", reasons));
	}

	private static RedisDurability verdict(Map<String, String> settings) {
		String appendOnly = settings.get("appendonly");
		String appendFsync = settings.get("appendfsync");
		String maxMemory = settings.get("maxmemory");
		String policy = settings.get("maxmemory-policy");
		List<String> missing = SETTINGS.stream().filter((name) -> settings.get(name) == null).toList();
		List<String> losses = new ArrayList<>();
		if (appendOnly != null && !appendOnly.equalsIgnoreCase("yes")) {
			losses.add("appendonly is '" + appendOnly
					+ "': a restart of Redis loses the grants written since its last snapshot; set appendonly yes");
		}
		else if (appendFsync != null && !appendFsync.equalsIgnoreCase("always")
				&& !appendFsync.equalsIgnoreCase("everysec")) {
			losses.add("appendonly yes but appendfsync '" + appendFsync
					+ "': a crash of the machine can lose grants; set appendfsync always or everysec");
		}
		if (maxMemory != null && policy != null && !maxMemory.equals("0")
				&& !policy.toLowerCase(Locale.ROOT).equals("noeviction")) {
			losses.add("maxmemory is " + maxMemory + " bytes with maxmemory-policy '" + policy
					+ "': a full Redis evicts keys, lease keys (which carry a TTL) among the first, and their"
					+ " grants with them; set maxmemory-policy noeviction");
		}
		if (!losses.isEmpty()) {
			return new RedisDurability(Status.NOT_DURABLE, String.join("; ", losses));
		}
		if (!missing.isEmpty()) {
			return new RedisDurability(Status.UNKNOWN, "Redis did not report " + missing);
		}
		String eviction = maxMemory.equals("0") ? "maxmemory 0 (no eviction)" : "maxmemory-policy noeviction";
		if (appendFsync.equalsIgnoreCase("always")) {
			return new RedisDurability(Status.DURABLE, "appendonly yes, appendfsync always, " + eviction);
		}
		return new RedisDurability(Status.DURABLE, "appendonly yes, appendfsync everysec, " + eviction
				+ ": a restart or crash of Redis keeps every grant; a crash of its machine can lose the last second");
	}

	// INFO server's run_id, changed by every restart and failover; on a cluster, every
	// node's. Null when INFO is refused: the schedule still rechecks.
	private static @Nullable String runId(RedisConnection connection) {
		try {
			Properties info = connection.serverCommands().info("server");
			Set<String> ids = (info != null) ? new TreeSet<>(byNode(info, "run_id").values()) : Set.of();
			return ids.isEmpty() ? null : String.join(",", ids);
		}
		catch (RuntimeException ex) {
			if (unreachable(ex)) {
				throw ex;
			}
			return null;
		}
	}

	// A setting's value by node: "" on one server; on a cluster, where every node answers
	// under "<node>.<name>", "<node>.".
	static Map<String, String> byNode(Properties properties, String name) {
		Map<String, String> values = new TreeMap<>();
		for (String property : properties.stringPropertyNames()) {
			if (property.equals(name) || property.endsWith("." + name)) {
				values.put(property.substring(0, property.length() - name.length()), properties.getProperty(property));
			}
		}
		return values;
	}

	// Refused (renamed away, or denied by an ACL) or unreachable? A server that answers
	// PING is reachable, so the command itself was refused; an unreachable one fails
	// here as any call does.
	static void requireRefused(RedisConnection connection, RuntimeException ex) {
		if (unreachable(ex)) {
			throw ex;
		}
		connection.ping();
	}

	// A failure to reach the server, as Spring Data Redis translates it, rather than a
	// command the server refused.
	private static boolean unreachable(RuntimeException ex) {
		return ex instanceof DataAccessResourceFailureException || ex instanceof TransientDataAccessException;
	}

	/**
	 * A reading of the server.
	 *
	 * @param runId the server's {@code run_id}, or null when {@code INFO} was refused
	 * @param durability the verdict
	 */
	record Reading(@Nullable String runId, RedisDurability durability) {

	}

}
