package dev.ferry.remoting;

import java.time.Duration;

/**
 * What a {@link RemotingServer} lets its clients hold, validated once. Part of every server's config (a broker's, a
 * name server's), so that one set of keys bounds both.
 *
 * @param maxConnections               connections open at once; when they are all taken, the oldest connection
 *                                     that has not sent a whole request gives way to a new one, else the one idle
 *                                     longest
 * @param maxConnectionsPerAddress     connections open at once from one source address; when they are all taken,
 *                                     the oldest of them that has not sent a whole request gives way, else the new
 *                                     one is refused
 * @param maxInboundBytes              bytes all connections' frames over 64 KiB may hold from arrival until processed;
 *                                     smaller frames have a pool of a quarter of this (at least 16 MiB) besides, so
 *                                     clients hogging this one cannot stop consumers and ordinary producers
 * @param maxInboundBytesPerConnection the same for one connection; a connection over it is not read meanwhile
 * @param frameTimeout                 a frame must arrive whole within this of its first bytes
 * @param firstRequestTimeout          a connection (its TLS handshake included) must send a whole request within this
 *                                     of its opening, or it is closed
 */
public record RemotingLimits(int maxConnections, int maxConnectionsPerAddress, long maxInboundBytes,
                             long maxInboundBytesPerConnection, Duration frameTimeout, Duration firstRequestTimeout) {

    public RemotingLimits {
        Validation.require(maxConnections > 0, "maxConnections", maxConnections, "must be positive");
        // one above maxConnections is allowed: it means no share per address
        Validation.require(maxConnectionsPerAddress > 0, "maxConnectionsPerAddress", maxConnectionsPerAddress,
                "must be positive");
        Validation.require(maxInboundBytesPerConnection >= RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH,
                "maxInboundBytesPerConnection", maxInboundBytesPerConnection, "must be at least the largest frame, "
                        + RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH + " bytes");
        Validation.require(maxInboundBytes >= maxInboundBytesPerConnection, "maxInboundBytes", maxInboundBytes,
                "must be at least maxInboundBytesPerConnection (" + maxInboundBytesPerConnection + ")");
        Validation.positive("frameTimeout", frameTimeout);
        Validation.positive("firstRequestTimeout", firstRequestTimeout);
    }

    /**
     * 10,000 connections, 1,000 of them from one address; 64 MiB per connection, and in total a quarter of the heap
     * within 64 MiB and 512 MiB, so an embedded engine leaves the application server most of its heap; 10 s per frame
     * and for a connection's first request.
     */
    public static RemotingLimits defaults() {
        return new RemotingLimits(10_000, 1_000, Math.max(64L << 20, Math.min(512L << 20,
                Runtime.getRuntime().maxMemory() / 4)), 64L << 20, Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Builds {@link RemotingLimits} from another's values. */
    public static final class Builder {
        private int maxConnections;
        private int maxConnectionsPerAddress;
        private long maxInboundBytes;
        private long maxInboundBytesPerConnection;
        private Duration frameTimeout;
        private Duration firstRequestTimeout;

        private Builder(RemotingLimits from) {
            maxConnections = from.maxConnections;
            maxConnectionsPerAddress = from.maxConnectionsPerAddress;
            maxInboundBytes = from.maxInboundBytes;
            maxInboundBytesPerConnection = from.maxInboundBytesPerConnection;
            frameTimeout = from.frameTimeout;
            firstRequestTimeout = from.firstRequestTimeout;
        }

        public Builder maxConnections(int value) {
            maxConnections = value;
            return this;
        }

        public Builder maxConnectionsPerAddress(int value) {
            maxConnectionsPerAddress = value;
            return this;
        }

        public Builder maxInboundBytes(long value) {
            maxInboundBytes = value;
            return this;
        }

        public Builder maxInboundBytesPerConnection(long value) {
            maxInboundBytesPerConnection = value;
            return this;
        }

        public Builder frameTimeout(Duration value) {
            frameTimeout = value;
            return this;
        }

        public Builder firstRequestTimeout(Duration value) {
            firstRequestTimeout = value;
            return this;
        }

        public RemotingLimits build() {
            return new RemotingLimits(maxConnections, maxConnectionsPerAddress, maxInboundBytes,
                    maxInboundBytesPerConnection, frameTimeout, firstRequestTimeout);
        }
    }
}
