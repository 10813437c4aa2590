package dev.ferry.bench.faults;

import java.util.List;

/**
 * A consumer of a fault run that the harness does not run as a client process of its own, an application server's
 * message-driven bean say: the harness starts it against the run's cluster, kills and restarts it as the plan's
 * CONSUMER_KILL faults say, and checks what it {@linkplain #receipts() recorded} against its group's promise.
 */
public interface ExternalConsumer extends AutoCloseable {
    /** Its name: a CONSUMER_KILL target of the plan, and the process of its receipts in the history. */
    String name();

    /** The group it consumes in, and what that group promises. */
    ConsumerGroup group();

    /** Starts it against the cluster whose name servers clients reach at {@code nameServers}, {@code host:port;...}. */
    void start(String nameServers) throws Exception;

    /** Kills it at once, as a crash would. */
    void kill() throws Exception;

    /** Starts it again after a kill; returns once it consumes. */
    void restart() throws Exception;

    /** Every message it processed so far, one receipt per processing. */
    List<Receipt> receipts() throws Exception;

    /** Stops it. */
    @Override
    void close();
}
