package dev.ferry.server.namesrv;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link NameServer}.
 *
 * @param host          address to listen on
 * @param port          port to listen on (RocketMQ's default 9876; 0 picks a free one)
 * @param brokerExpiry  a broker that has not registered for this long drops out of routes
 * @param scanInterval  how often expired brokers are looked for
 */
public record NameServerConfig(String host, int port, Duration brokerExpiry, Duration scanInterval) {

    public static final int DEFAULT_PORT = 9876;

    public NameServerConfig {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("namesrv port = " + port + ": must be within 0..65535");
        }
        if (brokerExpiry == null || brokerExpiry.isNegative() || brokerExpiry.isZero()) {
            throw new IllegalArgumentException("brokerExpiry = " + brokerExpiry + ": must be a positive duration");
        }
        if (scanInterval == null || scanInterval.isNegative() || scanInterval.isZero()) {
            throw new IllegalArgumentException("scanInterval = " + scanInterval + ": must be a positive duration");
        }
    }

    /** RocketMQ's defaults: 127.0.0.1:9876, brokers expire after 120 s, scanned every 5 s. */
    public static NameServerConfig defaults() {
        return new NameServerConfig("127.0.0.1", DEFAULT_PORT, Duration.ofSeconds(120), Duration.ofSeconds(5));
    }

    public NameServerConfig withPort(int newPort) {
        return new NameServerConfig(host, newPort, brokerExpiry, scanInterval);
    }

    public NameServerConfig withHost(String newHost) {
        return new NameServerConfig(newHost, port, brokerExpiry, scanInterval);
    }
}
