package dev.ferry.client;

import static dev.ferry.client.ConfigCheck.CLIENT;

import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Settings of one {@link FerryClient}, shared by all its producers and consumers. Validated once when built.
 *
 * @param nameServerAddresses name servers, {@code host:port}
 * @param clientIp the address this client reports in its client id and message ids
 * @param instanceName second half of the client id; distinct per {@link FerryClient} by default (set it to a
 *     stable name when a broadcasting consumer's local offsets must survive a restart: they are kept per
 *     client id)
 * @param requestTimeout timeout of ordinary requests (routes, heartbeats, offsets)
 * @param routeRefreshInterval how often routes are re-read from the name servers
 * @param heartbeatInterval how often every broker gets a heartbeat
 * @param offsetPersistInterval how often consumers persist their offsets
 * @param localOffsetDirectory where broadcasting consumers keep offset files; empty means broadcasting
 *     consumers must not be created
 * @param remoting the settings of the client's connections
 * @param threadFactory makes every thread of the client
 * @param clock the time rebalance, expiry and retry decisions use, and the monotonic nanoseconds time budgets
 *     (send, poll, consume turns) are measured in
 * @param pluginClassLoaders where allocate strategies, offset stores and filters are looked up, in this order; a
 *     provider class that several of them see counts once
 * @param maxBodySize the largest body a received message may have once inflated; a compressed body that inflates
 *     to more is refused, so no broker can make the client allocate without bound
 * @param metrics whether the client records send and consume latency, failures and per-queue lag
 *     ({@link FerryClient#metrics()})
 */
public record ClientConfig(List<String> nameServerAddresses, String clientIp, String instanceName,
                           Duration requestTimeout, Duration routeRefreshInterval, Duration heartbeatInterval,
                           Duration offsetPersistInterval, Optional<Path> localOffsetDirectory,
                           RemotingClientConfig remoting, ThreadFactory threadFactory, Clock clock,
                           List<ClassLoader> pluginClassLoaders, int maxBodySize, boolean metrics) {
    /** The default {@link #maxBodySize}: far above RocketMQ's 4 MiB message limit, far below a heap. */
    public static final int DEFAULT_MAX_BODY_SIZE = 64 * 1024 * 1024;

    public ClientConfig {
        CLIENT.require(nameServerAddresses != null && !nameServerAddresses.isEmpty(), "nameServerAddresses",
                nameServerAddresses, "at least one name server is needed");
        nameServerAddresses = List.copyOf(nameServerAddresses);
        for (String address : nameServerAddresses) {
            CLIENT.require(address.lastIndexOf(':') > 0, "nameServerAddresses", address, "must be host:port");
        }
        CLIENT.notBlank("clientIp", clientIp);
        CLIENT.notBlank("instanceName", instanceName);
        CLIENT.require(!instanceName.contains("@"), "instanceName", instanceName, "must not contain '@'");
        CLIENT.positive("requestTimeout", requestTimeout);
        CLIENT.positive("routeRefreshInterval", routeRefreshInterval);
        CLIENT.positive("heartbeatInterval", heartbeatInterval);
        CLIENT.positive("offsetPersistInterval", offsetPersistInterval);
        Objects.requireNonNull(localOffsetDirectory, "localOffsetDirectory");
        Objects.requireNonNull(remoting, "remoting");
        Objects.requireNonNull(threadFactory, "threadFactory");
        Objects.requireNonNull(clock, "clock");
        CLIENT.require(pluginClassLoaders != null && !pluginClassLoaders.isEmpty(), "pluginClassLoaders",
                pluginClassLoaders, "at least one class loader is needed");
        pluginClassLoaders = List.copyOf(pluginClassLoaders);
        CLIENT.require(maxBodySize > 0, "maxBodySize", maxBodySize, "must be positive");
    }

    /** The id brokers know this client by: {@code clientIp@instanceName}. */
    public String clientId() {
        return clientIp + "@" + instanceName;
    }

    /** A builder pointing at the given name servers ({@code host:port;host:port} or several arguments). */
    public static Builder builder(String... nameServerAddresses) {
        return new Builder(nameServerAddresses);
    }

    /** Builds a {@link ClientConfig}; defaults follow RocketMQ's client. Not thread-safe. */
    public static final class Builder {
        private final List<String> nameServers;
        private String clientIp = LocalAddress.find();
        private String instanceName = ProcessHandle.current().pid() + "#"
                + Integer.toUnsignedString(ThreadLocalRandom.current().nextInt());
        private Duration requestTimeout = Duration.ofSeconds(3);
        private Duration routeRefreshInterval = Duration.ofSeconds(30);
        private Duration heartbeatInterval = Duration.ofSeconds(30);
        private Duration offsetPersistInterval = Duration.ofSeconds(5);
        private Path localOffsetDirectory;
        private RemotingClientConfig remoting = RemotingClientConfig.builder().build();
        private Credentials credentials;
        private TlsConfig tls;
        private ThreadFactory threadFactory;
        private Clock clock = Clock.system();
        private List<ClassLoader> pluginClassLoaders = List.of(ClientConfig.class.getClassLoader());
        private int maxBodySize = DEFAULT_MAX_BODY_SIZE;
        private boolean metrics;

        private Builder(String... nameServerAddresses) {
            this.nameServers = Arrays.stream(nameServerAddresses)
                    .flatMap(a -> Arrays.stream(a.split(";")))
                    .map(String::trim).filter(a -> !a.isEmpty()).toList();
        }

        public Builder clientIp(String value) {
            this.clientIp = value;
            return this;
        }

        public Builder instanceName(String value) {
            this.instanceName = value;
            return this;
        }

        public Builder requestTimeout(Duration value) {
            this.requestTimeout = value;
            return this;
        }

        public Builder routeRefreshInterval(Duration value) {
            this.routeRefreshInterval = value;
            return this;
        }

        public Builder heartbeatInterval(Duration value) {
            this.heartbeatInterval = value;
            return this;
        }

        public Builder offsetPersistInterval(Duration value) {
            this.offsetPersistInterval = value;
            return this;
        }

        public Builder localOffsetDirectory(Path value) {
            this.localOffsetDirectory = value;
            return this;
        }

        public Builder remoting(RemotingClientConfig value) {
            this.remoting = value;
            return this;
        }

        /**
         * Signs every request as RocketMQ's ACL wants it: {@code accessKey} is the user, {@code secretKey} its
         * password (which never leaves this process).
         */
        public Builder credentials(String accessKey, String secretKey) {
            this.credentials = new Credentials(accessKey, secretKey);
            return this;
        }

        /**
         * Speaks TLS to name servers and brokers, trusting the PEM certificates in {@code trustCertificates} (or,
         * when {@code null}, the JDK's authorities); see {@link TlsConfig} for a client certificate.
         */
        public Builder useTls(Path trustCertificates) {
            return tls(TlsConfig.client(trustCertificates));
        }

        public Builder tls(TlsConfig value) {
            this.tls = value;
            return this;
        }

        public Builder threadFactory(ThreadFactory value) {
            this.threadFactory = value;
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        /** Plugins come from this loader alone (by default: the one that loaded the client). */
        public Builder pluginClassLoader(ClassLoader value) {
            this.pluginClassLoaders = List.of(value);
            return this;
        }

        /** Plugins come from these loaders, looked at in this order. */
        public Builder pluginClassLoaders(List<ClassLoader> value) {
            this.pluginClassLoaders = value;
            return this;
        }

        public Builder maxBodySize(int value) {
            this.maxBodySize = value;
            return this;
        }

        /** Records send and consume latency, failures and per-queue lag (off by default). */
        public Builder metrics(boolean value) {
            this.metrics = value;
            return this;
        }

        public ClientConfig build() {
            ThreadFactory threads = threadFactory != null ? threadFactory
                    : new DaemonThreads("ferry-client-" + instanceName);
            RemotingClientConfig connections = remoting;
            if (credentials != null || tls != null) {
                RemotingClientConfig.Builder changed = remoting.toBuilder();
                if (credentials != null) {
                    changed.credentials(credentials);
                }
                if (tls != null) {
                    changed.tls(tls);
                }
                connections = changed.build();
            }
            return new ClientConfig(nameServers, clientIp, instanceName, requestTimeout, routeRefreshInterval,
                    heartbeatInterval, offsetPersistInterval, Optional.ofNullable(localOffsetDirectory),
                    connections, threads, clock, pluginClassLoaders, maxBodySize, metrics);
        }

    }
}
