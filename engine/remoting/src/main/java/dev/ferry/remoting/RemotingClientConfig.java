package dev.ferry.remoting;

import dev.ferry.format.ConfigProblems;
import dev.ferry.remoting.protocol.SerializeType;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of a {@link RemotingClient}, validated once at construction.
 *
 * @param ioThreads       Netty event-loop threads for all of the client's connections
 * @param callbackThreads threads that complete asynchronous calls, so callbacks never run on
 *                        an event loop
 * @param connectTimeout  how long a connection attempt may take
 * @param maxFrameLength  largest frame accepted, in bytes
 * @param maxIdleTime     a connection with no traffic for this long is closed
 * @param asyncPermits    asynchronous requests in flight at once
 * @param onewayPermits   oneway requests being written at once
 * @param scanInterval    how often expired requests are failed
 * @param serializeType   header serialization of the requests this client sends
 * @param tls             TLS settings
 * @param credentials     when present, every request is signed with them (RocketMQ's ACL); responses are not
 */
public record RemotingClientConfig(int ioThreads, int callbackThreads, Duration connectTimeout, int maxFrameLength,
                                   Duration maxIdleTime, int asyncPermits, int onewayPermits, Duration scanInterval,
                                   SerializeType serializeType, TlsConfig tls,
                                   Optional<Credentials> credentials) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;

    public RemotingClientConfig {
        CHECK.require(ioThreads > 0, "ioThreads", ioThreads, "must be positive");
        CHECK.require(callbackThreads > 0, "callbackThreads", callbackThreads, "must be positive");
        CHECK.positive("connectTimeout", connectTimeout);
        CHECK.require(maxFrameLength >= 8, "maxFrameLength", maxFrameLength, "must be at least 8 bytes");
        CHECK.positive("maxIdleTime", maxIdleTime);
        CHECK.require(asyncPermits > 0, "asyncPermits", asyncPermits, "must be positive");
        CHECK.require(onewayPermits > 0, "onewayPermits", onewayPermits, "must be positive");
        CHECK.positive("scanInterval", scanInterval);
        Objects.requireNonNull(serializeType, "serializeType");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(credentials, "credentials");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this config's values. */
    public Builder toBuilder() {
        return new Builder().ioThreads(ioThreads).callbackThreads(callbackThreads).connectTimeout(connectTimeout)
                .maxFrameLength(maxFrameLength).maxIdleTime(maxIdleTime).asyncPermits(asyncPermits)
                .onewayPermits(onewayPermits).scanInterval(scanInterval).serializeType(serializeType).tls(tls)
                .credentials(credentials.orElse(null));
    }

    /** Builds a {@link RemotingClientConfig}; defaults follow RocketMQ's client. */
    public static final class Builder {
        private int ioThreads = 1;
        private int callbackThreads = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private Duration connectTimeout = Duration.ofSeconds(3);
        private int maxFrameLength = RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH;
        private Duration maxIdleTime = Duration.ofSeconds(120);
        private int asyncPermits = 65535;
        private int onewayPermits = 65535;
        private Duration scanInterval = Duration.ofSeconds(1);
        private SerializeType serializeType = SerializeType.JSON;
        private TlsConfig tls = TlsConfig.DISABLED;
        private Optional<Credentials> credentials = Optional.empty();

        public Builder ioThreads(int value) {
            this.ioThreads = value;
            return this;
        }

        public Builder callbackThreads(int value) {
            this.callbackThreads = value;
            return this;
        }

        public Builder connectTimeout(Duration value) {
            this.connectTimeout = value;
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

        public Builder serializeType(SerializeType value) {
            this.serializeType = value;
            return this;
        }

        /** Signs every request with {@code value} ({@code null}: unsigned). */
        public Builder credentials(Credentials value) {
            this.credentials = Optional.ofNullable(value);
            return this;
        }

        public Builder tls(TlsConfig value) {
            this.tls = value;
            return this;
        }

        public RemotingClientConfig build() {
            return new RemotingClientConfig(ioThreads, callbackThreads, connectTimeout, maxFrameLength, maxIdleTime,
                    asyncPermits, onewayPermits, scanInterval, serializeType, tls, credentials);
        }
    }
}
