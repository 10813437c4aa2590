package dev.ferry.ra.inbound;

import dev.ferry.api.BatchMessageListener;
import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.api.MessageListener;
import dev.ferry.api.MessageModel;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.RedeliveryPolicy;
import dev.ferry.format.DelayLevels;
import dev.ferry.format.NameRules;
import dev.ferry.ra.Activatable;
import dev.ferry.ra.AdapterRuntime;
import dev.ferry.ra.FerryResourceAdapter;
import dev.ferry.ra.PropertyProblems;
import dev.ferry.remoting.Credentials;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.beans.IntrospectionException;
import java.beans.PropertyDescriptor;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The settings of one message-driven bean listening with {@link MessageListener}, named as RocketMQ users
 * know them. Set them with {@code @ActivationConfigProperty} or the server's configuration. JavaBean setters
 * only store; {@link #validate()} checks every property and reports all the bad ones at once, by name, in an
 * {@link InvalidPropertyException} whose descriptors list them.
 *
 * <ul>
 *   <li>{@code topic}, {@code consumerGroup}: required;</li>
 *   <li>{@code selectorType}: {@code TAG} (default), {@code SQL92} or a filter plugin's name;
 *       {@code selectorExpression}: default {@code *};</li>
 *   <li>{@code messageModel}: {@code CLUSTERING} (default) or {@code BROADCASTING};</li>
 *   <li>{@code consumeMode}: {@code CONCURRENTLY} (default) or {@code ORDERLY}; {@code maxConcurrency}: most
 *       deliveries at once (20);</li>
 *   <li>{@code consumeFromWhere}: {@code CONSUME_FROM_LAST_OFFSET} (default), {@code CONSUME_FROM_FIRST_OFFSET},
 *       {@code CONSUME_FROM_TIMESTAMP} (the {@code CONSUME_FROM_} prefix may be left out);
 *       {@code consumeTimestamp}: {@code yyyyMMddHHmmss} in the server's time zone, as RocketMQ reads it, or
 *       an ISO-8601 instant;</li>
 *   <li>{@code maxReconsumeTimes}: 16; {@code allocateStrategy}: {@code averagely}; {@code offsetStore}: the
 *       model's default; {@code offsetStoreDataSource}: the data source of {@code offsetStore=jdbc};
 *       {@code nameServer}: overrides the adapter's;</li>
 *   <li>{@code maxBatchSize}: most messages of one queue per delivery to a {@link BatchMessageListener} bean (32
 *       for those, 1 and only 1 for a {@link MessageListener} bean); {@code maxBatchWait}: how long a short batch
 *       waits for more ({@code 0}, {@code 200ms}, {@code 1s}; default 0);</li>
 *   <li>{@code pauseQueueAfterFailures}: failed deliveries in a row of one message after which its queue pauses (0,
 *       the default: never; the message goes on to the dead-letter queue after {@code maxReconsumeTimes});</li>
 *   <li>{@code redeliveryDelay} ({@code 5s}), {@code redeliveryMultiplier} (1), {@code maxRedeliveryDelay} (the
 *       delay itself when the multiplier is 1, else 2h): the wait before each redelivery of a failed message.</li>
 * </ul>
 */
@Activation(messageListeners = {MessageListener.class, BatchMessageListener.class})
public class FerryActivationSpec implements ActivationSpec, Activatable {
    private static final Pattern PLUGIN_NAME = Pattern.compile("^[A-Za-z0-9_.-]+$");
    private static final DateTimeFormatter ROCKETMQ_TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss");

    private String topic;
    private String consumerGroup;
    private String selectorType = "TAG";
    private String selectorExpression = "*";
    private String messageModel = "CLUSTERING";
    private String consumeMode = "CONCURRENTLY";
    private Integer maxConcurrency = 20;
    private String consumeFromWhere = "CONSUME_FROM_LAST_OFFSET";
    private String consumeTimestamp;
    private Integer maxReconsumeTimes = 16;
    private String allocateStrategy = "averagely";
    private Boolean enableMsgTrace = false;
    private String customizedTraceTopic;
    private String offsetStore;
    private String offsetStoreDataSource;
    private String nameServer;
    private String accessKey;
    private String secretKey;
    private String userName;
    private String password;
    private Integer maxBatchSize;
    private String maxBatchWait = "0";
    private Integer pauseQueueAfterFailures = 0;
    private String redeliveryDelay;
    private Double redeliveryMultiplier;
    private String maxRedeliveryDelay;
    private ResourceAdapter resourceAdapter;

    /**
     * Checks every property and, once the adapter runs, that the named plugins exist (an unknown one is refused
     * with the names that were found).
     *
     * <p>The container validates a bean's spec in the bean's application, whose class loader is then the thread's
     * context loader: the plugins that application carries are looked up through it here, and through the bean's
     * own class at activation, where a name this check let through is checked again.
     *
     * @throws InvalidPropertyException naming each bad property (message and descriptors)
     */
    @Override
    public void validate() throws InvalidPropertyException {
        ActivationConfig config = toConfig();
        Optional<AdapterRuntime> runtime = resourceAdapter instanceof FerryResourceAdapter adapter
                ? adapter.runningRuntime() : Optional.empty();
        if (runtime.isPresent()) {
            checkPlugins(config, runtime.get(), Optional.ofNullable(Thread.currentThread().getContextClassLoader()));
        }
    }

    private static List<ClassLoader> checkPlugins(ActivationConfig config, AdapterRuntime runtime,
                                                  Optional<ClassLoader> application) throws InvalidPropertyException {
        List<ClassLoader> loaders = runtime.pluginLoaders(application);
        boolean embeddedBroker = runtime.embeddedEngine().isPresent() && config.nameServer().isEmpty();
        PropertyProblems problems = new PropertyProblems();
        new ActivationPlugins(loaders, embeddedBroker).check(config, problems);
        if (!problems.isEmpty()) {
            throw invalid(problems);
        }
        return loaders;
    }

    /** The loader of the bean's class: where the plugin jars its application carries are. */
    private static Optional<ClassLoader> applicationLoader(MessageEndpointFactory endpoints) {
        try {
            Class<?> endpoint = endpoints.getEndpointClass();
            return endpoint == null ? Optional.empty() : Optional.ofNullable(endpoint.getClassLoader());
        } catch (RuntimeException | AbstractMethodError e) {
            return Optional.empty();
        }
    }

    /**
     * The validated settings.
     *
     * @throws InvalidPropertyException naming each bad property (message and descriptors)
     */
    public ActivationConfig toConfig() throws InvalidPropertyException {
        PropertyProblems problems = new PropertyProblems();
        String checkedTopic = text(topic);
        if (checkedTopic == null) {
            problems.add("topic", topic, "is required");
        } else {
            try {
                Message.validateTopic(checkedTopic);
            } catch (InvalidMessageException e) {
                problems.add("topic", topic, e.getMessage());
            }
        }
        String group = text(consumerGroup);
        if (group == null) {
            problems.add("consumerGroup", consumerGroup, "is required");
        } else {
            String problem = NameRules.groupProblem("consumerGroup", group);
            problems.require(problem == null, "consumerGroup", group, "must follow the group name rules: " + problem);
        }
        String type = Optional.ofNullable(text(selectorType)).orElse("TAG");
        if (type.equalsIgnoreCase("TAG") || type.equalsIgnoreCase("SQL92")) {
            type = type.toUpperCase(Locale.ROOT);
        } else {
            problems.require(PLUGIN_NAME.matcher(type).matches(), "selectorType", selectorType,
                    "must be TAG, SQL92 or the name of a filter plugin");
        }
        String expression = Optional.ofNullable(text(selectorExpression)).orElse("*");
        if (type.equals("SQL92")) {
            problems.require(!expression.equals("*"), "selectorExpression", selectorExpression,
                    "an SQL92 selector is needed when selectorType is SQL92");
        }
        MessageModel model = problems.parse("messageModel", messageModel, v -> MessageModel.valueOf(upper(v)),
                PropertyProblems.oneOf(MessageModel.class)).orElse(MessageModel.CLUSTERING);
        ConsumeMode mode = problems.parse("consumeMode", consumeMode, v -> ConsumeMode.valueOf(upper(v)),
                PropertyProblems.oneOf(ConsumeMode.class)).orElse(ConsumeMode.CONCURRENTLY);
        problems.require(maxConcurrency != null && maxConcurrency >= 1 && maxConcurrency <= 1000, "maxConcurrency",
                maxConcurrency, "must be between 1 and 1000");
        ConsumeFromWhere from = problems.parse("consumeFromWhere", consumeFromWhere,
                FerryActivationSpec::consumeFromWhere,
                "must be CONSUME_FROM_LAST_OFFSET, CONSUME_FROM_FIRST_OFFSET or CONSUME_FROM_TIMESTAMP")
                .orElse(ConsumeFromWhere.LAST_OFFSET);
        Optional<Instant> timestamp = Optional.empty();
        if (text(consumeTimestamp) != null) {
            timestamp = problems.parse("consumeTimestamp", consumeTimestamp, FerryActivationSpec::timestamp,
                    "must be yyyyMMddHHmmss (server time zone) or an ISO-8601 instant such as 2026-01-31T12:00:00Z");
        }
        problems.require(maxReconsumeTimes != null && maxReconsumeTimes >= -1 && maxReconsumeTimes <= 10_000,
                "maxReconsumeTimes", maxReconsumeTimes, "must be between 0 and 10000 (-1: RocketMQ's default, 16)");
        String strategy = Optional.ofNullable(text(allocateStrategy)).orElse("averagely");
        problems.require(PLUGIN_NAME.matcher(strategy).matches(), "allocateStrategy", allocateStrategy,
                "must be the name of an allocate strategy plugin");
        Optional<String> store = Optional.ofNullable(text(offsetStore));
        store.ifPresent(s -> problems.require(PLUGIN_NAME.matcher(s).matches(), "offsetStore", s,
                "must be the name of an offset store plugin"));
        Optional<String> storeDataSource = Optional.ofNullable(text(offsetStoreDataSource));
        storeDataSource.ifPresent(d -> {
            problems.require(store.isPresent(), "offsetStoreDataSource", d, "is for an offset store plugin that keeps"
                    + " offsets in a database: set offsetStore too (jdbc)");
            problems.require(d.length() <= 255 && d.chars().noneMatch(Character::isWhitespace),
                    "offsetStoreDataSource", d, "must be a JNDI name such as jdbc/orders");
        });
        Optional<String> names = Optional.ofNullable(text(nameServer));
        names.ifPresent(n -> problems.require(PropertyProblems.isAddressList(n), "nameServer", n,
                "must be host:port, several separated by ';'"));
        Optional<Credentials> credentials = credentials(problems);
        Optional<String> traceTopic = problems.traceTopic(enableMsgTrace, customizedTraceTopic);
        problems.require(maxBatchSize == null || maxBatchSize >= 1 && maxBatchSize <= MAX_BATCH_SIZE, "maxBatchSize",
                maxBatchSize, "must be between 1 and " + MAX_BATCH_SIZE);
        Duration batchWait = duration(problems, "maxBatchWait", maxBatchWait).orElse(Duration.ZERO);
        problems.require(batchWait.compareTo(MAX_BATCH_WAIT) <= 0, "maxBatchWait", maxBatchWait,
                "must be at most " + MAX_BATCH_WAIT.toSeconds() + "s");
        problems.require(pauseQueueAfterFailures != null && pauseQueueAfterFailures >= 0
                && pauseQueueAfterFailures <= 10_000, "pauseQueueAfterFailures", pauseQueueAfterFailures,
                "must be between 0 (never) and 10000");
        Optional<RedeliveryPolicy> redelivery = redelivery(problems);
        if (!problems.isEmpty()) {
            throw invalid(problems);
        }
        int reconsume = maxReconsumeTimes == -1 ? 16 : maxReconsumeTimes;
        return new ActivationConfig(checkedTopic, group, type, expression, model, mode, maxConcurrency, from,
                timestamp, reconsume, strategy, store, storeDataSource, names, credentials, traceTopic,
                maxBatchSize == null ? 0 : maxBatchSize, batchWait, pauseQueueAfterFailures, redelivery);
    }

    /** The largest {@code maxBatchSize}: a batch is one endpoint call and, transacted, one transaction. */
    static final int MAX_BATCH_SIZE = 1024;
    /** The longest {@code maxBatchWait}. */
    static final Duration MAX_BATCH_WAIT = Duration.ofSeconds(10);
    /** The longest redelivery delay without a multiplier of 1: RocketMQ's highest delay level. */
    static final Duration DEFAULT_MAX_REDELIVERY_DELAY = Duration.ofHours(2);

    /** A duration such as {@code 0}, {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}; empty when unset. */
    private static Optional<Duration> duration(PropertyProblems problems, String name, String value) {
        String text = text(value);
        if (text == null) {
            return Optional.empty();
        }
        if (text.equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        return problems.parse(name, value, v -> DelayLevels.parseDuration(v, name),
                "must be a number with a unit: 500ms, 5s, 2m, 1h");
    }

    /** The redelivery policy, when {@code redeliveryDelay} is set; its other two properties need it. */
    private Optional<RedeliveryPolicy> redelivery(PropertyProblems problems) {
        Optional<Duration> initial = duration(problems, "redeliveryDelay", redeliveryDelay);
        Optional<Duration> max = duration(problems, "maxRedeliveryDelay", maxRedeliveryDelay);
        if (initial.isEmpty()) {
            problems.require(redeliveryMultiplier == null, "redeliveryMultiplier", redeliveryMultiplier,
                    "needs redeliveryDelay");
            problems.require(text(maxRedeliveryDelay) == null, "maxRedeliveryDelay", maxRedeliveryDelay,
                    "needs redeliveryDelay");
            return Optional.empty();
        }
        problems.require(!initial.get().isZero(), "redeliveryDelay", redeliveryDelay, "must be positive");
        double multiplier = redeliveryMultiplier == null ? 1 : redeliveryMultiplier;
        problems.require(multiplier >= 1 && multiplier <= 100, "redeliveryMultiplier", redeliveryMultiplier,
                "must be between 1 and 100");
        Duration largest = max.orElse(multiplier == 1 ? initial.get() : DEFAULT_MAX_REDELIVERY_DELAY);
        problems.require(largest.compareTo(initial.get()) >= 0, "maxRedeliveryDelay", maxRedeliveryDelay,
                "must not be shorter than redeliveryDelay (" + redeliveryDelay + ")");
        if (!problems.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RedeliveryPolicy(initial.get(), multiplier, largest));
    }

    /**
     * The user this activation signs as: {@code accessKey}/{@code secretKey}, or {@code userName}/{@code password}
     * (what Liberty sets from an activation spec's {@code authDataRef}); empty means the adapter's. Never shown.
     */
    private Optional<Credentials> credentials(PropertyProblems problems) {
        Optional<Credentials> keys = problems.credentials("accessKey", accessKey, "secretKey", secretKey);
        Optional<Credentials> login = problems.credentials("userName", userName, "password", password);
        if (keys.isPresent() && login.isPresent() && !keys.equals(login)) {
            problems.add("userName", userName, "names another user than accessKey: give one of the two");
        }
        return keys.or(() -> login);
    }

    private static InvalidPropertyException invalid(PropertyProblems problems) {
        InvalidPropertyException e = new InvalidPropertyException("FERRY-RA-0201 "
                + problems.describe("activation spec"));
        PropertyDescriptor[] descriptors = problems.properties().stream().map(name -> {
            try {
                return new PropertyDescriptor(name, FerryActivationSpec.class);
            } catch (IntrospectionException ex) {
                throw new IllegalStateException("no JavaBean property " + name, ex);
            }
        }).toArray(PropertyDescriptor[]::new);
        e.setInvalidPropertyDescriptors(descriptors);
        return e;
    }

    private static String text(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static String upper(String value) {
        return value.trim().toUpperCase(Locale.ROOT);
    }

    private static ConsumeFromWhere consumeFromWhere(String value) {
        String name = upper(value);
        return ConsumeFromWhere.valueOf(name.startsWith("CONSUME_FROM_") ? name.substring(13) : name);
    }

    private static Instant timestamp(String value) {
        String text = value.trim();
        if (text.matches("\\d{14}")) {
            return LocalDateTime.parse(text, ROCKETMQ_TIMESTAMP).atZone(ZoneId.systemDefault()).toInstant();
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public AutoCloseable activate(MessageEndpointFactory endpoints, AdapterRuntime runtime) throws ResourceException {
        ActivationConfig config = toConfig();
        List<ClassLoader> loaders = checkPlugins(config, runtime, applicationLoader(endpoints));
        return EndpointActivation.start(config, endpoints, runtime, loaders);
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return resourceAdapter;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter resourceAdapter) {
        this.resourceAdapter = resourceAdapter;
    }

    public String getTopic() {
        return topic;
    }

    @ConfigProperty(description = "The topic to consume (required)")
    public void setTopic(String topic) {
        this.topic = topic;
    }

    public String getConsumerGroup() {
        return consumerGroup;
    }

    @ConfigProperty(description = "The consumer group (required)")
    public void setConsumerGroup(String consumerGroup) {
        this.consumerGroup = consumerGroup;
    }

    public String getSelectorType() {
        return selectorType;
    }

    @ConfigProperty(defaultValue = "TAG", description = "TAG, SQL92 or the name of a filter plugin")
    public void setSelectorType(String selectorType) {
        this.selectorType = selectorType;
    }

    public String getSelectorExpression() {
        return selectorExpression;
    }

    @ConfigProperty(defaultValue = "*", description = "Which messages: TagA || TagB, an SQL92 selector, ...")
    public void setSelectorExpression(String selectorExpression) {
        this.selectorExpression = selectorExpression;
    }

    public String getMessageModel() {
        return messageModel;
    }

    @ConfigProperty(defaultValue = "CLUSTERING", description = "CLUSTERING or BROADCASTING")
    public void setMessageModel(String messageModel) {
        this.messageModel = messageModel;
    }

    public String getConsumeMode() {
        return consumeMode;
    }

    @ConfigProperty(defaultValue = "CONCURRENTLY", description = "CONCURRENTLY or ORDERLY (per queue)")
    public void setConsumeMode(String consumeMode) {
        this.consumeMode = consumeMode;
    }

    public Integer getMaxConcurrency() {
        return maxConcurrency;
    }

    @ConfigProperty(defaultValue = "20", description = "Most deliveries running at once")
    public void setMaxConcurrency(Integer maxConcurrency) {
        this.maxConcurrency = maxConcurrency;
    }

    public String getConsumeFromWhere() {
        return consumeFromWhere;
    }

    @ConfigProperty(defaultValue = "CONSUME_FROM_LAST_OFFSET", description = "Where a new group starts: "
            + "CONSUME_FROM_LAST_OFFSET, CONSUME_FROM_FIRST_OFFSET or CONSUME_FROM_TIMESTAMP")
    public void setConsumeFromWhere(String consumeFromWhere) {
        this.consumeFromWhere = consumeFromWhere;
    }

    public String getConsumeTimestamp() {
        return consumeTimestamp;
    }

    @ConfigProperty(description = "For CONSUME_FROM_TIMESTAMP: yyyyMMddHHmmss or an ISO-8601 instant")
    public void setConsumeTimestamp(String consumeTimestamp) {
        this.consumeTimestamp = consumeTimestamp;
    }

    public Integer getMaxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    @ConfigProperty(defaultValue = "16", description = "Redeliveries before a failing message is dead-lettered")
    public void setMaxReconsumeTimes(Integer maxReconsumeTimes) {
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    public String getAllocateStrategy() {
        return allocateStrategy;
    }

    @ConfigProperty(defaultValue = "averagely", description = "The allocate strategy plugin")
    public void setAllocateStrategy(String allocateStrategy) {
        this.allocateStrategy = allocateStrategy;
    }

    public String getOffsetStore() {
        return offsetStore;
    }

    @ConfigProperty(description = "The offset store plugin (default: broker for clustering, local-file for"
            + " broadcasting)")
    public void setOffsetStore(String offsetStore) {
        this.offsetStore = offsetStore;
    }

    public String getOffsetStoreDataSource() {
        return offsetStoreDataSource;
    }

    @ConfigProperty(description = "For offsetStore=jdbc: the JNDI name of the data source that keeps the offsets,"
            + " written in each delivery's transaction (exactly-once for a transacted, orderly bean)")
    public void setOffsetStoreDataSource(String offsetStoreDataSource) {
        this.offsetStoreDataSource = offsetStoreDataSource;
    }

    public String getNameServer() {
        return nameServer;
    }

    @ConfigProperty(description = "Name servers, host:port;host:port, instead of the adapter's")
    public void setNameServer(String nameServer) {
        this.nameServer = nameServer;
    }

    public String getAccessKey() {
        return accessKey;
    }

    @ConfigProperty(description = "The user this activation signs requests as (default: the adapter's)")
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

    public String getUserName() {
        return userName;
    }

    public Boolean getEnableMsgTrace() {
        return enableMsgTrace;
    }

    @ConfigProperty(defaultValue = "false", description = "Write a trace of each delivery to the trace topic, in "
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

    /** What Liberty sets from an activation spec's {@code authDataRef}: the same as {@code accessKey}. */
    @ConfigProperty(description = "Another name of accessKey (application servers' auth data set it)")
    public void setUserName(String userName) {
        this.userName = userName;
    }

    public String getPassword() {
        return password;
    }

    @ConfigProperty(description = "Another name of secretKey (application servers' auth data set it)",
            confidential = true)
    public void setPassword(String password) {
        this.password = password;
    }

    public Integer getMaxBatchSize() {
        return maxBatchSize;
    }

    @ConfigProperty(description = "Most messages of one queue per delivery to a BatchMessageListener bean (default"
            + " 32; a MessageListener bean takes 1)")
    public void setMaxBatchSize(Integer maxBatchSize) {
        this.maxBatchSize = maxBatchSize;
    }

    public String getMaxBatchWait() {
        return maxBatchWait;
    }

    @ConfigProperty(defaultValue = "0", description = "How long a short batch waits for more messages of its queue:"
            + " 0, 200ms, 1s (at most 10s)")
    public void setMaxBatchWait(String maxBatchWait) {
        this.maxBatchWait = maxBatchWait;
    }

    public Integer getPauseQueueAfterFailures() {
        return pauseQueueAfterFailures;
    }

    @ConfigProperty(defaultValue = "0", description = "Failed deliveries in a row of one message after which its "
            + "queue pauses until an operator resumes it or skips the message (0: never)")
    public void setPauseQueueAfterFailures(Integer pauseQueueAfterFailures) {
        this.pauseQueueAfterFailures = pauseQueueAfterFailures;
    }

    public String getRedeliveryDelay() {
        return redeliveryDelay;
    }

    @ConfigProperty(description = "The wait before the first redelivery of a failed message: 500ms, 5s, 1m "
            + "(default: the broker's schedule)")
    public void setRedeliveryDelay(String redeliveryDelay) {
        this.redeliveryDelay = redeliveryDelay;
    }

    public Double getRedeliveryMultiplier() {
        return redeliveryMultiplier;
    }

    @ConfigProperty(description = "How much each further redelivery wait grows (default 1)")
    public void setRedeliveryMultiplier(Double redeliveryMultiplier) {
        this.redeliveryMultiplier = redeliveryMultiplier;
    }

    public String getMaxRedeliveryDelay() {
        return maxRedeliveryDelay;
    }

    @ConfigProperty(description = "The longest redelivery wait (default 2h with a multiplier)")
    public void setMaxRedeliveryDelay(String maxRedeliveryDelay) {
        this.maxRedeliveryDelay = maxRedeliveryDelay;
    }

    @Override
    public String toString() {
        return "FerryActivationSpec[topic=" + topic + ", consumerGroup=" + consumerGroup
                + (accessKey != null ? ", accessKey=" + accessKey : userName != null ? ", userName=" + userName : "")
                + "]";
    }
}
