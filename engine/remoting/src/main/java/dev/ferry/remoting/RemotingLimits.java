package dev.ferry.remoting;

import dev.ferry.format.ConfigProblems;
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
 * @param writeBufferLowWaterMark      bytes of answers queued on a connection below which it is read again
 * @param writeBufferHighWaterMark     bytes of answers queued on a connection above which it is not read (its client
 *                                     is behind: TCP pushes back on it); also what a connection may still be given
 *                                     while all answers together hold more than {@code maxOutboundBytes}
 * @param maxOutboundBytes             bytes the answers waiting to be written hold, over all connections; beyond it, a
 *                                     connection whose unwritten answers would exceed the high-water mark is closed
 *                                     instead of being given more
 * @param writeStallTimeout            a connection above its high-water mark whose client takes no byte for this long
 *                                     is closed
 */
public record RemotingLimits(int maxConnections, int maxConnectionsPerAddress, long maxInboundBytes,
                             long maxInboundBytesPerConnection, Duration frameTimeout, Duration firstRequestTimeout,
                             int writeBufferLowWaterMark, int writeBufferHighWaterMark, long maxOutboundBytes,
                             Duration writeStallTimeout) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    /** The least {@code maxOutboundBytes}: one large admin answer (all topics' configs) must fit. */
    public static final long MIN_OUTBOUND_BYTES = 1L << 20;

    public RemotingLimits {
        CHECK.require(maxConnections > 0, "maxConnections", maxConnections, "must be positive");
        // one above maxConnections is allowed: it means no share per address
        CHECK.require(maxConnectionsPerAddress > 0, "maxConnectionsPerAddress", maxConnectionsPerAddress,
                "must be positive");
        CHECK.require(maxInboundBytesPerConnection >= RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH,
                "maxInboundBytesPerConnection", maxInboundBytesPerConnection, "must be at least the largest frame, "
                        + RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH + " bytes");
        CHECK.require(maxInboundBytes >= maxInboundBytesPerConnection, "maxInboundBytes", maxInboundBytes,
                "must be at least maxInboundBytesPerConnection (" + maxInboundBytesPerConnection + ")");
        CHECK.positive("frameTimeout", frameTimeout);
        CHECK.positive("firstRequestTimeout", firstRequestTimeout);
        checkOutbound(writeBufferLowWaterMark, writeBufferHighWaterMark, maxOutboundBytes, writeStallTimeout);
    }

    /** The checks of the outbound limits, which a server's own config repeats. */
    static void checkOutbound(int writeBufferLowWaterMark, int writeBufferHighWaterMark, long maxOutboundBytes,
                              Duration writeStallTimeout) {
        CHECK.require(writeBufferLowWaterMark > 0, "writeBufferLowWaterMark", writeBufferLowWaterMark,
                "must be positive");
        CHECK.require(writeBufferHighWaterMark >= writeBufferLowWaterMark, "writeBufferHighWaterMark",
                writeBufferHighWaterMark, "must be at least writeBufferLowWaterMark (" + writeBufferLowWaterMark + ")");
        CHECK.require(maxOutboundBytes >= Math.max(MIN_OUTBOUND_BYTES, writeBufferHighWaterMark),
                "maxOutboundBytes", maxOutboundBytes, "must be at least " + MIN_OUTBOUND_BYTES
                        + " bytes and at least writeBufferHighWaterMark (" + writeBufferHighWaterMark + ")");
        CHECK.positive("writeStallTimeout", writeStallTimeout);
    }

    /**
     * 10,000 connections, 1,000 of them from one address; 64 MiB per connection, and in total a quarter of the heap
     * within 64 MiB and 512 MiB, so an embedded engine leaves the application server most of its heap; 10 s per frame
     * and for a connection's first request. Answers: Netty's water marks (32 and 64 KiB, what Apache's servers run
     * with unless set), in total the same quarter of the heap as requests, and 30 s for a client that takes nothing.
     */
    public static RemotingLimits defaults() {
        long quarterOfHeap = Math.max(64L << 20, Math.min(512L << 20, Runtime.getRuntime().maxMemory() / 4));
        return new RemotingLimits(10_000, 1_000, quarterOfHeap, 64L << 20, Duration.ofSeconds(10),
                Duration.ofSeconds(10), 32 * 1024, 64 * 1024, quarterOfHeap, Duration.ofSeconds(30));
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
        private int writeBufferLowWaterMark;
        private int writeBufferHighWaterMark;
        private long maxOutboundBytes;
        private Duration writeStallTimeout;

        private Builder(RemotingLimits from) {
            maxConnections = from.maxConnections;
            maxConnectionsPerAddress = from.maxConnectionsPerAddress;
            maxInboundBytes = from.maxInboundBytes;
            maxInboundBytesPerConnection = from.maxInboundBytesPerConnection;
            frameTimeout = from.frameTimeout;
            firstRequestTimeout = from.firstRequestTimeout;
            writeBufferLowWaterMark = from.writeBufferLowWaterMark;
            writeBufferHighWaterMark = from.writeBufferHighWaterMark;
            maxOutboundBytes = from.maxOutboundBytes;
            writeStallTimeout = from.writeStallTimeout;
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

        public Builder writeBufferLowWaterMark(int value) {
            writeBufferLowWaterMark = value;
            return this;
        }

        public Builder writeBufferHighWaterMark(int value) {
            writeBufferHighWaterMark = value;
            return this;
        }

        public Builder maxOutboundBytes(long value) {
            maxOutboundBytes = value;
            return this;
        }

        public Builder writeStallTimeout(Duration value) {
            writeStallTimeout = value;
            return this;
        }

        public RemotingLimits build() {
            return new RemotingLimits(maxConnections, maxConnectionsPerAddress, maxInboundBytes,
                    maxInboundBytesPerConnection, frameTimeout, firstRequestTimeout, writeBufferLowWaterMark,
                    writeBufferHighWaterMark, maxOutboundBytes, writeStallTimeout);
        }
    }
}
