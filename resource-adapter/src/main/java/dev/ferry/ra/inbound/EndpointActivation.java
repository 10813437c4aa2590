package dev.ferry.ra.inbound;

import dev.ferry.api.BrokerException;
import dev.ferry.api.MessageModel;
import dev.ferry.client.FerryClient;
import dev.ferry.client.PushConsumer;
import dev.ferry.ra.AdapterRuntime;
import dev.ferry.ra.management.ActivationStatus;
import dev.ferry.ra.management.ManagementBeans;
import dev.ferry.spi.TransactionalOffsetStore;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One activation: a client of its own and one push consumer whose listener is an {@link EndpointDelivery}.
 * {@link #close()} stops pulling, lets the running deliveries finish, persists the offsets and leaves the
 * group, then closes the client. Created and closed on the server's activation threads.
 */
final class EndpointActivation implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(EndpointActivation.class.getName());
    /** How long deactivation waits for deliveries still running once the consumer has stopped. */
    private static final Duration LATE_DELIVERIES_TIMEOUT = Duration.ofSeconds(30);
    /** RocketMQ's response code of a request its user may not make. */
    private static final int NO_PERMISSION = 16;

    private final ActivationConfig config;
    private final FerryClient client;
    /** {@code null} when the cluster refused the activation's user: nothing is consumed. */
    private final PushConsumer consumer;
    private final EndpointDelivery delivery;
    private final String name;
    /** Its management bean ({@code dev.ferry:type=Activation}), for as long as it runs. */
    private final ManagementBeans bean;

    private EndpointActivation(ActivationConfig config, FerryClient client, PushConsumer consumer,
                               EndpointDelivery delivery, String name, String endpoint) {
        this.config = config;
        this.client = client;
        this.consumer = consumer;
        this.delivery = delivery;
        this.name = name;
        this.bean = ManagementBeans.register("Activation", name, new ActivationStatus(config.consumerGroup(),
                config.topic(), endpoint, client, consumer));
    }

    /** Starts consuming; the consumer looks its plugins up in {@code pluginLoaders}. */
    static EndpointActivation start(ActivationConfig config, MessageEndpointFactory endpoints, AdapterRuntime runtime,
                                    List<ClassLoader> pluginLoaders) throws ResourceException {
        String endpoint = endpointName(endpoints);
        String name = "activation[" + config.consumerGroup() + " <- " + config.topic() + " " + endpoint + "]";
        EndpointDelivery delivery = new EndpointDelivery(endpoints, name, runtime.clock());
        // A broadcasting consumer keeps its offsets in local files by client id: give it a stable one.
        Optional<String> instanceName = config.messageModel() == MessageModel.BROADCASTING
                ? Optional.of("ra-" + config.consumerGroup()) : Optional.empty();
        FerryClient client = null;
        try {
            client = runtime.newClient("consumer-" + config.consumerGroup(), config.nameServer(), instanceName,
                    pluginLoaders, config.credentials());
            if (!accessGranted(client, config, name)) {
                return new EndpointActivation(config, client, null, delivery, name, endpoint);
            }
            PushConsumer consumer = client.pushConsumer(config.consumerConfig(runtime.clock()), delivery);
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
            LOG.log(Level.INFO, "FERRY-RA-0220 {0} started: {1} {2} {3}, up to {4} at once, name server {5}", name,
                    config.messageModel(), config.consumeMode(), config.selectorType() + " "
                            + config.selectorExpression(), String.valueOf(config.maxConcurrency()),
                    config.nameServer().orElse(runtime.nameServerAddress()));
            return new EndpointActivation(config, client, consumer, delivery, name, endpoint);
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            String message = "FERRY-RA-0221 cannot start " + name + ": " + e.getMessage();
            LOG.log(Level.ERROR, message, e);
            throw new ResourceException(message, e);
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
        try {
            if (consumer != null) {
                consumer.close();
            }
        } finally {
            bean.close();
            delivery.close(LATE_DELIVERIES_TIMEOUT);
            client.close();
            LOG.log(Level.INFO, "FERRY-RA-0222 {0} stopped; offsets persisted", name);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
