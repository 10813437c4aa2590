package dev.ferry.format;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Random;

/**
 * Ports for test nodes that are killed and started again on the same port: drawn below 32000, under the range the
 * system hands to outgoing connections, so that no client socket takes a killed node's port before it comes back.
 * Shared through this module's test jar by the cluster tests and the fault harness.
 */
public final class FixedPorts {
    private static final int LOWEST = 20_000;
    private static final int BOUND = 32_000;

    private FixedPorts() {
    }

    /**
     * A port free now on every one of {@code hosts}, and with {@code withNext} the one above it too (a broker's HA
     * port).
     *
     * @throws IOException when 200 draws found none
     */
    public static int pick(Random random, boolean withNext, List<String> hosts) throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = LOWEST + random.nextInt(BOUND - LOWEST - 1);
            if (isFree(port, hosts) && (!withNext || isFree(port + 1, hosts))) {
                return port;
            }
        }
        throw new IOException("no free port " + (withNext ? "pair " : "") + "below " + BOUND + " on " + hosts);
    }

    /** Whether {@code port} can be bound now on every one of {@code hosts}. */
    public static boolean isFree(int port, List<String> hosts) {
        for (String host : hosts) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(host))) {
                socket.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
