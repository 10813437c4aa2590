package dev.ferry.remoting.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.CapturedLog;
import dev.ferry.format.Clock;
import dev.ferry.remoting.ConnectionEvent;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How a connection's failure is closed and told: the log line it leaves, the event it sends. */
class CommandHandlerTest {
    private final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
    private CapturedLog log;

    @BeforeEach
    void listen() {
        log = CapturedLog.of(CommandHandler.class);
    }

    @AfterEach
    void stopListening() {
        log.close();
    }

    private EmbeddedChannel channel() {
        return new EmbeddedChannel(new CommandHandler(new ChannelInvoker(8, 8, Runnable::run, Clock.system()),
                new RequestDispatcher(OutboundBudget.UNLIMITED, Clock.system()), events::add));
    }

    @Test
    void shouldCloseAResetConnectionWithOneLineAndNoStackTrace() {
        EmbeddedChannel channel = channel();

        channel.pipeline().fireExceptionCaught(new IOException("Connection reset"));

        assertThat(channel.isOpen()).isFalse();
        assertThat(log.atLeast(Level.INFO)).filteredOn(r -> r.getMessage().startsWith("closing connection"))
                .singleElement().satisfies(record -> {
                    assertThat(record.getLevel()).isEqualTo(Level.INFO);
                    assertThat(record.getThrown()).isNull();
                    assertThat(CapturedLog.text(record)).contains("Connection reset");
                });
        assertThat(events).extracting(ConnectionEvent::type).contains(ConnectionEvent.Type.EXCEPTION);
    }

    @Test
    void shouldKeepTheStackTraceOfAnUnexpectedFailure() {
        EmbeddedChannel channel = channel();

        channel.pipeline().fireExceptionCaught(new IllegalStateException("a bug"));

        assertThat(channel.isOpen()).isFalse();
        assertThat(log.atLeast(Level.INFO)).filteredOn(r -> r.getMessage().contains("after an error"))
                .singleElement()
                .satisfies(record -> {
                    assertThat(record.getLevel()).isEqualTo(Level.WARNING);
                    assertThat(record.getThrown()).hasMessage("a bug");
                });
    }
}
