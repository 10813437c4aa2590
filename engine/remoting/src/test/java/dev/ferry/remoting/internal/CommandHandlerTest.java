package dev.ferry.remoting.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.remoting.ConnectionEvent;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How a connection's failure is closed and told: the log line it leaves, the event it sends. */
class CommandHandlerTest {
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(CommandHandler.class.getName());
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        logger.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(capture);
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
        assertThat(logged).filteredOn(r -> r.getMessage().startsWith("closing connection")).singleElement()
                .satisfies(record -> {
                    assertThat(record.getLevel()).isEqualTo(Level.INFO);
                    assertThat(record.getThrown()).isNull();
                    assertThat(java.text.MessageFormat.format(record.getMessage(), record.getParameters()))
                            .contains("Connection reset");
                });
        assertThat(events).extracting(ConnectionEvent::type).contains(ConnectionEvent.Type.EXCEPTION);
    }

    @Test
    void shouldKeepTheStackTraceOfAnUnexpectedFailure() {
        EmbeddedChannel channel = channel();

        channel.pipeline().fireExceptionCaught(new IllegalStateException("a bug"));

        assertThat(channel.isOpen()).isFalse();
        assertThat(logged).filteredOn(r -> r.getMessage().contains("after an error")).singleElement()
                .satisfies(record -> {
                    assertThat(record.getLevel()).isEqualTo(Level.WARNING);
                    assertThat(record.getThrown()).hasMessage("a bug");
                });
    }
}
