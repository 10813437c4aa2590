package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FixedPortsTest {
    private static final List<String> LOOPBACK = List.of("127.0.0.1");

    @Test
    void shouldPickAPortBelowTheEphemeralRangeThatCanBeBound() throws IOException {
        int port = FixedPorts.pick(new Random(1), true, LOOPBACK);

        assertThat(port).isBetween(20_000, 31_998);
        try (ServerSocket first = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"));
             ServerSocket next = new ServerSocket(port + 1, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(first.getLocalPort() + 1).isEqualTo(next.getLocalPort());
        }
    }

    @Test
    void shouldSeeABoundPortAsTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThat(FixedPorts.isFree(taken.getLocalPort(), LOOPBACK)).isFalse();
        }
    }

    @Test
    void shouldGiveUpWithAClearErrorWhenNoHostCanBeBound() {
        // an address of no interface of this machine: nothing can be bound there
        assertThatThrownBy(() -> FixedPorts.pick(new Random(1), false, List.of("192.0.2.1")))
                .isInstanceOf(IOException.class).hasMessageContaining("no free port below 32000");
    }
}
