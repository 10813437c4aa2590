package dev.ferry.remoting.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Who gives way when a server's connections run out, decided without sockets on a fake clock. */
class ConnectionSlotsTest {
    private final ManualClock clock = new ManualClock();
    private final InetAddress attacker = address(2);
    private final InetAddress client = address(1);

    private static InetAddress address(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private ConnectionSlots.Slot admitted(ConnectionSlots slots, Channel channel, InetAddress from) {
        ConnectionSlots.Admission admission = slots.admit(channel, from);
        assertThat(admission.slot()).as("admitted").isPresent();
        return admission.slot().get();
    }

    @Test
    void shouldCloseTheOldestConnectionThatSentNoRequestWhenTheTotalIsFull() {
        ConnectionSlots slots = new ConnectionSlots(3, 3, clock);
        Channel busy = new EmbeddedChannel();
        Channel firstIdle = new EmbeddedChannel();
        Channel secondIdle = new EmbeddedChannel();
        slots.requestArrived(admitted(slots, busy, client));
        admitted(slots, firstIdle, address(3));
        admitted(slots, secondIdle, address(4));

        ConnectionSlots.Admission admission = slots.admit(new EmbeddedChannel(), address(5));

        assertThat(admission.slot()).isPresent();
        assertThat(admission.evicted()).contains(firstIdle);
        assertThat(admission.reason()).contains("3 connections are open");
        assertThat(slots.size()).isEqualTo(3);
        assertThat(slots.evicted()).isEqualTo(1);
    }

    @Test
    void shouldCloseTheConnectionIdleLongestWhenEveryConnectionHasSentRequests() {
        ConnectionSlots slots = new ConnectionSlots(3, 3, clock);
        ConnectionSlots.Slot first = admitted(slots, new EmbeddedChannel(), client);
        Channel quiet = new EmbeddedChannel();
        ConnectionSlots.Slot second = admitted(slots, quiet, address(3));
        ConnectionSlots.Slot third = admitted(slots, new EmbeddedChannel(), address(4));
        clock.advance(Duration.ofNanos(10));
        slots.requestArrived(second);
        clock.advance(Duration.ofNanos(10));
        slots.requestArrived(first);
        slots.requestArrived(third);
        clock.advance(Duration.ofNanos(10));
        slots.requestArrived(first); // second's request is now the oldest last request

        ConnectionSlots.Admission admission = slots.admit(new EmbeddedChannel(), address(5));

        assertThat(admission.evicted()).contains(quiet);
    }

    @Test
    void shouldLetAnAddressWithAFullShareReplaceOnlyItsOwnSilentConnections() {
        ConnectionSlots slots = new ConnectionSlots(10, 2, clock);
        Channel otherSilent = new EmbeddedChannel();
        admitted(slots, otherSilent, client); // older, but another address's
        Channel silent = new EmbeddedChannel();
        slots.requestArrived(admitted(slots, new EmbeddedChannel(), attacker));
        admitted(slots, silent, attacker);

        ConnectionSlots.Admission admission = slots.admit(new EmbeddedChannel(), attacker);

        assertThat(admission.evicted()).contains(silent);
        assertThat(admission.reason()).contains("source address has 2 connections open");
    }

    @Test
    void shouldRefuseANewConnectionWhenItsAddressHoldsItsShareOfConnectionsThatAllSentRequests() {
        ConnectionSlots slots = new ConnectionSlots(10, 2, clock);
        slots.requestArrived(admitted(slots, new EmbeddedChannel(), attacker));
        slots.requestArrived(admitted(slots, new EmbeddedChannel(), attacker));

        ConnectionSlots.Admission refused = slots.admit(new EmbeddedChannel(), attacker);
        ConnectionSlots.Admission other = slots.admit(new EmbeddedChannel(), client);

        assertThat(refused.slot()).isEmpty();
        assertThat(refused.evicted()).isEmpty();
        assertThat(refused.reason()).contains("2 connections from 127.0.0.2");
        assertThat(other.slot()).isPresent();
        assertThat(slots.refused()).isEqualTo(1);
    }

    @Test
    void shouldGiveBackTheSlotsOfClosedConnectionsOnceEach() {
        ConnectionSlots slots = new ConnectionSlots(2, 1, clock);
        Channel first = new EmbeddedChannel();
        slots.requestArrived(admitted(slots, first, attacker));

        slots.release(first);
        slots.release(first);

        assertThat(slots.size()).isZero();
        assertThat(slots.admit(new EmbeddedChannel(), attacker).slot()).isPresent();
        assertThat(slots.admit(new EmbeddedChannel(), client).slot()).isPresent();
        assertThat(slots.size()).isEqualTo(2);
    }
}
