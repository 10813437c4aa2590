package dev.ferry.ra.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.ra.RecordingEndpointFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What a delivery does while its activation is still learning, or never learns, where offsets are claimed. */
class EndpointDeliveryTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private static ReceivedMessage message() {
        return new ReceivedMessage("Orders", new byte[3], Map.of(), "id-7", "broker-a", 0, 7, 700, 0, 0, 0);
    }

    /** Starts a delivery on its own thread and waits until it waits for the activation's offset store. */
    private static Thread waitingDelivery(EndpointDelivery delivery, AtomicReference<Throwable> failure) {
        Thread thread = new Thread(() -> {
            try {
                delivery.onMessage(message());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "delivery");
        thread.start();
        await().atMost(WAIT).until(() -> thread.getState() == Thread.State.WAITING);
        return thread;
    }

    @Test
    void shouldFailADeliveryStillWaitingForItsOffsetStoreWhenTheActivationCloses() throws Exception {
        RecordingEndpointFactory beans = RecordingEndpointFactory.accepting().transacted();
        EndpointDelivery delivery = new EndpointDelivery(beans, "activation[once]", false, Clock.system());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = waitingDelivery(delivery, failure);

        assertThat(delivery.close(WAIT)).as("no delivery left running").isTrue();
        thread.join(WAIT.toMillis());

        assertThat(failure.get()).as("the delivery fails; its message stays unconsumed")
                .hasMessageContaining("FERRY-RA-0224").hasMessageContaining("closed before its offset store");
        assertThat(beans.created()).as("the bean never ran without its claim").isZero();
    }

    @Test
    void shouldFailADeliveryOfARefusedActivationInsteadOfRunningItWithoutClaims() throws Exception {
        RecordingEndpointFactory beans = RecordingEndpointFactory.accepting().transacted();
        EndpointDelivery delivery = new EndpointDelivery(beans, "activation[once]", false, Clock.system());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = waitingDelivery(delivery, failure);

        delivery.noClaims("the activation is refused");
        thread.join(WAIT.toMillis());

        assertThat(failure.get()).hasMessageContaining("FERRY-RA-0224").hasMessageContaining("refused");
        assertThat(beans.created()).isZero();
        assertThat(delivery.close(WAIT)).isTrue();
    }

    @Test
    void shouldDeliverOnceTheOffsetStoreIsKnown() throws Exception {
        RecordingEndpointFactory beans = RecordingEndpointFactory.accepting();
        EndpointDelivery delivery = new EndpointDelivery(beans, "activation[plain]", false, Clock.system());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = waitingDelivery(delivery, failure);

        delivery.claimIn(Optional.empty());
        thread.join(WAIT.toMillis());

        assertThat(failure.get()).isNull();
        assertThat(beans.received()).extracting(ReceivedMessage::msgId).containsExactly("id-7");
        delivery.noClaims("too late to matter");
        assertThat(delivery.close(WAIT)).isTrue();
    }
}
