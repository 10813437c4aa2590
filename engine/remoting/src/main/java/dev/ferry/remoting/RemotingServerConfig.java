package dev.ferry.remoting;

import dev.ferry.format.ConfigProblems;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link RemotingServer}, validated once at construction.
 *
 * @param host              address to bind
 * @param port              port to bind; 0 picks a free one
 * @param ioThreads         Netty event-loop threads for connections (framing and dispatch only)
 * @param maxFrameLength    largest frame accepted, in bytes (RocketMQ's default: 16 MiB)
 * @param maxIdleTime       a connection with no traffic for this long is closed
 * @param asyncPermits      server-initiated asynchronous requests in flight at once
 * @param onewayPermits     server-initiated oneway requests being written at once
 * @param scanInterval      how often expired server-initiated requests are failed
 * @param shutdownTimeout   how long {@code close()} waits for requests being processed
 * @param tls               TLS settings
 * @param maxInboundBytes   bytes the frames of every connection together may hold from their arrival until their
 *                          requests are processed; a connection whose next frame does not fit is not read meanwhile
 * @param maxInboundBytesPerConnection the same for one connection
 * @param frameTimeout      a frame must arrive whole within this of its first bytes, or its connection is closed
 * @param maxConnections    connections open at once (see {@link RemotingLimits#maxConnections()})
 * @param maxConnectionsPerAddress connections open at once from one source address
 * @param firstRequestTimeout a connection must send a whole request within this of its opening
 * @param writeBufferLowWaterMark  see {@link RemotingLimits#writeBufferLowWaterMark()}
 * @param writeBufferHighWaterMark see {@link RemotingLimits#writeBufferHighWaterMark()}
 * @param maxOutboundBytes         see {@link RemotingLimits#maxOutboundBytes()}
 * @param writeStallTimeout        see {@link RemotingLimits#writeStallTimeout()}
 */
public record RemotingServerConfig(String host, int port, int ioThreads, int maxFrameLength, Duration maxIdleTime,
                                   int asyncPermits, int onewayPermits, Duration scanInterval,
                                   Duration shutdownTimeout, TlsConfig tls, long maxInboundBytes,
                                   long maxInboundBytesPerConnection, Duration frameTimeout, int maxConnections,
                                   int maxConnectionsPerAddress, Duration firstRequestTimeout,
                                   int writeBufferLowWaterMark, int writeBufferHighWaterMark, long maxOutboundBytes,
                                   Duration writeStallTimeout) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;

    public RemotingServerConfig {
        Objects.requireNonNull(host, "host");
        CHECK.require(port >= 0 && port <= 65535, "port", port, "must be within 0..65535");
        CHECK.require(ioThreads > 0, "ioThreads", ioThreads, "must be positive");
        CHECK.require(maxFrameLength >= 8, "maxFrameLength", maxFrameLength, "must be at least 8 bytes");
        CHECK.positive("maxIdleTime", maxIdleTime);
        CHECK.require(asyncPermits > 0, "asyncPermits", asyncPermits, "must be positive");
        CHECK.require(onewayPermits > 0, "onewayPermits", onewayPermits, "must be positive");
        CHECK.positive("scanInterval", scanInterval);
        CHECK.notNegative("shutdownTimeout", shutdownTimeout);
        Objects.requireNonNull(tls, "tls");
        CHECK.require(maxInboundBytesPerConnection >= maxFrameLength, "maxInboundBytesPerConnection",
                maxInboundBytesPerConnection, "must be at least maxFrameLength (" + maxFrameLength + ")");
        CHECK.require(maxInboundBytes >= maxInboundBytesPerConnection, "maxInboundBytes", maxInboundBytes,
                "must be at least maxInboundBytesPerConnection (" + maxInboundBytesPerConnection + ")");
        CHECK.positive("frameTimeout", frameTimeout);
        CHECK.require(maxConnections > 0, "maxConnections", maxConnections, "must be positive");
        // one above maxConnections is allowed: it means no share per address
        CHECK.require(maxConnectionsPerAddress > 0, "maxConnectionsPerAddress", maxConnectionsPerAddress,
                "must be positive");
        CHECK.positive("firstRequestTimeout", firstRequestTimeout);
        RemotingLimits.checkOutbound(writeBufferLowWaterMark, writeBufferHighWaterMark, maxOutboundBytes,
                writeStallTimeout);
    }

    /** The limits part of this config. */
    public RemotingLimits limits() {
        return new RemotingLimits(maxConnections, maxConnectionsPerAddress, maxInboundBytes,
                maxInboundBytesPerConnection, frameTimeout, firstRequestTimeout, writeBufferLowWaterMark,
                writeBufferHighWaterMark, maxOutboundBytes, writeStallTimeout);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().host(host).port(port).ioThreads(ioThreads).maxFrameLength(maxFrameLength)
                .maxIdleTime(maxIdleTime).asyncPermits(asyncPermits).onewayPermits(onewayPermits)
                .scanInterval(scanInterval).shutdownTimeout(shutdownTimeout).tls(tls).maxInboundBytes(maxInboundBytes)
                .maxInboundBytesPerConnection(maxInboundBytesPerConnection).frameTimeout(frameTimeout)
                .maxConnections(maxConnections).maxConnectionsPerAddress(maxConnectionsPerAddress)
                .firstRequestTimeout(firstRequestTimeout).writeBufferLowWaterMark(writeBufferLowWaterMark)
                .writeBufferHighWaterMark(writeBufferHighWaterMark).maxOutboundBytes(maxOutboundBytes)
                .writeStallTimeout(writeStallTimeout);
    }

    /** Event loops unless told otherwise: one a core, at most four. */
    public static int defaultIoThreads() {
        return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    /** Builds a {@link RemotingServerConfig}; defaults follow RocketMQ's where users rely on them. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private int ioThreads = defaultIoThreads();
        private int maxFrameLength = DEFAULT_MAX_FRAME_LENGTH;
        private Duration maxIdleTime = Duration.ofSeconds(120);
        private int asyncPermits = 64;
        private int onewayPermits = 256;
        private Duration scanInterval = Duration.ofSeconds(1);
        private Duration shutdownTimeout = Duration.ofSeconds(5);
        private TlsConfig tls = TlsConfig.DISABLED;
        private long maxInboundBytes = RemotingLimits.defaults().maxInboundBytes();
        private long maxInboundBytesPerConnection = RemotingLimits.defaults().maxInboundBytesPerConnection();
        private Duration frameTimeout = RemotingLimits.defaults().frameTimeout();
        private int maxConnections = RemotingLimits.defaults().maxConnections();
        private int maxConnectionsPerAddress = RemotingLimits.defaults().maxConnectionsPerAddress();
        private Duration firstRequestTimeout = RemotingLimits.defaults().firstRequestTimeout();
        private int writeBufferLowWaterMark = RemotingLimits.defaults().writeBufferLowWaterMark();
        private int writeBufferHighWaterMark = RemotingLimits.defaults().writeBufferHighWaterMark();
        private long maxOutboundBytes = RemotingLimits.defaults().maxOutboundBytes();
        private Duration writeStallTimeout = RemotingLimits.defaults().writeStallTimeout();

        public Builder host(String value) {
            this.host = value;
            return this;
        }

        public Builder port(int value) {
            this.port = value;
            return this;
        }

        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        public Builder maxFrameLength(int value) {
            this.maxFrameLength = value;
            return this;
        }

        public Builder maxIdleTime(Duration value) {
            this.maxIdleTime = value;
            return this;
        }

        public Builder asyncPermits(int value) {
            this.asyncPermits = value;
            return this;
        }

        public Builder onewayPermits(int value) {
            this.onewayPermits = value;
            return this;
        }

        public Builder scanInterval(Duration value) {
            this.scanInterval = value;
            return this;
        }

        public Builder shutdownTimeout(Duration value) {
            this.shutdownTimeout = value;
            return this;
        }

        public Builder tls(TlsConfig value) {
            this.tls = value;
            return this;
        }

        /** Sets the limits at once. */
        public Builder limits(RemotingLimits value) {
            return maxConnections(value.maxConnections()).maxConnectionsPerAddress(value.maxConnectionsPerAddress())
                    .maxInboundBytes(value.maxInboundBytes())
                    .maxInboundBytesPerConnection(value.maxInboundBytesPerConnection())
                    .frameTimeout(value.frameTimeout()).firstRequestTimeout(value.firstRequestTimeout())
                    .writeBufferLowWaterMark(value.writeBufferLowWaterMark())
                    .writeBufferHighWaterMark(value.writeBufferHighWaterMark())
                    .maxOutboundBytes(value.maxOutboundBytes()).writeStallTimeout(value.writeStallTimeout());
        }

        public Builder maxInboundBytes(long value) {
            this.maxInboundBytes = value;
            return this;
        }

        public Builder maxInboundBytesPerConnection(long value) {
            this.maxInboundBytesPerConnection = value;
            return this;
        }

        public Builder frameTimeout(Duration value) {
            this.frameTimeout = value;
            return this;
        }

        public Builder maxConnections(int value) {
            this.maxConnections = value;
            return this;
        }

        public Builder maxConnectionsPerAddress(int value) {
            this.maxConnectionsPerAddress = value;
            return this;
        }

        public Builder firstRequestTimeout(Duration value) {
            this.firstRequestTimeout = value;
            return this;
        }

        public Builder writeBufferLowWaterMark(int value) {
            this.writeBufferLowWaterMark = value;
            return this;
        }

        public Builder writeBufferHighWaterMark(int value) {
            this.writeBufferHighWaterMark = value;
            return this;
        }

        public Builder maxOutboundBytes(long value) {
            this.maxOutboundBytes = value;
            return this;
        }

        public Builder writeStallTimeout(Duration value) {
            this.writeStallTimeout = value;
            return this;
        }

        public RemotingServerConfig build() {
            return new RemotingServerConfig(host, port, ioThreads, maxFrameLength, maxIdleTime, asyncPermits,
                    onewayPermits, scanInterval, shutdownTimeout, tls, maxInboundBytes, maxInboundBytesPerConnection,
                    frameTimeout, maxConnections, maxConnectionsPerAddress, firstRequestTimeout,
                    writeBufferLowWaterMark, writeBufferHighWaterMark, maxOutboundBytes, writeStallTimeout);
        }
    }
}
