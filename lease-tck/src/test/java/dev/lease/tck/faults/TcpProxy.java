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

package dev.lease.tck.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on the loopback interface between a host and its server, which a test can
 * make slow, cut, or refuse connections through. Traffic goes only to the target given,
 * on this machine.
 *
 * @author Lease contributors
 */
public final class TcpProxy implements AutoCloseable {

	private final ServerSocket server;

	private final InetSocketAddress target;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean refusing;

	private volatile long latencyNanos;

	private TcpProxy(InetSocketAddress target) throws IOException {
		this.target = target;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "tcp-proxy-accept-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Start a proxy to a server on this machine.
	 * @param port the server's port on the loopback interface
	 * @return the running proxy
	 * @throws IOException if no port could be opened
	 */
	public static TcpProxy to(int port) throws IOException {
		return new TcpProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
	}

	/**
	 * Return the port clients connect to.
	 * @return the proxy's port
	 */
	public int port() {
		return this.server.getLocalPort();
	}

	/**
	 * Delay every chunk of traffic in both directions.
	 * @param latency the delay, zero for none
	 */
	public void latency(Duration latency) {
		this.latencyNanos = latency.toNanos();
	}

	/**
	 * Cut every open connection, as a network failure would.
	 */
	public void cut() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	/**
	 * Refuse (accept and close at once) new connections until {@link #restore()}.
	 */
	public void refuse() {
		this.refusing = true;
		cut();
	}

	/**
	 * Accept new connections again and remove any latency.
	 */
	public void restore() {
		this.refusing = false;
		this.latencyNanos = 0;
	}

	/**
	 * Run a call with the given latency on the proxy, cut every connection after the
	 * given delay (before its request crossed, or after it crossed but before the reply
	 * did), and let connections through again once the call has ended.
	 * @param call the call to run through the proxy
	 * @param latency the delay each chunk of traffic takes while the call runs
	 * @param cutAfter when to cut, from the start of the call
	 * @return the call's outcome, completed
	 * @throws Exception if waiting for the call failed
	 */
	public CompletableFuture<?> cutWhileInFlight(Runnable call, Duration latency, Duration cutAfter) throws Exception {
		latency(latency);
		CompletableFuture<?> running = CompletableFuture.runAsync(call);
		Thread.sleep(cutAfter.toMillis());
		refuse();
		try {
			running.handle((result, failure) -> null).get(20, TimeUnit.SECONDS);
		}
		finally {
			restore();
		}
		return running;
	}

	@Override
	public void close() {
		closeQuietly(this.server);
		cut();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				if (this.refusing) {
					closeQuietly(client);
					continue;
				}
				Socket upstream = new Socket(this.target.getAddress(), this.target.getPort());
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// The server socket closed, or the target refused: the client sees a
				// closed
				// connection, which is the fault being simulated.
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) != -1) {
					long latency = this.latencyNanos;
					if (latency > 0) {
						Thread.sleep(latency / 1_000_000, (int) (latency % 1_000_000));
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException | InterruptedException ex) {
				// Either side closed or was cut.
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				this.sockets.remove(from);
				this.sockets.remove(to);
			}
		}, "tcp-proxy-pump");
		pump.setDaemon(true);
		pump.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (SocketException ex) {
			// already closed
		}
		catch (Exception ex) {
			// nothing more to do for a socket being torn down
		}
	}

}
