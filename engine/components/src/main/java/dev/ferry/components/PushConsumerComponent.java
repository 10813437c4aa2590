package dev.ferry.components;

import dev.ferry.api.MessageListener;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.FerryClient;
import dev.ferry.client.PushConsumer;
import dev.ferry.format.DaemonThreads;
import java.lang.System.Logger.Level;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * A push consumer in the framework, one per factory configuration {@value #FACTORY_PID} (keys: see
 * {@link ConsumerComponentConfig}), delivering to a {@link MessageListener} service. Which listener: the
 * configuration's {@code listener.target}, an LDAP filter such as {@code (ferry.listener=orders)} on the listener
 * services' properties. It starts once its configuration and its listener are there, restarts when the
 * configuration changes, and stops (persisting its offsets and leaving its group) when either goes. Its allocation
 * strategy, offset store and client-side filter plugins are found among the framework's bundles.
 */
@Component(configurationPid = PushConsumerComponent.FACTORY_PID, configurationPolicy = ConfigurationPolicy.REQUIRE,
        service = {}, immediate = true)
public final class PushConsumerComponent {
    /** The factory configuration's identity. */
    public static final String FACTORY_PID = "dev.ferry.consumer";
    private static final System.Logger LOG = System.getLogger(PushConsumerComponent.class.getName());

    @Reference(name = "listener")
    private MessageListener listener;

    private FerryClient client;
    private PushConsumer consumer;

    @Activate
    void activate(Map<String, Object> configuration) {
        ConsumerComponentConfig config = ConsumerComponentConfig.from(configuration);
        ClientConfig.Builder clientConfig = ClientConfig.builder(config.nameServer())
                .threadFactory(new DaemonThreads("ferry-consumer-" + config.consumer().group()))
                .pluginClassLoader(PushConsumerComponent.class.getClassLoader());
        config.localOffsetDirectory().ifPresent(clientConfig::localOffsetDirectory);
        FerryClient created = new FerryClient(clientConfig.build());
        try {
            consumer = created.pushConsumer(config.consumer(), listener);
        } catch (RuntimeException e) {
            created.close();
            throw e;
        }
        client = created;
        LOG.log(Level.INFO, "Ferry push consumer component {0} started on {1}", config.consumer().group(),
                config.nameServer());
    }

    @Deactivate
    void deactivate() {
        try {
            if (consumer != null) {
                consumer.close();
            }
        } finally {
            if (client != null) {
                client.close();
            }
            consumer = null;
            client = null;
        }
    }
}
