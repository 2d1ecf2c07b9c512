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
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A MariaDB server of a test's own, for a fault the shared one must never be put in (a
 * full connection table): {@code mariadbd} on a free port of the loopback address, with a
 * data directory made for it by {@code mariadb-install-db} and deleted when it stops.
 * Without the server's binaries the test is skipped.
 *
 * @author Lease contributors
 */
public final class MariadbTestServer implements AutoCloseable {

	private static final File SERVER = new File("/usr/sbin/mariadbd");

	private static final File INSTALL = new File("/usr/bin/mariadb-install-db");

	private final Path directory;

	private final Process process;

	private final int port;

	private MariadbTestServer(Path directory, Process process, int port) {
		this.directory = directory;
		this.process = process;
		this.port = port;
	}

	/**
	 * Start a server with the given settings ({@code --max-connections=12}, ...), and a
	 * {@code test} database.
	 * @param settings the server's options
	 * @return the started server
	 */
	public static MariadbTestServer start(String... settings) {
		Assumptions.assumeTrue(SERVER.canExecute() && INSTALL.canExecute(),
				"MariaDB server binaries (" + SERVER + ", " + INSTALL + ") are not installed");
		try {
			Path directory = Files.createTempDirectory("lease-mariadb-");
			run(List.of(INSTALL.getPath(), "--no-defaults", "--datadir=" + directory.resolve("data"), "--user=root",
					"--auth-root-authentication-method=normal", "--skip-test-db"), directory.resolve("install.log"));
			int port = freePort();
			List<String> command = new ArrayList<>(List.of(SERVER.getPath(), "--no-defaults",
					"--datadir=" + directory.resolve("data"), "--user=root", "--port=" + port,
					"--bind-address=127.0.0.1", "--socket=" + directory.resolve("socket"), "--skip-log-bin"));
			command.addAll(List.of(settings));
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(directory.resolve("server.log").toFile())
				.start();
			MariadbTestServer server = new MariadbTestServer(directory, process, port);
			server.awaitReady();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start a MariaDB server of the test's own", ex);
		}
	}

	/**
	 * Return the port the server listens on.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Return the JDBC URL of the server's {@code test} database, as root.
	 * @return the URL
	 */
	public String url() {
		return "jdbc:mariadb://127.0.0.1:" + this.port + "/test?user=root";
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
		}
		catch (IOException ex) {
			// a temporary directory
		}
	}

	private void awaitReady() {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (true) {
			try (Connection connection = DriverManager
				.getConnection("jdbc:mariadb://127.0.0.1:" + this.port + "/?user=root");
					Statement statement = connection.createStatement()) {
				statement.execute("CREATE DATABASE IF NOT EXISTS test");
				return;
			}
			catch (SQLException ex) {
				if (!this.process.isAlive() || System.nanoTime() > deadline) {
					close();
					throw new IllegalStateException("The MariaDB server of the test's own did not start", ex);
				}
				sleep();
			}
		}
	}

	private static void run(List<String> command, Path log) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		try {
			if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
				process.destroyForcibly();
				throw new IOException(command.get(0) + " failed: " + Files.readString(log));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while running " + command.get(0), ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static void sleep() {
		try {
			TimeUnit.MILLISECONDS.sleep(200);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
