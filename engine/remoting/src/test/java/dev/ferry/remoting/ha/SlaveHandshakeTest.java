package dev.ferry.remoting.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.Credentials;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * A master's handshake with a connection to its HA port: only a hello of its broker name, of a slave's id and, with
 * credentials, signed with them over this connection's nonce, makes the peer a slave; everything else is refused with
 * a reason and closed, and holds no slot.
 */
class SlaveHandshakeTest {
    private static final Credentials BROKER = new Credentials("ferry-broker", "broker-secret");
    private static final byte[] NONCE = "sixteen byte nonce".substring(0, 16).getBytes(StandardCharsets.US_ASCII);

    private final MemoryLog log = new MemoryLog();
    private final Map<Long, SlaveLink> links = new ConcurrentHashMap<>();
    private final List<HaRefusal> refusals = new ArrayList<>();
    private final List<Long> claimed = new ArrayList<>();
    private int slots = HaStreamServer.MAX_SLAVES;
    private final ManualClock clock = new ManualClock();

    private final HaSlaveListener listener = new HaSlaveListener() {
        @Override
        public void acknowledged(Object link, long offset) {
        }

        @Override
        public void slaveGone(Object link) {
        }
    };

    private EmbeddedChannel master(Optional<Credentials> credentials) {
        log.append(new byte[] {1, 2, 3, 4, 5});
        SlaveAdmission admission = new SlaveAdmission(new HaIdentity("broker-a", 0, credentials));
        SlaveSlots places = new SlaveSlots(links, credentials.isPresent(), slots, log, listener, clock);
        return new EmbeddedChannel(new SlaveHandshake(admission, NONCE, (channel, brokerId) -> {
            SlaveSlots.Claim claim = places.claim(brokerId);
            if (claim.link() != null) {
                claimed.add(brokerId);
            }
            return claim;
        }, (channel, refusal, hello) -> refusals.add(refusal)));
    }

    private static byte[] greetingNonce(EmbeddedChannel channel, boolean credentialsRequired) {
        ByteBuf sent = channel.readOutbound();
        assertThat(sent.readableBytes()).isEqualTo(HaGreeting.SIZE);
        HaGreeting greeting = HaGreeting.read(sent).orElseThrow();
        sent.release();
        assertThat(greeting.credentialsRequired()).isEqualTo(credentialsRequired);
        return greeting.nonce();
    }

    private static ByteBuf hello(String brokerName, long brokerId, Optional<Credentials> credentials, byte[] nonce) {
        ByteBuf out = Unpooled.buffer();
        HaHello.of(new HaIdentity(brokerName, brokerId, credentials), nonce).writeTo(out);
        return out;
    }

    /** The verdict the master sent, after which nothing else was written. */
    private static int verdict(EmbeddedChannel channel) {
        ByteBuf result = channel.readOutbound();
        assertThat(result.readInt()).isEqualTo(HaGreeting.MAGIC);
        int code = result.readUnsignedByte();
        result.release();
        return code;
    }

    private void assertRefused(EmbeddedChannel channel, HaRefusal refusal) {
        assertThat(verdict(channel)).isEqualTo(refusal.code());
        assertThat(channel.isOpen()).isFalse();
        assertThat(channel.<Object>readOutbound()).as("nothing of the commit log").isNull();
        assertThat(refusals).containsExactly(refusal);
        assertThat(claimed).as("no slot").isEmpty();
        assertThat(links).isEmpty();
    }

    @Test
    void shouldStreamToASlaveWhoseHelloIsSignedWithTheBrokersCredentials() {
        EmbeddedChannel channel = master(Optional.of(BROKER));
        byte[] nonce = greetingNonce(channel, true);
        ByteBuf hello = hello("broker-a", 1, Optional.of(BROKER), nonce);
        hello.writeLong(0); // its first report, in the same packet
        channel.writeInbound(hello);
        assertThat(verdict(channel)).isEqualTo(HaGreeting.ACCEPTED);
        ByteBuf frame = channel.readOutbound();
        assertThat(frame.readLong()).as("streamed from the start").isZero();
        assertThat(frame.readInt()).isEqualTo(5);
        frame.release();
        assertThat(links).containsOnlyKeys(1L);
        assertThat(refusals).isEmpty();
        channel.close();
        assertThat(links).isEmpty();
    }

    @Test
    void shouldStreamToASlaveOfItsBrokerNameWhenAuthenticationIsOff() {
        EmbeddedChannel channel = master(Optional.empty());
        byte[] nonce = greetingNonce(channel, false);
        channel.writeInbound(hello("broker-a", 2, Optional.empty(), nonce));
        assertThat(verdict(channel)).isEqualTo(HaGreeting.ACCEPTED);
        assertThat(links).containsOnlyKeys(2L);
    }

    @Test
    void shouldRefuseAnOffsetReportInsteadOfAHello() {
        EmbeddedChannel channel = master(Optional.empty());
        greetingNonce(channel, false);
        channel.writeInbound(Unpooled.buffer(8).writeLong(0));
        assertRefused(channel, HaRefusal.NOT_A_HELLO);
    }

    @Test
    void shouldRefuseAHelloAnnouncingMoreThanAHelloMayHoldBeforeItArrives() {
        EmbeddedChannel channel = master(Optional.empty());
        greetingNonce(channel, false);
        channel.writeInbound(Unpooled.buffer().writeInt(HaGreeting.MAGIC).writeShort(HaHello.MAX_BODY + 1));
        assertRefused(channel, HaRefusal.NOT_A_HELLO);
    }

    @Test
    void shouldRefuseAHelloWithBytesLeftOverOrCutShort() {
        EmbeddedChannel longer = master(Optional.empty());
        byte[] nonce = greetingNonce(longer, false);
        ByteBuf hello = hello("broker-a", 1, Optional.empty(), nonce);
        hello.setShort(4, hello.getUnsignedShort(4) + 1);
        longer.writeInbound(hello.writeByte(0));
        assertRefused(longer, HaRefusal.NOT_A_HELLO);

        refusals.clear();
        EmbeddedChannel shorter = master(Optional.empty());
        nonce = greetingNonce(shorter, false);
        hello = hello("broker-a", 1, Optional.empty(), nonce);
        hello.setShort(4, hello.getUnsignedShort(4) - 1);
        shorter.writeInbound(hello.writerIndex(hello.writerIndex() - 1));
        assertRefused(shorter, HaRefusal.NOT_A_HELLO);
    }

    @Test
    void shouldRefuseABrokerNameThatIsNotUtf8() {
        EmbeddedChannel channel = master(Optional.empty());
        greetingNonce(channel, false);
        ByteBuf body = Unpooled.buffer().writeByte(HaGreeting.VERSION).writeLong(1).writeByte(2)
                .writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28}).writeByte(0).writeByte(0);
        channel.writeInbound(Unpooled.buffer().writeInt(HaGreeting.MAGIC).writeShort(body.readableBytes())
                .writeBytes(body));
        assertRefused(channel, HaRefusal.NOT_A_HELLO);
    }

    @Test
    void shouldRefuseAnotherBrokerName() {
        EmbeddedChannel channel = master(Optional.empty());
        byte[] nonce = greetingNonce(channel, false);
        channel.writeInbound(hello("broker-b", 1, Optional.empty(), nonce));
        assertRefused(channel, HaRefusal.WRONG_BROKER_NAME);
    }

    @Test
    void shouldRefuseTheMastersIdOrANegativeOne() {
        for (long id : new long[] {0, -1, Long.MIN_VALUE}) {
            refusals.clear();
            EmbeddedChannel channel = master(Optional.empty());
            byte[] nonce = greetingNonce(channel, false);
            channel.writeInbound(hello("broker-a", id, Optional.empty(), nonce));
            assertRefused(channel, HaRefusal.BAD_BROKER_ID);
        }
    }

    @Test
    void shouldRefuseAnUnsignedHelloWhenTheMasterHasCredentials() {
        EmbeddedChannel channel = master(Optional.of(BROKER));
        byte[] nonce = greetingNonce(channel, true);
        channel.writeInbound(hello("broker-a", 1, Optional.empty(), nonce));
        assertRefused(channel, HaRefusal.CREDENTIALS_REQUIRED);
    }

    @Test
    void shouldRefuseAWrongSecretAnotherAccessKeyAndASignatureOfAnotherNonce() {
        byte[] otherNonce = Arrays.copyOf(NONCE, NONCE.length);
        otherNonce[0]++;
        List<java.util.function.Function<byte[], ByteBuf>> hellos = List.of(
                nonce -> hello("broker-a", 1, Optional.of(new Credentials("ferry-broker", "guessed")), nonce),
                nonce -> hello("broker-a", 1, Optional.of(new Credentials("someone", "broker-secret")), nonce),
                nonce -> hello("broker-a", 1, Optional.of(BROKER), otherNonce), // a hello recorded elsewhere
                // the right name and id, but signed for brokerId 2: the signature covers them
                nonce -> {
                    ByteBuf hello = hello("broker-a", 2, Optional.of(BROKER), nonce);
                    hello.setLong(HaHello.PREFIX + 1, 1);
                    return hello;
                });
        for (java.util.function.Function<byte[], ByteBuf> hello : hellos) {
            refusals.clear();
            EmbeddedChannel channel = master(Optional.of(BROKER));
            byte[] nonce = greetingNonce(channel, true);
            channel.writeInbound(hello.apply(nonce));
            assertRefused(channel, HaRefusal.BAD_CREDENTIALS);
        }
    }

    @Test
    void shouldRefuseAWrongBrokerNameOnlyAfterTheCredentials() {
        EmbeddedChannel channel = master(Optional.of(BROKER));
        byte[] nonce = greetingNonce(channel, true);
        channel.writeInbound(hello("broker-b", 1, Optional.of(new Credentials("x", "y")), nonce));
        assertRefused(channel, HaRefusal.BAD_CREDENTIALS); // a peer without them learns nothing of the name
    }

    @Test
    void shouldRefuseANewSlaveWhenEverySlotIsHeldButLetAnAuthenticatedOneReconnect() {
        slots = 1;
        EmbeddedChannel first = master(Optional.of(BROKER));
        first.writeInbound(hello("broker-a", 1, Optional.of(BROKER), greetingNonce(first, true)));
        assertThat(verdict(first)).isEqualTo(HaGreeting.ACCEPTED);

        EmbeddedChannel second = master(Optional.of(BROKER));
        second.writeInbound(hello("broker-a", 2, Optional.of(BROKER), greetingNonce(second, true)));
        assertThat(verdict(second)).isEqualTo(HaRefusal.NO_SLOT.code());
        assertThat(second.isOpen()).isFalse();
        assertThat(links).containsOnlyKeys(1L);

        EmbeddedChannel again = master(Optional.of(BROKER));
        again.writeInbound(hello("broker-a", 1, Optional.of(BROKER), greetingNonce(again, true)));
        assertThat(verdict(again)).isEqualTo(HaGreeting.ACCEPTED);
        assertThat(first.isOpen()).as("the newer connection of slave 1 replaces the older").isFalse();
        assertThat(links).containsOnlyKeys(1L);
    }

    @Test
    void shouldKeepAReportingSlaveWhenAnotherConnectionClaimsItsIdWithoutAuthentication() {
        EmbeddedChannel real = master(Optional.empty());
        real.writeInbound(hello("broker-a", 1, Optional.empty(), greetingNonce(real, false)));
        assertThat(verdict(real)).isEqualTo(HaGreeting.ACCEPTED);
        real.writeInbound(Unpooled.buffer(8).writeLong(0));

        EmbeddedChannel impostor = master(Optional.empty());
        impostor.writeInbound(hello("broker-a", 1, Optional.empty(), greetingNonce(impostor, false)));
        assertThat(verdict(impostor)).isEqualTo(HaRefusal.ALREADY_CONNECTED.code());
        assertThat(impostor.isOpen()).isFalse();
        assertThat(real.isOpen()).isTrue();

        clock.advance(SlaveSlots.STALE.plusNanos(1)); // the real slave went quiet: a half-open connection
        EmbeddedChannel reconnected = master(Optional.empty());
        reconnected.writeInbound(hello("broker-a", 1, Optional.empty(), greetingNonce(reconnected, false)));
        assertThat(verdict(reconnected)).isEqualTo(HaGreeting.ACCEPTED);
        assertThat(real.isOpen()).isFalse();
        assertThat(links).containsOnlyKeys(1L);
    }

    @Test
    void shouldKeepTheSecretOutOfTheHelloAndItsDescription() {
        Credentials secret = new Credentials("ferry-broker", "do-not-show-me");
        HaHello hello = HaHello.of(new HaIdentity("broker-a", 1, Optional.of(secret)), NONCE);
        ByteBuf wire = Unpooled.buffer();
        hello.writeTo(wire);
        assertThat(wire.toString(StandardCharsets.ISO_8859_1)).doesNotContain("do-not-show-me");
        assertThat(hello.toString()).doesNotContain("do-not-show-me").contains("ferry-broker");
        assertThat(new HaIdentity("broker-a", 1, Optional.of(secret)).toString()).doesNotContain("do-not-show-me");
    }
}
