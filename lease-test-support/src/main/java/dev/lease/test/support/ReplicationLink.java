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

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The replication stream between a primary and its replica, relayed on the loopback
 * interface so that a test can make the replica lag for certain. Pausing the replica's
 * process, or {@code DEBUG SLEEP} on it, leaves the bytes the primary sent in the
 * replica's socket buffer, where it reads them once it runs again, even after the primary
 * died; here, after {@link #hold()}, the bytes from the primary are dropped in the relay
 * and never reach the replica, as in a partition of that one direction. The replica's own
 * messages (its acknowledgements) still pass.
 *
 * @author Lease contributors
 */
final class ReplicationLink implements AutoCloseable {

	private final ServerSocket server;

	private final int primaryPort;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Object lock = new Object();

	private boolean held;

	ReplicationLink(int primaryPort) {
		this.primaryPort = primaryPort;
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread acceptor = new Thread(this::accept, "replication-link-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	// The port the replica replicates from.
	int port() {
		return this.server.getLocalPort();
	}

	// From now on nothing the primary sends reaches the replica. Once this returns, a
	// chunk being forwarded has been written whole, and every later one is dropped.
	void hold() {
		synchronized (this.lock) {
			this.held = true;
		}
	}

	@Override
	public void close() {
		closeQuietly(this.server);
		this.sockets.forEach(ReplicationLink::closeQuietly);
		this.sockets.clear();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket replica = this.server.accept();
				Socket primary;
				try {
					primary = new Socket(InetAddress.getLoopbackAddress(), this.primaryPort);
					// as Redis does on its own sockets: small writes such as
					// acknowledgements go at once
					replica.setTcpNoDelay(true);
					primary.setTcpNoDelay(true);
				}
				catch (IOException ex) {
					// the primary is gone: the replica sees its link fail, as it would
					closeQuietly(replica);
					continue;
				}
				this.sockets.add(replica);
				this.sockets.add(primary);
				relay(primary, replica, true);
				relay(replica, primary, false);
			}
			catch (IOException ex) {
				// closed
			}
		}
	}

	private void relay(Socket from, Socket to, boolean fromPrimary) {
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) != -1) {
					synchronized (this.lock) {
						if (fromPrimary && this.held) {
							continue;
						}
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
			catch (IOException ex) {
				// either side closed
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				this.sockets.remove(from);
				this.sockets.remove(to);
			}
		}, "replication-link-relay");
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// torn down already
		}
	}

}
