package dev.ferry.remoting.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.remoting.Credentials;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A slave's handshake with its master: it answers a Ferry master's greeting with a hello signed over that master's
 * nonce, starts the stream when accepted, reports the master's reason when refused, and follows a master that greets
 * nobody (Apache's) with the classic protocol.
 */
class MasterHandshakeTest {
    private static final Credentials BROKER = new Credentials("ferry-broker", "broker-secret");
    private static final byte[] NONCE = new byte[HaGreeting.NONCE_SIZE];

    private final List<Boolean> accepted = new ArrayList<>();
    private final List<String> refused = new ArrayList<>();
    private final MasterHandshake handshake = new MasterHandshake(new HaIdentity("broker-a", 1, Optional.of(BROKER)),
            new MasterHandshake.Outcome() {
                @Override
                public void accepted(ChannelHandlerContext ctx, boolean classic) {
                    accepted.add(classic);
                }

                @Override
                public void refused(String why) {
                    refused.add(why);
                }
            });
    private final EmbeddedChannel channel = new EmbeddedChannel(handshake);

    private static ByteBuf greeting() {
        ByteBuf out = Unpooled.buffer();
        new HaGreeting(true, NONCE).writeTo(out);
        return out;
    }

    private static ByteBuf result(int code) {
        ByteBuf out = Unpooled.buffer();
        HaGreeting.writeResult(out, code);
        return out;
    }

    @Test
    void shouldAnswerTheGreetingWithAHelloSignedOverItsNonceAndStartWhenAccepted() {
        channel.writeInbound(greeting());
        ByteBuf hello = channel.readOutbound();
        assertThat(hello.readInt()).isEqualTo(HaGreeting.MAGIC);
        HaHello sent = HaHello.read(hello.readSlice(hello.readUnsignedShort())).orElseThrow();
        assertThat(sent.brokerName()).isEqualTo("broker-a");
        assertThat(sent.brokerId()).isEqualTo(1);
        assertThat(sent.signedBy(BROKER, NONCE)).isTrue();
        assertThat(accepted).isEmpty();

        channel.writeInbound(result(HaGreeting.ACCEPTED));
        assertThat(accepted).containsExactly(false);
        assertThat(handshake.done()).isTrue();
        assertThat(channel.pipeline().get(MasterHandshake.class)).as("out of the stream's way").isNull();
    }

    @Test
    void shouldReportTheMastersReasonWhenRefused() {
        channel.writeInbound(greeting());
        channel.writeInbound(result(HaRefusal.WRONG_BROKER_NAME.code()));
        assertThat(refused).singleElement().asString().contains("brokerName is not the master's");
        assertThat(accepted).isEmpty();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void shouldFollowAMasterThatGreetsNobodyWithTheClassicProtocol() {
        handshake.greetingOverdue();
        assertThat(accepted).containsExactly(true);
        assertThat(channel.<Object>readOutbound()).as("no hello to an Apache master").isNull();
    }

    @Test
    void shouldCloseWhenTheMasterBeganTheHandshakeAndStalled() {
        channel.writeInbound(greeting());
        handshake.greetingOverdue();
        assertThat(refused).singleElement().asString().contains("did not complete");
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void shouldCloseWhenTheMasterSpeaksSomethingElse() {
        channel.writeInbound(Unpooled.buffer().writeZero(HaGreeting.SIZE));
        assertThat(refused).singleElement().asString().contains("no Ferry master's greeting");
        assertThat(channel.isOpen()).isFalse();
    }
}
