package dev.ferry.ra;

import dev.ferry.ra.inbound.DeliveryTransaction;
import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.server.embedded.EmbeddedEngine;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.HintsContext;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import javax.transaction.xa.XAResource;

/**
 * Ferry's resource adapter: in {@code embedded} mode (the default) it runs a name server and a broker inside
 * the application server, in {@code remote} mode it connects to name servers elsewhere. Activations (message
 * driven beans listening with {@link dev.ferry.api.MessageListener}) and connection factories use it.
 *
 * <p>The adapter is described by annotations ({@link Connector}, {@link ConfigProperty}, and
 * {@code @Activation}/{@code @ConnectionDefinition} on the inbound and outbound classes), not by a hand-written
 * {@code ra.xml}: Open Liberty and Payara both read connector annotations from the jars in a .rar, the
 * descriptor cannot drift from the code, and {@code AnnotationsTest} checks that every setter is a declared
 * property. If a server ever misses a property, a {@code src/main/rar/META-INF/ra.xml} with
 * {@code metadata-complete="false"} can add it without losing the rest.
 *
 * <p>Config properties are JavaBean setters (as JCA requires) that only store what they are given; {@link
 * #start} validates them all at once into an {@link AdapterConfig}. Nothing is static: two adapters in one
 * server, pointing at two clusters, share nothing. Threads: {@code start}, {@code stop} and the activation
 * calls come from the server; everything else runs on works of the server's {@code WorkManager}.
 */
@Connector(
        displayName = "Ferry",
        description = "RocketMQ-compatible messaging: an embedded or remote engine, message-driven beans"
                + " and a connection factory",
        vendorName = "Ferry",
        eisType = "RocketMQ-compatible messaging",
        version = "0.1",
        licenseRequired = false,
        reauthenticationSupport = false,
        transactionSupport = TransactionSupport.TransactionSupportLevel.XATransaction)
public class FerryResourceAdapter implements ResourceAdapter {
    private static final System.Logger LOG = System.getLogger(FerryResourceAdapter.class.getName());

    private String mode = "embedded";
    private String nameServer;
    private String host = "127.0.0.1";
    private Integer namesrvPort = 9876;
    private Integer brokerPort = 10911;
    private String storeDir = "ferry-data";
    private String pluginDir;
    // 128 MiB, not ferry-server's 1 GiB: an application server maps, and after a restart reads, the last segment
    // next to its own heap (docs/operations.md, "The embedded engine's memory")
    private Integer commitLogSegmentSize = 128 * 1024 * 1024;
    private String messageDelayLevel = EmbeddedEngine.DEFAULT_MESSAGE_DELAY_LEVEL;
    private String flushMode = "ASYNC_FLUSH";
    private String brokerName = "broker-a";
    private String clusterName = "DefaultCluster";
    private Boolean autoCreateTopics = Boolean.TRUE;
    private Long brokerId = 0L;
    private String threadPlacement = "spawned";
    private String engineConfig;
    private Boolean authenticationEnabled = Boolean.FALSE;
    private Boolean authorizationEnabled = Boolean.FALSE;
    private String initAuthenticationUser;
    private String tlsMode = "disabled";
    private String tlsCertPath;
    private String tlsKeyPath;
    private String tlsTrustCertPath;
    private Boolean tlsNeedClientAuth = Boolean.FALSE;
    private Boolean useTls = Boolean.FALSE;
    private String accessKey;
    private String secretKey;

    private volatile AdapterRuntime runtime;
    private final Map<ActivationKey, AutoCloseable> activations = new ConcurrentHashMap<>();

    /** Identity of one activation: the server passes the same two objects to deactivate it. */
    private record ActivationKey(MessageEndpointFactory factory, ActivationSpec spec) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ActivationKey other && other.factory == factory && other.spec == spec;
        }

        @Override
        public int hashCode() {
            return 31 * System.identityHashCode(factory) + System.identityHashCode(spec);
        }
    }

    @Override
    public void start(BootstrapContext context) throws ResourceAdapterInternalException {
        if (runtime != null) {
            throw new ResourceAdapterInternalException("FERRY-RA-0005 the adapter is started already");
        }
        AdapterConfig config = validate();
        WorkManagerThreadFactory threads = new WorkManagerThreadFactory(context.getWorkManager(),
                config.threadPlacement(), "ferry-ra-engine",
                context.isContextSupported(HintsContext.class), FerryResourceAdapter.class.getClassLoader());
        EmbeddedEngine engine = config.mode() == AdapterConfig.Mode.EMBEDDED ? startEngine(config, threads) : null;
        try {
            this.runtime = new AdapterRuntime(config, threads, engine);
        } catch (RuntimeException e) {
            // the plugin directory went away since validate(), say: nothing the adapter started may outlive start()
            if (engine != null) {
                engine.close();
            }
            String message = "FERRY-RA-0006 cannot start the adapter: " + rootMessage(e);
            LOG.log(Level.ERROR, message, e);
            throw new ResourceAdapterInternalException(message, e);
        }
        if (engine != null && config.nameServer().isPresent()) {
            LOG.log(Level.INFO, "FERRY-RA-0001 started in embedded mode as broker {0} id {1} of cluster {2}, "
                    + "registered with {3}: broker port {4}, store {5}", config.brokerName(),
                    String.valueOf(config.brokerId()), config.clusterName(), runtime.nameServerAddress(),
                    String.valueOf(engine.brokerPort()), config.storeDir().toAbsolutePath());
        } else if (engine != null) {
            LOG.log(Level.INFO, "FERRY-RA-0001 started in embedded mode: name server {0}, broker port {1}, store {2}",
                    runtime.nameServerAddress(), String.valueOf(engine.brokerPort()),
                    config.storeDir().toAbsolutePath());
        } else {
            LOG.log(Level.INFO, "FERRY-RA-0001 started in remote mode: name server {0}", runtime.nameServerAddress());
        }
    }

    private static EmbeddedEngine startEngine(AdapterConfig config, WorkManagerThreadFactory threads)
            throws ResourceAdapterInternalException {
        try {
            Files.createDirectories(config.storeDir());
            return config.engine().threadFactory(threads).start();
        } catch (IOException | RuntimeException e) {
            String message = "FERRY-RA-0003 cannot start the embedded engine (store " + config.storeDir().toAbsolutePath()
                    + ", name server port " + config.namesrvPort() + ", broker port " + config.brokerPort() + "): "
                    + rootMessage(e);
            LOG.log(Level.ERROR, message, e);
            throw new ResourceAdapterInternalException(message, e);
        }
    }

    private static String rootMessage(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = e; t != null && messages.size() < 5; t = t.getCause()) {
            messages.add(t.getMessage() != null ? t.getMessage() : t.getClass().getName());
        }
        return String.join(" <- ", messages);
    }

    /** Checks every property, naming all the bad ones at once. */
    AdapterConfig validate() throws ResourceAdapterInternalException {
        PropertyProblems problems = new PropertyProblems();
        AdapterConfig.Mode parsedMode = problems.parse("mode", String.valueOf(mode), AdapterConfig.Mode::parse,
                "must be embedded or remote").orElse(AdapterConfig.Mode.EMBEDDED);
        Optional<String> names = Optional.ofNullable(nameServer).map(String::trim).filter(s -> !s.isEmpty());
        if (parsedMode == AdapterConfig.Mode.REMOTE) {
            problems.require(names.isPresent(), "nameServer", nameServer, "remote mode needs the name servers");
        }
        names.ifPresent(n -> problems.require(PropertyProblems.isAddressList(n), "nameServer", n,
                "must be host:port, several separated by ';'"));
        problems.require(namesrvPort != null, "namesrvPort", namesrvPort, "must be set");
        problems.require(brokerPort != null, "brokerPort", brokerPort, "must be set");
        problems.require(commitLogSegmentSize != null, "commitLogSegmentSize", commitLogSegmentSize, "must be set");
        problems.require(autoCreateTopics != null, "autoCreateTopics", autoCreateTopics, "must be true or false");
        WorkManagerThreadFactory.Placement placement = problems.parse("threadPlacement",
                String.valueOf(threadPlacement),
                v -> WorkManagerThreadFactory.Placement.valueOf(v.trim().toUpperCase(Locale.ROOT)),
                "must be spawned or work").orElse(null);
        Path store = path(problems, "storeDir", storeDir).orElse(null);
        problems.require(store != null, "storeDir", storeDir, "must be a directory path");
        Optional<Path> plugins = Optional.ofNullable(pluginDir).filter(s -> !s.isBlank())
                .flatMap(p -> path(problems, "pluginDir", p));
        plugins.ifPresent(p -> problems.require(Files.isDirectory(p), "pluginDir", p, "must be an existing directory"));
        Properties settings = engineSettings(problems);
        AdapterSecurity security = new AdapterSecurity(authenticationEnabled, authorizationEnabled,
                initAuthenticationUser, tlsMode, tlsCertPath, tlsKeyPath, tlsTrustCertPath, tlsNeedClientAuth, useTls,
                accessKey, secretKey);
        if (parsedMode == AdapterConfig.Mode.EMBEDDED) {
            security.addEngineSettings(settings, problems);
        }
        Optional<Credentials> credentials = security.credentials(problems);
        TlsConfig clientTls = security.clientTls(parsedMode, problems);
        EmbeddedEngine.Settings engine = EmbeddedEngine.settings(store != null ? store : Path.of("ferry-data"))
                .host(host).messageDelayLevel(messageDelayLevel).flushMode(flushMode)
                .brokerName(brokerName).clusterName(clusterName).engineConfig(settings);
        problems.require(brokerId != null, "brokerId", brokerId, "must be set");
        if (parsedMode == AdapterConfig.Mode.EMBEDDED) {
            names.ifPresent(engine::nameServer); // a broker of that cluster
            if (brokerId != null) {
                engine.brokerId(brokerId);
            }
        }
        if (namesrvPort != null) {
            engine.namesrvPort(namesrvPort);
        }
        if (brokerPort != null) {
            engine.brokerPort(brokerPort);
        }
        if (commitLogSegmentSize != null) {
            engine.commitLogSegmentSize(commitLogSegmentSize);
        }
        for (EmbeddedEngine.Problem problem : engine.problems()) {
            // the engine names the adapter's properties, and its config file engineConfig
            if ("engineConfig".equals(problem.property())) {
                problems.addAlso("engineConfig", engineConfig, problem.rule());
            } else {
                problems.add(problem.property(), problem.value(), problem.rule());
            }
        }
        if (!problems.isEmpty()) {
            String message = "FERRY-RA-0002 " + problems.describe("resource adapter configuration");
            LOG.log(Level.ERROR, message);
            throw new ResourceAdapterInternalException(message);
        }
        return new AdapterConfig(parsedMode, names, host.trim(), namesrvPort, brokerPort, store, plugins,
                commitLogSegmentSize, messageDelayLevel, flushMode, brokerName, clusterName, autoCreateTopics,
                brokerId == null ? 0 : brokerId, placement, settings, credentials, clientTls);
    }

    /** Keys the adapter has properties of its own for: set there, not in the engine config file. */
    private static final java.util.Set<String> ADAPTER_KEYS = java.util.Set.of("host", "namesrvPort", "brokerPort",
            "storeDir", "pluginDir", "commitLogSegmentSize", "delayLevels", "flushMode", "brokerName", "clusterName",
            "autoCreateTopics", "namesrvAddr", "brokerId");

    private Properties engineSettings(PropertyProblems problems) {
        Properties settings = new Properties();
        Optional<Path> file = Optional.ofNullable(engineConfig).filter(s -> !s.isBlank())
                .flatMap(p -> path(problems, "engineConfig", p));
        if (file.isEmpty()) {
            return settings;
        }
        try (java.io.InputStream in = Files.newInputStream(file.get())) {
            settings.load(in);
        } catch (java.io.IOException | IllegalArgumentException e) {
            problems.add("engineConfig", file.get(), "cannot be read as a properties file: " + e.getMessage());
            return settings;
        }
        java.util.List<String> wrong = new java.util.ArrayList<>();
        for (String key : new java.util.TreeSet<>(settings.stringPropertyNames())) {
            String name = EmbeddedEngine.configKeyName(key); // Apache's names of these count too
            if (ADAPTER_KEYS.contains(name)) {
                wrong.add("sets " + key + ", which is the adapter property " + name + ": set it there");
            }
        }
        if (!wrong.isEmpty()) {
            problems.add("engineConfig", file.get(), String.join("; ", wrong));
        }
        return settings;
    }

    private static Optional<Path> path(PropertyProblems problems, String property, String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(value.trim()));
        } catch (InvalidPathException e) {
            problems.add(property, value, "is not a valid path: " + e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Stops every activation (each lets its running deliveries finish and persists its offsets), closes the
     * connection factories' producers, then the embedded engine, which persists everything.
     */
    @Override
    public void stop() {
        AdapterRuntime current = runtime;
        if (current == null) {
            return;
        }
        current.beginStop();
        for (ActivationKey key : List.copyOf(activations.keySet())) {
            deactivate(key);
        }
        current.close();
        runtime = null;
        LOG.log(Level.INFO, "FERRY-RA-0009 stopped");
    }

    @Override
    public void endpointActivation(MessageEndpointFactory endpointFactory, ActivationSpec spec)
            throws ResourceException {
        if (!(spec instanceof Activatable activatable)) {
            throw new NotSupportedException("FERRY-RA-0020 activation spec " + spec + " is not Ferry's");
        }
        AutoCloseable activation = activatable.activate(endpointFactory, runtime());
        activations.put(new ActivationKey(endpointFactory, spec), activation);
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory endpointFactory, ActivationSpec spec) {
        deactivate(new ActivationKey(endpointFactory, spec));
    }

    private void deactivate(ActivationKey key) {
        AutoCloseable activation = activations.remove(key);
        if (activation == null) {
            LOG.log(Level.WARNING, "FERRY-RA-0021 no activation of {0} to deactivate", key.spec());
            return;
        }
        try {
            activation.close();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "FERRY-RA-0022 deactivating " + activation + " failed", e);
        }
    }

    /**
     * One resource per activation spec for the server's recovery of transacted deliveries: a delivery's resource
     * holds nothing durable (a message whose transaction the server lost is simply delivered again), so it reports no
     * branch in doubt and lets the transaction manager finish the other resources of such a transaction, the bean's
     * database first. Outbound branches are recovered through the connection factories' resources.
     */
    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) {
        XAResource[] resources = new XAResource[specs == null ? 0 : specs.length];
        Arrays.setAll(resources, i -> DeliveryTransaction.forRecovery());
        return resources;
    }

    /**
     * The running adapter's runtime.
     *
     * @throws ResourceAdapterInternalException when the adapter is not started
     */
    public AdapterRuntime runtime() throws ResourceAdapterInternalException {
        AdapterRuntime current = runtime;
        if (current == null) {
            throw new ResourceAdapterInternalException("FERRY-RA-0004 the Ferry resource adapter is not started");
        }
        return current;
    }

    /** The runtime, while the adapter runs. */
    public Optional<AdapterRuntime> runningRuntime() {
        return Optional.ofNullable(runtime);
    }

    /** How many activations deliver now. */
    public int activationCount() {
        return activations.size();
    }

    // JavaBean config properties. Setters only store; start() validates.

    public String getMode() {
        return mode;
    }

    @ConfigProperty(defaultValue = "embedded",
            description = "embedded: run a name server and broker in the application server; remote: use nameServer")
    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getNameServer() {
        return nameServer;
    }

    @ConfigProperty(description = "Remote mode: the cluster's name servers, host:port, several separated by ';'."
            + " Embedded mode: unset to run a name server too; set to run a broker only, registered with these name"
            + " servers, so that the engines of several application servers form one cluster")
    public void setNameServer(String nameServer) {
        this.nameServer = nameServer;
    }

    public String getHost() {
        return host;
    }

    @ConfigProperty(defaultValue = "127.0.0.1",
            description = "Embedded mode: the address the name server and broker listen on and advertise")
    public void setHost(String host) {
        this.host = host;
    }

    public Integer getNamesrvPort() {
        return namesrvPort;
    }

    @ConfigProperty(defaultValue = "9876", description = "Embedded mode: the name server's port (0: any free port)")
    public void setNamesrvPort(Integer namesrvPort) {
        this.namesrvPort = namesrvPort;
    }

    public Integer getBrokerPort() {
        return brokerPort;
    }

    @ConfigProperty(defaultValue = "10911", description = "Embedded mode: the broker's port (0: any free port)")
    public void setBrokerPort(Integer brokerPort) {
        this.brokerPort = brokerPort;
    }

    public String getStoreDir() {
        return storeDir;
    }

    @ConfigProperty(defaultValue = "ferry-data", description = "Embedded mode: where the broker keeps messages,"
            + " offsets and topics (relative to the server's working directory); also broadcasting offsets")
    public void setStoreDir(String storeDir) {
        this.storeDir = storeDir;
    }

    public String getPluginDir() {
        return pluginDir;
    }

    @ConfigProperty(description = "A directory of plugin jars (strategies, offset stores, filters) for every activation"
            + " and connection factory, and for the embedded broker")
    public void setPluginDir(String pluginDir) {
        this.pluginDir = pluginDir;
    }

    public String getEngineConfig() {
        return engineConfig;
    }

    @ConfigProperty(description = "Embedded mode: a properties file of more engine settings, with ferry-server's "
            + "--config keys (limits such as maxTopics or maxInboundBytes, flushMode, ...; see docs/operations.md)")
    public void setEngineConfig(String engineConfig) {
        this.engineConfig = engineConfig;
    }

    public Integer getCommitLogSegmentSize() {
        return commitLogSegmentSize;
    }

    @ConfigProperty(defaultValue = "134217728", description = "Embedded mode: bytes per commit-log file (128 MiB; a "
            + "store keeps the size it was made with)")
    public void setCommitLogSegmentSize(Integer commitLogSegmentSize) {
        this.commitLogSegmentSize = commitLogSegmentSize;
    }

    public String getMessageDelayLevel() {
        return messageDelayLevel;
    }

    @ConfigProperty(defaultValue = EmbeddedEngine.DEFAULT_MESSAGE_DELAY_LEVEL, description = "Embedded mode: the broker's delay levels"
            + " (delayed sends; a failed delivery's n-th retry waits level 3 + n), RocketMQ's messageDelayLevel")
    public void setMessageDelayLevel(String messageDelayLevel) {
        this.messageDelayLevel = messageDelayLevel;
    }

    public String getFlushMode() {
        return flushMode;
    }

    @ConfigProperty(defaultValue = "ASYNC_FLUSH", description = "Embedded mode: ASYNC_FLUSH, or SYNC_FLUSH to"
            + " acknowledge a send only once it is on disk (RocketMQ's flushDiskType)")
    public void setFlushMode(String flushMode) {
        this.flushMode = flushMode;
    }

    public String getBrokerName() {
        return brokerName;
    }

    @ConfigProperty(defaultValue = "broker-a", description = "Embedded mode: the broker's name")
    public void setBrokerName(String brokerName) {
        this.brokerName = brokerName;
    }

    public String getClusterName() {
        return clusterName;
    }

    @ConfigProperty(defaultValue = "DefaultCluster", description = "Embedded mode: the broker's cluster")
    public void setClusterName(String clusterName) {
        this.clusterName = clusterName;
    }

    public Long getBrokerId() {
        return brokerId;
    }

    @ConfigProperty(defaultValue = "0", description = "Embedded mode in a cluster: the broker's id in its broker group,"
            + " 0 for a master, 1 and up for a slave of the master of the same brokerName")
    public void setBrokerId(Long brokerId) {
        this.brokerId = brokerId;
    }

    public Boolean getAutoCreateTopics() {
        return autoCreateTopics;
    }

    @ConfigProperty(defaultValue = "true", description = "Embedded mode: whether a first send creates its topic")
    public void setAutoCreateTopics(Boolean autoCreateTopics) {
        this.autoCreateTopics = autoCreateTopics;
    }

    public String getThreadPlacement() {
        return threadPlacement;
    }

    @ConfigProperty(defaultValue = "spawned", description = "spawned: each adapter thread is a dedicated thread"
            + " started by a short work of the server's WorkManager (a server's stop does not wait for it); work:"
            + " each runs on a WorkManager thread for its whole life (Open Liberty's stop then waits 30 s for them)")
    public void setThreadPlacement(String threadPlacement) {
        this.threadPlacement = threadPlacement;
    }

    public Boolean getAuthenticationEnabled() {
        return authenticationEnabled;
    }

    @ConfigProperty(defaultValue = "false", description = "Embedded mode: every request must be signed by an enabled"
            + " user (RocketMQ ACL 2.0)")
    public void setAuthenticationEnabled(Boolean authenticationEnabled) {
        this.authenticationEnabled = authenticationEnabled;
    }

    public Boolean getAuthorizationEnabled() {
        return authorizationEnabled;
    }

    @ConfigProperty(defaultValue = "false", description = "Embedded mode: every request must be allowed by its"
            + " user's ACL")
    public void setAuthorizationEnabled(Boolean authorizationEnabled) {
        this.authorizationEnabled = authorizationEnabled;
    }

    public String getInitAuthenticationUser() {
        return initAuthenticationUser;
    }

    @ConfigProperty(description = "Embedded mode: the first super user, {\"username\":\"...\",\"password\":"
            + "\"...\"}, created when absent; the adapter's clients sign with it unless accessKey is set",
            confidential = true)
    public void setInitAuthenticationUser(String initAuthenticationUser) {
        this.initAuthenticationUser = initAuthenticationUser;
    }

    public String getTlsMode() {
        return tlsMode;
    }

    @ConfigProperty(defaultValue = "disabled", description = "Embedded mode: disabled, permissive or enforcing")
    public void setTlsMode(String tlsMode) {
        this.tlsMode = tlsMode;
    }

    public String getTlsCertPath() {
        return tlsCertPath;
    }

    @ConfigProperty(description = "Embedded mode: the PEM certificate the engine's ports present")
    public void setTlsCertPath(String tlsCertPath) {
        this.tlsCertPath = tlsCertPath;
    }

    public String getTlsKeyPath() {
        return tlsKeyPath;
    }

    @ConfigProperty(description = "Embedded mode: its key, unencrypted PKCS#8 PEM")
    public void setTlsKeyPath(String tlsKeyPath) {
        this.tlsKeyPath = tlsKeyPath;
    }

    public String getTlsTrustCertPath() {
        return tlsTrustCertPath;
    }

    @ConfigProperty(description = "PEM certificates trusted: embedded mode, for clients' certificates; remote mode,"
            + " for the cluster's (default: the JDK's authorities)")
    public void setTlsTrustCertPath(String tlsTrustCertPath) {
        this.tlsTrustCertPath = tlsTrustCertPath;
    }

    public Boolean getTlsNeedClientAuth() {
        return tlsNeedClientAuth;
    }

    @ConfigProperty(defaultValue = "false", description = "Embedded mode: clients must present a certificate")
    public void setTlsNeedClientAuth(Boolean tlsNeedClientAuth) {
        this.tlsNeedClientAuth = tlsNeedClientAuth;
    }

    public Boolean getUseTls() {
        return useTls;
    }

    @ConfigProperty(defaultValue = "false", description = "Remote mode: connect to the cluster with TLS")
    public void setUseTls(Boolean useTls) {
        this.useTls = useTls;
    }

    public String getAccessKey() {
        return accessKey;
    }

    @ConfigProperty(description = "The user the adapter's clients sign requests as, unless a connection factory or"
            + " an activation names its own")
    public void setAccessKey(String accessKey) {
        this.accessKey = accessKey;
    }

    public String getSecretKey() {
        return secretKey;
    }

    @ConfigProperty(description = "That user's password", confidential = true)
    public void setSecretKey(String secretKey) {
        this.secretKey = secretKey;
    }

}
