package dev.ferry.remoting;

import java.time.Duration;

/**
 * What a {@link RemotingServer} lets its clients hold, validated once. Part of every server's config (a broker's, a
 * name server's), so that one set of keys bounds both.
 *
 * @param maxConnections               connections open at once; one beyond is closed as it arrives
 * @param maxInboundBytes              bytes all connections' frames over 64 KiB may hold from arrival until processed;
 *                                     smaller frames have a pool of a quarter of this (at least 16 MiB) besides, so
 *                                     clients hogging this one cannot stop consumers and ordinary producers
 * @param maxInboundBytesPerConnection the same for one connection; a connection over it is not read meanwhile
 * @param frameTimeout                 a frame must arrive whole within this of its first bytes
 */
public record RemotingLimits(int maxConnections, long maxInboundBytes, long maxInboundBytesPerConnection,
                             Duration frameTimeout) {

    public RemotingLimits {
        Validation.require(maxConnections > 0, "maxConnections", maxConnections, "must be positive");
        Validation.require(maxInboundBytesPerConnection >= RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH,
                "maxInboundBytesPerConnection", maxInboundBytesPerConnection, "must be at least the largest frame, "
                        + RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH + " bytes");
        Validation.require(maxInboundBytes >= maxInboundBytesPerConnection, "maxInboundBytes", maxInboundBytes,
                "must be at least maxInboundBytesPerConnection (" + maxInboundBytesPerConnection + ")");
        Validation.positive("frameTimeout", frameTimeout);
    }

    /**
     * 10,000 connections, 64 MiB per connection, and in total a quarter of the heap within 64 MiB and 512 MiB, so an
     * embedded engine leaves the application server most of its heap; 30 s per frame.
     */
    public static RemotingLimits defaults() {
        return new RemotingLimits(10_000, Math.max(64L << 20, Math.min(512L << 20,
                Runtime.getRuntime().maxMemory() / 4)), 64L << 20, Duration.ofSeconds(30));
    }
}
