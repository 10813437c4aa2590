package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.MessageListener;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.ra.outbound.FerryManagedConnectionFactory;
import jakarta.resource.spi.Activation;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.TransactionSupport;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.Serializable;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The connector annotations servers read instead of an ra.xml: every JavaBean property is a declared config
 * property, with the names the issue promises, and the declared classes fit together.
 */
class AnnotationsTest {

    private static Set<String> configProperties(Class<?> type) throws Exception {
        return Arrays.stream(Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors())
                .map(PropertyDescriptor::getWriteMethod).filter(m -> m != null)
                .filter(m -> m.isAnnotationPresent(ConfigProperty.class))
                .map(m -> Introspector.decapitalize(m.getName().substring(3))).collect(Collectors.toSet());
    }

    /** The config properties declared confidential (a server hides their values), or all when {@code false}. */
    private static Set<String> configProperties(Class<?> type, boolean confidential) throws Exception {
        return Arrays.stream(Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors())
                .map(PropertyDescriptor::getWriteMethod).filter(m -> m != null)
                .filter(m -> m.isAnnotationPresent(ConfigProperty.class))
                .filter(m -> !confidential || m.getAnnotation(ConfigProperty.class).confidential())
                .map(m -> Introspector.decapitalize(m.getName().substring(3))).collect(Collectors.toSet());
    }

    private static Set<String> writableProperties(Class<?> type, String... except) throws Exception {
        Set<String> excluded = Set.of(except);
        return Arrays.stream(Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors())
                .filter(p -> p.getWriteMethod() != null).map(PropertyDescriptor::getName)
                .filter(n -> !excluded.contains(n)).collect(Collectors.toSet());
    }

    @Test
    void shouldDeclareTheAdapterAndItsProperties() throws Exception {
        Connector connector = FerryResourceAdapter.class.getAnnotation(Connector.class);
        assertThat(connector).isNotNull();
        assertThat(connector.transactionSupport()).isEqualTo(TransactionSupport.TransactionSupportLevel.XATransaction);
        assertThat(configProperties(FerryResourceAdapter.class)).containsExactlyInAnyOrder("mode", "nameServer",
                "host", "namesrvPort", "brokerPort", "storeDir", "pluginDir", "commitLogSegmentSize",
                "messageDelayLevel", "threadPlacement", "engineConfig", "flushMode", "brokerName", "brokerId",
                "clusterName", "autoCreateTopics", "authenticationEnabled", "authorizationEnabled", "initAuthenticationUser",
                "tlsMode", "tlsCertPath", "tlsKeyPath", "tlsTrustCertPath", "tlsNeedClientAuth", "useTls", "accessKey",
                "secretKey");
        assertThat(configProperties(FerryResourceAdapter.class, true)).containsExactlyInAnyOrder(
                "initAuthenticationUser", "secretKey");
        assertThat(writableProperties(FerryResourceAdapter.class))
                .isEqualTo(configProperties(FerryResourceAdapter.class));
    }

    @Test
    void shouldDeclareTheActivationSpecForMessageListenerAndBatchMessageListener() throws Exception {
        Activation activation = FerryActivationSpec.class.getAnnotation(Activation.class);
        assertThat(activation.messageListeners()).containsExactly(MessageListener.class,
                dev.ferry.api.BatchMessageListener.class);
        assertThat(configProperties(FerryActivationSpec.class)).containsExactlyInAnyOrder("topic", "consumerGroup",
                "selectorType", "selectorExpression", "messageModel", "consumeMode", "maxConcurrency",
                "consumeFromWhere", "consumeTimestamp", "maxReconsumeTimes", "allocateStrategy", "offsetStore",
                "offsetStoreDataSource", "nameServer", "accessKey", "secretKey", "userName", "password",
                "enableMsgTrace", "customizedTraceTopic", "maxBatchSize", "maxBatchWait", "pauseQueueAfterFailures",
                "redeliveryDelay", "redeliveryMultiplier", "maxRedeliveryDelay");
        assertThat(configProperties(FerryActivationSpec.class, true)).containsExactlyInAnyOrder("secretKey",
                "password");
        assertThat(writableProperties(FerryActivationSpec.class, "resourceAdapter"))
                .isEqualTo(configProperties(FerryActivationSpec.class));
        Method onMessage = MessageListener.class.getMethod("onMessage", dev.ferry.api.ReceivedMessage.class);
        assertThat(MessageListener.class.getMethods()).containsExactly(onMessage);
        assertThat(dev.ferry.api.BatchMessageListener.class.getMethods()).containsExactly(
                dev.ferry.api.BatchMessageListener.class.getMethod("onMessages", java.util.List.class));
    }

    @Test
    void shouldDeclareAConnectionDefinitionWhoseClassesFitTogether() throws Exception {
        ConnectionDefinition definition = FerryManagedConnectionFactory.class.getAnnotation(ConnectionDefinition.class);
        assertThat(definition.connectionFactory()).isEqualTo(FerryConnectionFactory.class);
        assertThat(definition.connection()).isEqualTo(FerryConnection.class);
        assertThat(definition.connectionFactoryImpl()).isAssignableTo(FerryConnectionFactory.class)
                .isAssignableTo(Serializable.class).isAssignableTo(jakarta.resource.Referenceable.class);
        assertThat(definition.connectionImpl()).isAssignableTo(FerryConnection.class);
        assertThat(configProperties(FerryManagedConnectionFactory.class)).containsExactlyInAnyOrder("nameServer",
                "producerGroup", "sendTimeoutMillis", "retries", "accessKey", "secretKey", "transactionSupportLevel",
                "enableMsgTrace", "customizedTraceTopic");
        assertThat(configProperties(FerryManagedConnectionFactory.class, true)).containsExactly("secretKey");
        assertThat(writableProperties(FerryManagedConnectionFactory.class, "resourceAdapter", "logWriter"))
                .isEqualTo(configProperties(FerryManagedConnectionFactory.class));
    }
}
