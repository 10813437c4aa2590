package dev.ferry.ra.inbound;

import dev.ferry.api.BrokerException;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.MessageModel;
import dev.ferry.client.FerryClient;
import dev.ferry.client.ConsumerEvents;
import dev.ferry.client.PausedQueue;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.ra.AdapterRuntime;
import dev.ferry.ra.management.ActivationControls;
import dev.ferry.ra.management.ActivationStatus;
import dev.ferry.ra.management.ManagementBeans;
import dev.ferry.format.Clock;
import dev.ferry.spi.TransactionalOffsetStore;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One activation: a client of its own and a push consumer whose listener is an {@link EndpointDelivery}, and what
 * an operator does to it through its management bean ({@link ActivationControls}): pausing the bean closes the
 * consumer as {@link #close()} does (offsets persisted, locks released, group left) and resuming starts a new one;
 * a queue paused on a poison message is resumed or its message skipped; the group's offsets are moved for a replay.
 * {@link #close()} stops pulling, lets the running deliveries finish, persists the offsets and leaves the group,
 * then closes the client. Created and closed on the server's activation threads; the operations come on the
 * management threads, one at a time.
 */
final class EndpointActivation implements AutoCloseable, ActivationControls {
    private static final System.Logger LOG = System.getLogger(EndpointActivation.class.getName());
    /** How long deactivation waits for deliveries still running once the consumer has stopped. */
    private static final Duration LATE_DELIVERIES_TIMEOUT = Duration.ofSeconds(30);
    /** RocketMQ's response code of a request its user may not make. */
    private static final int NO_PERMISSION = 16;

    private final ActivationConfig config;
    private final FerryClient client;
    private final MessageEndpointFactory endpoints;
    private final Clock clock;
    private final boolean batches;
    private final String name;
    /** Whether the cluster lets the activation's user consume; refused, nothing is consumed. */
    private final boolean granted;
    /** Its management bean ({@code dev.ferry:type=Activation}), for as long as it runs. */
    private final ManagementBeans bean;
    /** The consumer and its delivery while the bean is delivered to; {@code null} when paused or refused. */
    private volatile Run run;
    private volatile boolean paused;
    private boolean closed;

    /** A consumer and the listener it delivers through: replaced together when a paused bean resumes. */
    private record Run(PushConsumer consumer, EndpointDelivery delivery) {
    }

    private EndpointActivation(ActivationConfig config, FerryClient client, MessageEndpointFactory endpoints,
                               Clock clock, boolean batches, String name, String endpoint, boolean granted) {
        this.config = config;
        this.client = client;
        this.endpoints = endpoints;
        this.clock = clock;
        this.batches = batches;
        this.name = name;
        this.granted = granted;
        this.bean = ManagementBeans.register("Activation", name, new ActivationStatus(config.consumerGroup(),
                config.topic(), endpoint, client, this));
    }

    /** Starts consuming; the consumer looks its plugins up in {@code pluginLoaders}. */
    static EndpointActivation start(ActivationConfig config, MessageEndpointFactory endpoints, AdapterRuntime runtime,
                                    List<ClassLoader> pluginLoaders) throws ResourceException {
        String endpoint = endpointName(endpoints);
        String name = "activation[" + config.consumerGroup() + " <- " + config.topic() + " " + endpoint + "]";
        boolean batches = EndpointDelivery.takesBatches(endpoints);
        // A broadcasting consumer keeps its offsets in local files by client id: give it a stable one.
        Optional<String> instanceName = config.messageModel() == MessageModel.BROADCASTING
                ? Optional.of("ra-" + config.consumerGroup()) : Optional.empty();
        FerryClient client = null;
        EndpointActivation activation = null;
        try {
            config.batchSize(batches); // refuses a batch size the bean cannot take, before anything starts
            client = runtime.newClient("consumer-" + config.consumerGroup(), config.nameServer(), instanceName,
                    pluginLoaders, config.credentials());
            boolean granted = accessGranted(client, config, name);
            activation = new EndpointActivation(config, client, endpoints, runtime.clock(), batches, name, endpoint,
                    granted);
            if (granted) {
                activation.run = activation.startRun();
                LOG.log(Level.INFO, "FERRY-RA-0220 {0} started: {1} {2} {3}, up to {4} at once{5}, name server {6}",
                        name, config.messageModel(), config.consumeMode(), config.selectorType() + " "
                                + config.selectorExpression(), String.valueOf(config.maxConcurrency()),
                        batches ? ", batches of up to " + config.batchSize(true) : "",
                        config.nameServer().orElse(runtime.nameServerAddress()));
            }
            return activation;
        } catch (RuntimeException e) {
            if (activation != null) {
                activation.bean.close();
            }
            if (client != null) {
                client.close();
            }
            String message = "FERRY-RA-0221 cannot start " + name + ": " + e.getMessage();
            LOG.log(Level.ERROR, message, e);
            throw new ResourceException(message, e);
        }
    }

    /** A new delivery and consumer; refuses a transactional offset store the bean cannot use. */
    private Run startRun() {
        EndpointDelivery delivery = new EndpointDelivery(endpoints, name, batches, clock);
        PushConsumerConfig consumerConfig = config.consumerConfig(clock, batches);
        ConsumerEvents events = new Events();
        PushConsumer consumer = batches ? client.batchPushConsumer(consumerConfig, delivery, events)
                : client.pushConsumer(consumerConfig, delivery, events);
        delivery.watch(consumer::isClosing);
        Optional<TransactionalOffsetStore> claims = consumer.transactionalOffsetStore();
        if (claims.isPresent() && (!delivery.transacted() || config.consumeMode() != ConsumeMode.ORDERLY)) {
            delivery.noClaims("the activation is refused: its offset store needs transacted orderly delivery");
            consumer.close();
            throw new IllegalArgumentException("offsetStore '" + config.offsetStore().orElse("") + "' records "
                    + "offsets inside each delivery's transaction: the bean must be delivered in a transaction "
                    + "(REQUIRED, found " + (delivery.transacted() ? "transacted" : "not transacted")
                    + ") and consumeMode must be ORDERLY (found " + config.consumeMode() + ")");
        }
        delivery.claimIn(claims);
        return new Run(consumer, delivery);
    }

    /** Says what the consumer's queues go through in the server's log, where operators look. */
    private final class Events implements ConsumerEvents {
        @Override
        public void queuePaused(PausedQueue paused, Throwable lastFailure) {
            LOG.log(Level.ERROR, "FERRY-RA-0230 " + name + ": queue " + ActivationStatus.name(paused.queue())
                    + " is paused: message " + paused.msgId() + " at offset " + paused.queueOffset() + " failed "
                    + paused.failures() + " times in a row, last with " + paused.lastFailure() + ". Its queue waits;"
                    + " the Activation bean's resumeQueue delivers it again, skipMessage moves it to the dead-letter"
                    + " queue", lastFailure);
        }

        @Override
        public void queueResumed(MessageQueue queue, String msgId, boolean skipped) {
            LOG.log(Level.INFO, "FERRY-RA-0231 {0}: queue {1} goes on; message {2} {3}", name,
                    ActivationStatus.name(queue), msgId, skipped ? "was moved to the dead-letter queue"
                            : "is delivered again");
        }
    }

    @Override
    public Optional<PushConsumer> consumer() {
        Run current = run;
        return current == null ? Optional.empty() : Optional.of(current.consumer());
    }

    @Override
    public boolean paused() {
        return paused;
    }

    @Override
    public synchronized void pause(String caller) {
        if (paused || closed || !granted) {
            return;
        }
        paused = true;
        Run current = run;
        run = null;
        if (current != null) {
            stop(current);
        }
        LOG.log(Level.INFO, "FERRY-RA-0232 {0} paused by {1}: offsets persisted, its queues released to the group",
                name, caller);
    }

    @Override
    public synchronized void resume(String caller) {
        if (!paused || closed) {
            return;
        }
        run = startRun();
        paused = false;
        LOG.log(Level.INFO, "FERRY-RA-0233 {0} resumed by {1}", name, caller);
    }

    @Override
    public synchronized boolean resumeQueue(MessageQueue queue, boolean skip, String caller) {
        Run current = run;
        if (current == null) {
            return false;
        }
        boolean resumed = current.consumer().resumeQueue(queue, skip);
        if (resumed) {
            LOG.log(Level.INFO, "FERRY-RA-0234 {0}: {1} asked to {2} the poison message of queue {3}", name, caller,
                    skip ? "skip" : "deliver again", ActivationStatus.name(queue));
        }
        return resumed;
    }

    @Override
    public Map<MessageQueue, Long> replay(Instant timestamp, String caller) {
        requireGranted();
        LOG.log(Level.INFO, "FERRY-RA-0235 {0}: {1} asked to replay group {2} on {3} from {4}", name, caller,
                config.consumerGroup(), config.topic(), timestamp);
        Map<MessageQueue, Long> moved = client.resetOffsetsToTime(config.consumerGroup(), config.topic(), timestamp);
        LOG.log(Level.INFO, "FERRY-RA-0236 {0}: replay moved {1}", name, named(moved));
        return moved;
    }

    @Override
    public Map<MessageQueue, Long> replay(Map<MessageQueue, Long> offsets, String caller) {
        requireGranted();
        LOG.log(Level.INFO, "FERRY-RA-0235 {0}: {1} asked to replay group {2} from offsets {3}", name, caller,
                config.consumerGroup(), named(offsets));
        Map<MessageQueue, Long> moved = client.resetOffsets(config.consumerGroup(), offsets);
        LOG.log(Level.INFO, "FERRY-RA-0236 {0}: replay moved {1}", name, named(moved));
        return moved;
    }

    private static String named(Map<MessageQueue, Long> offsets) {
        StringBuilder text = new StringBuilder();
        offsets.forEach((queue, offset) -> text.append(text.length() == 0 ? "" : ", ")
                .append(ActivationStatus.name(queue)).append('=').append(offset));
        return text.toString();
    }

    private void requireGranted() {
        if (!granted) {
            throw new IllegalStateException(name + " does not consume: the cluster refused its user");
        }
    }

    /**
     * Whether the cluster lets this activation's user consume: refused, the activation says so in one line and stays
     * idle (the application goes on serving; fix the user and restart the application), rather than a consumer
     * whose every request is refused and logged. Any other failure of the check is left to the consumer's retries.
     */
    private static boolean accessGranted(FerryClient client, ActivationConfig config, String name) {
        try {
            client.checkConsumerAccess(config.topic(), config.consumerGroup());
            return true;
        } catch (BrokerException e) {
            if (e.responseCode() != NO_PERMISSION) {
                LOG.log(Level.DEBUG, "access check of {0} failed: {1}", name, e.getMessage());
                return true;
            }
            LOG.log(Level.ERROR, "FERRY-RA-0223 {0} does not consume: the cluster refused its user {1}: {2}", name,
                    config.credentials().map(c -> c.accessKey()).orElse("(the adapter's)"), e.remark());
            return false;
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "access check of {0} failed: {1}", name, e.getMessage());
            return true;
        }
    }

    private static String endpointName(MessageEndpointFactory endpoints) {
        try {
            String activationName = endpoints.getActivationName();
            return activationName != null ? activationName : endpoints.toString();
        } catch (RuntimeException | AbstractMethodError e) {
            return endpoints.toString();
        }
    }

    ActivationConfig config() {
        return config;
    }

    @Override
    public void close() {
        Run current;
        synchronized (this) {
            closed = true;
            current = run;
            run = null;
        }
        try {
            if (current != null) {
                stop(current);
            }
        } finally {
            bean.close();
            client.close();
            LOG.log(Level.INFO, "FERRY-RA-0222 {0} stopped; offsets persisted", name);
        }
    }

    /** Closes a run's consumer (offsets persisted, group left), then waits for its late deliveries. */
    private static void stop(Run run) {
        try {
            run.consumer().close();
        } finally {
            run.delivery().close(LATE_DELIVERIES_TIMEOUT);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
