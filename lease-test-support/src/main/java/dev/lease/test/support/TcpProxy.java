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

import org.jspecify.annotations.Nullable;

/**
 * A TCP proxy on the loopback interface between a host and its server, which a test can
 * make slow, cut, refuse connections through, slow to connect, or turn into a black hole.
 * Traffic goes only to the target given, on this machine.
 *
 * @author Lease contributors
 */
public final class TcpProxy implements AutoCloseable {

	private final ServerSocket server;

	private volatile InetSocketAddress target;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean refusing;

	private volatile long latencyNanos;

	private volatile long connectDelayNanos;

	// Sockets that lost traffic to the black hole: their streams are broken for good.
	private final Set<Socket> swallowed = ConcurrentHashMap.newKeySet();

	private volatile boolean blackhole;

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
	 * Hold each new connection this long before connecting it to the server, as a slow
	 * network or an overloaded server would: the client's connect completes, its first
	 * reply is late.
	 * @param delay the delay, zero for none
	 */
	public void connectDelay(Duration delay) {
		this.connectDelayNanos = delay.toNanos();
	}

	/**
	 * Drop every byte in both directions, silently, until {@link #restore()}: open
	 * connections stay open and new ones are accepted, but nothing crosses, as when a NAT
	 * or firewall forgets a connection after an idle timeout. Neither side is told.
	 */
	public void blackhole() {
		this.blackhole = true;
	}

	/**
	 * Send the connections opened from now on to another server on this machine, as a
	 * name or a virtual address that moves to another server does.
	 * @param port the other server's port on the loopback interface
	 */
	public void redirect(int port) {
		this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
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
	 * Accept new connections again and remove any latency and connect delay. Ending a
	 * black hole cuts the connections it swallowed traffic of, as their streams are
	 * broken, and lets new ones through.
	 */
	public void restore() {
		this.refusing = false;
		this.latencyNanos = 0;
		this.connectDelayNanos = 0;
		if (this.blackhole) {
			this.blackhole = false;
			for (Socket socket : this.swallowed) {
				closeQuietly(socket);
				this.sockets.remove(socket);
			}
			this.swallowed.clear();
		}
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
		this.swallowed.forEach(TcpProxy::closeQuietly);
	}

	private void accept() {
		while (!this.server.isClosed()) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				// The server socket closed.
				continue;
			}
			if (this.refusing) {
				closeQuietly(client);
				continue;
			}
			if (this.blackhole) {
				// Accepted, and never answered.
				this.sockets.add(client);
				this.swallowed.add(client);
				pump(client, null);
				continue;
			}
			long delay = this.connectDelayNanos;
			if (delay > 0) {
				Thread connecting = new Thread(() -> {
					try {
						TimeUnit.NANOSECONDS.sleep(delay);
						connect(client);
					}
					catch (InterruptedException ex) {
						closeQuietly(client);
					}
				}, "tcp-proxy-connect");
				connecting.setDaemon(true);
				connecting.start();
			}
			else {
				connect(client);
			}
		}
	}

	private void connect(Socket client) {
		try {
			InetSocketAddress target = this.target;
			Socket upstream = new Socket(target.getAddress(), target.getPort());
			this.sockets.add(client);
			this.sockets.add(upstream);
			pump(client, upstream);
			pump(upstream, client);
		}
		catch (IOException ex) {
			// The target refused: the client sees a closed connection, which is the fault
			// being simulated.
			closeQuietly(client);
		}
	}

	// Copy from one socket to the other (to none: drop), dropping what is read while
	// the proxy is a black hole.
	private void pump(Socket from, @Nullable Socket to) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream();
					OutputStream out = (to != null) ? to.getOutputStream() : OutputStream.nullOutputStream()) {
				int read;
				while ((read = in.read(buffer)) != -1) {
					if (this.blackhole || to == null) {
						this.swallowed.add(from);
						if (to != null) {
							this.swallowed.add(to);
						}
						continue;
					}
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
				this.sockets.remove(from);
				this.swallowed.remove(from);
				if (to != null) {
					closeQuietly(to);
					this.sockets.remove(to);
					this.swallowed.remove(to);
				}
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
