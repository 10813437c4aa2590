package dev.ferry.bench.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy in front of one port, so that a run can break the link as a network would, without root: {@link #cut()}
 * resets every connection and every new one (a firewall's REJECT, a host gone), {@link #stall(Direction)} stops the
 * bytes of one or both directions without closing anything (a partition's DROP: the sender's data waits in buffers and
 * arrives once {@link #heal() healed}, unless a side gave up first), {@link #delay(Direction, long)} holds every chunk
 * of one or both directions that long (a slow link; chunks queue behind each other, as on a congested one).
 * One thread accepts; each connection has a thread per direction.
 */
final class LinkProxy implements AutoCloseable {
    /** Which way bytes go: from the party that connects to the proxied port, or back to it. */
    enum Direction { TO_SERVER, TO_CLIENT }

    private final String name;
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private boolean cut;
    private boolean stalledToServer;
    private boolean stalledToClient;
    private volatile long delayToServer;
    private volatile long delayToClient;
    private volatile boolean closed;

    private LinkProxy(String name, ServerSocket listener, InetSocketAddress target) {
        this.name = name;
        this.listener = listener;
        this.target = target;
    }

    /** A proxy listening on {@code listen} that forwards to {@code target}, accepting at once. */
    static LinkProxy start(String name, InetSocketAddress listen, InetSocketAddress target) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(listen, 128);
        LinkProxy proxy = new LinkProxy(name, socket, target);
        Thread accepting = new Thread(proxy::accept, "proxy-" + name);
        accepting.setDaemon(true);
        accepting.start();
        return proxy;
    }

    String name() {
        return name;
    }

    /** {@code host:port} clients use. */
    String address() {
        return listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Resets every connection and each new one until {@link #heal()}. */
    void cut() {
        synchronized (gate) {
            cut = true;
            gate.notifyAll();
        }
        open.forEach(LinkProxy::reset);
    }

    /** Stops forwarding in {@code direction} (both when null), keeping the connections, until {@link #heal()}. */
    void stall(Direction direction) {
        synchronized (gate) {
            stalledToServer |= direction == null || direction == Direction.TO_SERVER;
            stalledToClient |= direction == null || direction == Direction.TO_CLIENT;
        }
    }

    /** Holds every chunk going {@code direction} (both when null) {@code millis} before forwarding it, until healed. */
    void delay(Direction direction, long millis) {
        if (direction != Direction.TO_CLIENT) {
            delayToServer = millis;
        }
        if (direction != Direction.TO_SERVER) {
            delayToClient = millis;
        }
    }

    /** Forwards again as before any fault. */
    void heal() {
        synchronized (gate) {
            cut = false;
            stalledToServer = false;
            stalledToClient = false;
            gate.notifyAll();
        }
        delayToServer = 0;
        delayToClient = 0;
    }

    /** Connections open through the proxy now. */
    int connections() {
        return open.size() / 2;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            synchronized (gate) {
                if (cut) {
                    reset(client);
                    continue;
                }
            }
            Socket server = new Socket();
            try {
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                server.connect(target, 3000);
                if (server.getLocalPort() == target.getPort()
                        && server.getLocalAddress().equals(target.getAddress())) {
                    // nothing listened, and the system gave the socket the target's own port: TCP connected it to
                    // itself (a simultaneous open), which would echo the client's bytes back as if answered
                    throw new IOException("connected to itself: nothing listens at " + target);
                }
            } catch (IOException e) {
                // the process behind is down: the connecting party sees a reset, as it would without the proxy
                reset(client);
                closeQuietly(server);
                continue;
            }
            open.add(client);
            open.add(server);
            pump(client, server, Direction.TO_SERVER);
            pump(server, client, Direction.TO_CLIENT);
        }
    }

    private void pump(Socket from, Socket to, Direction direction) {
        Thread thread = new Thread(() -> {
            byte[] chunk = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(chunk)) >= 0) {
                    if (!awaitOpen(direction)) {
                        break;
                    }
                    long delay = direction == Direction.TO_SERVER ? delayToServer : delayToClient;
                    if (delay > 0) {
                        TimeUnit.MILLISECONDS.sleep(delay); // the fault itself: a slow link
                    }
                    out.write(chunk, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // either side closed or reset: close both below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "proxy-" + name + "-" + direction);
        thread.setDaemon(true);
        thread.start();
    }

    /** Waits while {@code direction} is stalled; false once the link is cut. */
    private boolean awaitOpen(Direction direction) throws InterruptedException {
        synchronized (gate) {
            while (!cut && (direction == Direction.TO_SERVER ? stalledToServer : stalledToClient)) {
                gate.wait();
            }
            return !cut;
        }
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0); // an RST, not an orderly close
        } catch (SocketException e) {
            // closing it is all that is left
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public void close() {
        closed = true;
        heal();
        try {
            listener.close();
        } catch (IOException e) {
            // closing
        }
        open.forEach(LinkProxy::closeQuietly);
    }

    @Override
    public String toString() {
        return name + " " + address() + " -> " + target.getHostString() + ":" + target.getPort();
    }
}
