package dev.ferry.ra;

import dev.ferry.format.SystemTopics;
import dev.ferry.server.embedded.EmbeddedEngine;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.util.Arrays;
import java.util.Optional;
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
 * <p>This class is the adapter's JavaBean: its config properties are setters (as JCA requires, on the class the
 * server instantiates; kept here rather than in a superclass, whose annotated setters servers scan unevenly) that
 * only store what they are given. The rest is done by others: {@code AdapterConfigReader} validates the properties
 * all at once into an {@link AdapterConfig}, {@code AdapterLifecycle} starts and stops the engine, the runtime and
 * the {@code EndpointActivations}. Nothing is static: two adapters in one server, pointing at two clusters, share
 * nothing. Threads: {@code start}, {@code stop} and the activation calls come from the server; everything else runs
 * on works of the server's {@code WorkManager}.
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
    private String clusterName = SystemTopics.DEFAULT_CLUSTER;
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

    private final AdapterLifecycle lifecycle = new AdapterLifecycle();

    /** Reads the properties into an {@link AdapterConfig}, naming every bad one, then starts the adapter. */
    @Override
    public void start(BootstrapContext context) throws ResourceAdapterInternalException {
        lifecycle.start(AdapterConfigReader.read(this), context);
    }

    /**
     * Stops every activation (each lets its running deliveries finish and persists its offsets), closes the
     * connection factories' producers, then the embedded engine, which persists everything.
     */
    @Override
    public void stop() {
        lifecycle.stop();
    }

    @Override
    public void endpointActivation(MessageEndpointFactory endpointFactory, ActivationSpec spec)
            throws ResourceException {
        lifecycle.activate(endpointFactory, spec);
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory endpointFactory, ActivationSpec spec) {
        lifecycle.deactivate(endpointFactory, spec);
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
        Arrays.setAll(resources, i -> new DeliveryRecovery());
        return resources;
    }

    /**
     * The running adapter's runtime.
     *
     * @throws ResourceAdapterInternalException when the adapter is not started
     */
    public AdapterRuntime runtime() throws ResourceAdapterInternalException {
        return lifecycle.runtime();
    }

    /** The runtime, while the adapter runs. */
    public Optional<AdapterRuntime> runningRuntime() {
        return lifecycle.runningRuntime();
    }

    /** How many activations deliver now. */
    public int activationCount() {
        return lifecycle.activationCount();
    }

    // JavaBean config properties. Setters only store; start() validates them all (AdapterConfigReader).

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

    @ConfigProperty(defaultValue = SystemTopics.DEFAULT_CLUSTER, description = "Embedded mode: the broker's cluster")
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
