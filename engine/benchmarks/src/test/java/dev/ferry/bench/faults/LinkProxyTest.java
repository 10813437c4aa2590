package dev.ferry.bench.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy between a client and an echo server: cut, stalled one way, healed. */
class LinkProxyTest {
    private ServerSocket echo;
    private LinkProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread server = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket socket = echo.accept();
                    Thread pump = new Thread(() -> {
                        try (socket; InputStream in = socket.getInputStream();
                             OutputStream out = socket.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // the test closed it
                        }
                    });
                    pump.setDaemon(true);
                    pump.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        server.setDaemon(true);
        server.start();
        proxy = LinkProxy.start("echo", new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", echo.getLocalPort()));
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    /** A connection through the proxy; a read waits long enough for a loaded machine's threads. */
    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", proxy.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static int roundTrip(Socket socket, int value) throws IOException {
        socket.getOutputStream().write(value);
        return socket.getInputStream().read();
    }

    @Test
    void shouldForwardBothWays() throws IOException {
        try (Socket socket = connect()) {
            assertThat(roundTrip(socket, 7)).isEqualTo(7);
        }
    }

    /** Whether the proxy ended the connection: a reset, or an end of stream, instead of an answer. */
    private static boolean ended(Socket socket, int value) {
        try {
            return roundTrip(socket, value) < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void shouldResetOpenAndNewConnectionsWhileCutAndForwardOnceHealed() throws IOException {
        try (Socket open = connect()) {
            assertThat(roundTrip(open, 1)).isEqualTo(1);
            proxy.cut();
            assertThat(ended(open, 2)).as("the open connection ended").isTrue();
        }
        try (Socket refused = connect()) {
            assertThat(ended(refused, 4)).as("a new connection ended").isTrue();
        }
        proxy.heal();
        try (Socket again = connect()) {
            assertThat(roundTrip(again, 5)).isEqualTo(5);
        }
    }

    @Test
    void shouldHoldOneDirectionWhileStalledAndDeliverWhatWaitedOnceHealed() throws Exception {
        try (Socket socket = connect()) {
            proxy.stall(LinkProxy.Direction.TO_CLIENT);
            socket.getOutputStream().write(9);
            socket.setSoTimeout(500); // how long "held" is watched
            assertThatThrownBy(() -> socket.getInputStream().read()).as("the answer is held")
                    .isInstanceOf(SocketTimeoutException.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> proxy.connections() == 1);

            proxy.heal();
            socket.setSoTimeout(5000);
            assertThat(socket.getInputStream().read()).isEqualTo(9);
        }
    }

    @Test
    void shouldHoldOnlyTheDelayedDirection() throws Exception {
        try (Socket socket = connect()) {
            socket.setSoTimeout(5000);
            proxy.delay(LinkProxy.Direction.TO_CLIENT, 300);
            long started = System.nanoTime();
            assertThat(roundTrip(socket, 3)).isEqualTo(3);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));

            proxy.heal();
            assertThat(roundTrip(socket, 4)).isEqualTo(4);
        }
    }

    @Test
    void shouldResetAConnectionWhoseTargetIsDown() throws IOException {
        // a port held by a socket that never listens: refused, and no other process can listen on it meanwhile
        try (Socket holder = new Socket()) {
            holder.bind(new InetSocketAddress("127.0.0.1", 0));
            try (LinkProxy dead = LinkProxy.start("dead", new InetSocketAddress("127.0.0.1", 0),
                    new InetSocketAddress("127.0.0.1", holder.getLocalPort()));
                 Socket socket = new Socket("127.0.0.1", dead.port())) {
                socket.setSoTimeout(5000);
                assertThat(ended(socket, 1)).as("reset, as the target itself would").isTrue();
                await().atMost(Duration.ofSeconds(5)).until(() -> dead.connections() == 0);
            }
        }
    }
}
