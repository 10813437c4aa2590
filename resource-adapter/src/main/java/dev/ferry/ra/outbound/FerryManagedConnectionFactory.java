package dev.ferry.ra.outbound;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.client.FerryClient;
import dev.ferry.format.NameRules;
import dev.ferry.ra.AdapterRuntime;
import dev.ferry.ra.FerryResourceAdapter;
import dev.ferry.ra.PropertyProblems;
import dev.ferry.remoting.Credentials;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.security.PasswordCredential;
import java.beans.IntrospectionException;
import java.beans.PropertyDescriptor;
import java.io.PrintWriter;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.security.auth.Subject;

/**
 * Makes {@link FerryConnectionFactory}s and the managed connections behind them. All managed connections of one
 * factory share one producer (created when the first one is, closed when the adapter stops), so a managed
 * connection costs nothing but a few objects and any of them matches any request.
 *
 * <p>Config properties: {@code nameServer} (default: the adapter's, embedded or remote), {@code producerGroup},
 * {@code sendTimeoutMillis}, {@code retries}, {@code accessKey}, {@code secretKey},
 * {@code transactionSupportLevel}, {@code enableMsgTrace} and {@code customizedTraceTopic} (RocketMQ's names). {@link #equals}/{@link
 * #hashCode} compare them (and the adapter). Sends are signed as the user the container passes (container-managed
 * authentication: a {@link PasswordCredential} for this factory in the {@link Subject}, from the server's auth data),
 * else as {@code accessKey}, else as the adapter's user; each user gets a producer of its own, and a managed
 * connection matches only requests of its user. {@code transactionSupport} (XATransaction by default) says whether
 * connections take part in the container's transactions ({@link TransactionBranches}). Thread-safe.
 */
@ConnectionDefinition(
        connectionFactory = FerryConnectionFactory.class,
        connectionFactoryImpl = FerryConnectionFactoryImpl.class,
        connection = FerryConnection.class,
        connectionImpl = FerryConnectionHandle.class)
public class FerryManagedConnectionFactory implements ManagedConnectionFactory, ResourceAdapterAssociation,
        TransactionSupport {
    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger(FerryManagedConnectionFactory.class.getName());
    /** Bounds what one transaction branch holds in memory until it ends. */
    private static final int MAX_MESSAGES_PER_TRANSACTION = 100_000;

    private String nameServer;
    private String producerGroup = "FERRY_RA_PRODUCER";
    private Boolean enableMsgTrace = false;
    private String customizedTraceTopic;
    private Integer sendTimeoutMillis = 3000;
    private Integer retries = 2;
    private String accessKey;
    private String secretKey;
    private String transactionSupport = "XATransaction";

    private transient ResourceAdapter resourceAdapter;
    /** The resource manager of this factory's transactions, shared by its managed connections. */
    private transient TransactionBranches branches;
    private transient PrintWriter logWriter;
    /** One producer per user its sends are signed as (the empty key: the adapter's). */
    private transient Map<Optional<Credentials>, SharedProducer> shared = new HashMap<>();
    private transient AdapterRuntime sharedRuntime;

    @Override
    public Object createConnectionFactory(ConnectionManager connectionManager) {
        return new FerryConnectionFactoryImpl(this, connectionManager);
    }

    /** A factory for use outside an application server: every connection is a new, unpooled one. */
    @Override
    public Object createConnectionFactory() {
        return new FerryConnectionFactoryImpl(this, new UnpooledConnectionManager());
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        OutboundConfig config = validate();
        return new FerryManagedConnection(this, sharedProducer(containerUser(subject).or(config::credentials),
                config), branches());
    }

    private synchronized TransactionBranches branches() {
        if (branches == null) {
            branches = new TransactionBranches(MAX_MESSAGES_PER_TRANSACTION);
        }
        return branches;
    }

    /** The user the container passes in {@code subject} for this factory (container-managed authentication). */
    private Optional<Credentials> containerUser(Subject subject) {
        if (subject != null) {
            for (PasswordCredential credential : subject.getPrivateCredentials(PasswordCredential.class)) {
                ManagedConnectionFactory owner = credential.getManagedConnectionFactory();
                if ((owner == null || owner.equals(this)) && credential.getUserName() != null
                        && credential.getPassword() != null && credential.getPassword().length > 0) {
                    return Optional.of(new Credentials(credential.getUserName(),
                            new String(credential.getPassword())));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The producer of {@code user}'s managed connections: the container's user for this factory, else its
     * {@code accessKey}, else (empty) the adapter's; created on first use.
     */
    private synchronized SharedProducer sharedProducer(Optional<Credentials> user, OutboundConfig config)
            throws ResourceException {
        AdapterRuntime runtime = adapter().runtime();
        if (sharedRuntime != runtime) {
            shared.clear(); // the adapter restarted: the old producers were closed with it
            sharedRuntime = runtime;
        }
        SharedProducer existing = shared.get(user);
        if (existing != null) {
            return existing;
        }
        FerryClient client = null;
        SharedProducer created;
        try {
            client = runtime.newClient("producer-" + config.producerGroup(), config.nameServer(), Optional.empty(),
                    runtime.pluginLoaders(Optional.empty()), user);
            created = new SharedProducer(client, client.producer(config.producerConfig(), branches()::check), user);
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            throw new ResourceException("FERRY-RA-0301 cannot create the producer of group "
                    + config.producerGroup() + ": " + e.getMessage(), e);
        }
        shared.put(user, created);
        runtime.closeAtStop(created);
        LOG.log(Level.INFO, "FERRY-RA-0302 connection factory producer {0} started, name server {1}{2}",
                config.producerGroup(), config.nameServer().orElse(runtime.nameServerAddress()),
                user.map(c -> ", signing as " + c.accessKey()).orElse(""));
        return created;
    }

    private FerryResourceAdapter adapter() throws ResourceAdapterInternalException {
        if (resourceAdapter instanceof FerryResourceAdapter ferry) {
            return ferry;
        }
        throw new ResourceAdapterInternalException("FERRY-RA-0303 the connection factory is not associated with a"
                + " Ferry resource adapter (found " + resourceAdapter + ")");
    }

    /** Checks every property, naming all the bad ones at once. */
    OutboundConfig validate() throws InvalidPropertyException {
        PropertyProblems problems = new PropertyProblems();
        Optional<String> names = Optional.ofNullable(nameServer).map(String::trim).filter(s -> !s.isEmpty());
        names.ifPresent(n -> problems.require(PropertyProblems.isAddressList(n), "nameServer", n,
                "must be host:port, several separated by ';'"));
        String groupProblem = NameRules.groupProblem("producerGroup", producerGroup == null ? null
                : producerGroup.trim());
        problems.require(groupProblem == null, "producerGroup", producerGroup,
                "must follow the group name rules: " + groupProblem);
        problems.require(sendTimeoutMillis != null && sendTimeoutMillis > 0, "sendTimeoutMillis", sendTimeoutMillis,
                "must be positive");
        problems.require(retries != null && retries >= 0, "retries", retries, "must not be negative");
        problems.require(transactionLevel().isPresent(), "transactionSupportLevel", transactionSupport,
                "must be XATransaction, LocalTransaction or NoTransaction");
        Optional<Credentials> credentials = problems.credentials("accessKey", accessKey, "secretKey", secretKey);
        Optional<String> traceTopic = problems.traceTopic(enableMsgTrace, customizedTraceTopic);
        if (!problems.isEmpty()) {
            InvalidPropertyException e = new InvalidPropertyException("FERRY-RA-0304 "
                    + problems.describe("connection factory configuration"));
            e.setInvalidPropertyDescriptors(problems.properties().stream().map(name -> {
                try {
                    return new PropertyDescriptor(name, FerryManagedConnectionFactory.class);
                } catch (IntrospectionException ex) {
                    throw new IllegalStateException("no JavaBean property " + name, ex);
                }
            }).toArray(PropertyDescriptor[]::new));
            throw e;
        }
        return new OutboundConfig(names, producerGroup.trim(), Duration.ofMillis(sendTimeoutMillis), retries,
                credentials, traceTopic);
    }

    /** Any of this factory's managed connections of the same user will do: they share that user's producer. */
    @Override
    public ManagedConnection matchManagedConnections(@SuppressWarnings("rawtypes") Set connections, Subject subject,
                                                     ConnectionRequestInfo info) throws ResourceException {
        // the properties were validated when the pooled connections were made: no full validation per request
        Optional<Credentials> user = containerUser(subject).or(() -> new PropertyProblems().credentials("accessKey",
                accessKey, "secretKey", secretKey));
        for (Object candidate : connections) {
            if (candidate instanceof FerryManagedConnection connection && connection.factory().equals(this)
                    && connection.isUsable() && connection.credentials().equals(user)) {
                return connection;
            }
        }
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /**
     * What the property asks: XATransaction (the default) enlists connections in the container's JTA transactions,
     * LocalTransaction in local ones only, NoTransaction in none (every send is delivered at once).
     */
    @Override
    public TransactionSupportLevel getTransactionSupport() {
        return transactionLevel().orElse(TransactionSupportLevel.NoTransaction);
    }

    private Optional<TransactionSupportLevel> transactionLevel() {
        for (TransactionSupportLevel level : TransactionSupportLevel.values()) {
            if (transactionSupport != null && level.name().equalsIgnoreCase(transactionSupport.trim())) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }

    public String getTransactionSupportLevel() {
        return transactionSupport;
    }

    @ConfigProperty(defaultValue = "XATransaction", description = "XATransaction: sends inside a JTA transaction are "
            + "delivered when it commits; LocalTransaction: in local transactions only; NoTransaction: at once")
    public void setTransactionSupportLevel(String value) {
        this.transactionSupport = value;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter resourceAdapter) {
        this.resourceAdapter = resourceAdapter;
    }

    public String getNameServer() {
        return nameServer;
    }

    @ConfigProperty(description = "Name servers, host:port;host:port (default: the adapter's)")
    public void setNameServer(String nameServer) {
        this.nameServer = nameServer;
    }

    public String getProducerGroup() {
        return producerGroup;
    }

    @ConfigProperty(defaultValue = "FERRY_RA_PRODUCER", description = "The producer group")
    public void setProducerGroup(String producerGroup) {
        this.producerGroup = producerGroup;
    }

    public Integer getSendTimeoutMillis() {
        return sendTimeoutMillis;
    }

    public Boolean getEnableMsgTrace() {
        return enableMsgTrace;
    }

    @ConfigProperty(defaultValue = "false", description = "Write a trace of each send to the trace topic, in "
            + "RocketMQ's format (RocketMQ's enableMsgTrace)")
    public void setEnableMsgTrace(Boolean enableMsgTrace) {
        this.enableMsgTrace = enableMsgTrace;
    }

    public String getCustomizedTraceTopic() {
        return customizedTraceTopic;
    }

    @ConfigProperty(description = "The trace topic (RocketMQ's customizedTraceTopic; default RMQ_SYS_TRACE_TOPIC)")
    public void setCustomizedTraceTopic(String customizedTraceTopic) {
        this.customizedTraceTopic = customizedTraceTopic;
    }

    @ConfigProperty(defaultValue = "3000", description = "How long a send may take, retries included")
    public void setSendTimeoutMillis(Integer sendTimeoutMillis) {
        this.sendTimeoutMillis = sendTimeoutMillis;
    }

    public Integer getRetries() {
        return retries;
    }

    @ConfigProperty(defaultValue = "2", description = "Extra attempts of a failed send, on another broker")
    public void setRetries(Integer retries) {
        this.retries = retries;
    }

    public String getAccessKey() {
        return accessKey;
    }

    @ConfigProperty(description = "The user sends are signed as, unless the container passes one (default: the"
            + " adapter's)")
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

    @Override
    public boolean equals(Object o) {
        return o instanceof FerryManagedConnectionFactory other && Objects.equals(nameServer, other.nameServer)
                && Objects.equals(accessKey, other.accessKey) && Objects.equals(secretKey, other.secretKey)
                && Objects.equals(producerGroup, other.producerGroup)
                && Objects.equals(sendTimeoutMillis, other.sendTimeoutMillis) && Objects.equals(retries, other.retries)
                && Objects.equals(transactionSupport, other.transactionSupport)
                && Objects.equals(enableMsgTrace, other.enableMsgTrace)
                && Objects.equals(customizedTraceTopic, other.customizedTraceTopic)
                && resourceAdapter == other.resourceAdapter;
    }

    /** Over the config properties only (the adapter is associated after the server put it in its tables). */
    @Override
    public int hashCode() {
        return Objects.hash(nameServer, producerGroup, sendTimeoutMillis, retries, accessKey);
    }

    @Override
    public String toString() {
        return "FerryManagedConnectionFactory[producerGroup=" + producerGroup + ", nameServer="
                + (nameServer != null ? nameServer : "the adapter's") + (accessKey != null ? ", accessKey=" + accessKey
                : "") + "]";
    }
}
