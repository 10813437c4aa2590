package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.resource.NotSupportedException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.ResourceAdapter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The registry of running activations, with activation specs that deliver nothing. */
class EndpointActivationsTest {
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final EndpointActivations activations = new EndpointActivations();

    @Test
    void shouldRefuseAnActivationSpecThatIsNotFerrys() {
        ActivationSpec foreign = new ActivationSpec() {
            @Override
            public void validate() {
            }

            @Override
            public ResourceAdapter getResourceAdapter() {
                return null;
            }

            @Override
            public void setResourceAdapter(ResourceAdapter adapter) {
            }
        };

        assertThatThrownBy(() -> activations.activate(RecordingEndpointFactory.accepting(), foreign, null))
                .isInstanceOf(NotSupportedException.class).hasMessageStartingWith("FERRY-RA-0020 activation spec");
        assertThat(activations.count()).isZero();
    }

    @Test
    void shouldCloseOnlyTheActivationOfTheFactoryAndSpecTheServerNames() throws Exception {
        FakeActivationSpec spec = new FakeActivationSpec("a", events);
        RecordingEndpointFactory first = RecordingEndpointFactory.accepting();
        RecordingEndpointFactory second = RecordingEndpointFactory.accepting();
        activations.activate(first, spec, null);
        activations.activate(second, spec, null);

        activations.deactivate(second, spec);

        assertThat(events).containsExactly("activate a", "activate a", "close a");
        assertThat(activations.count()).isOne();
    }

    @Test
    void shouldCloseEveryActivationWhenOneFailsToClose() throws Exception {
        activations.activate(RecordingEndpointFactory.accepting(), new FakeActivationSpec("a", events, true), null);
        activations.activate(RecordingEndpointFactory.accepting(), new FakeActivationSpec("b", events), null);

        activations.deactivateAll();

        assertThat(events).contains("close a", "close b");
        assertThat(activations.count()).isZero();
    }

    @Test
    void shouldSkipTheDeactivationOfAnActivationThatIsNotRunning() throws Exception {
        FakeActivationSpec spec = new FakeActivationSpec("a", events);
        RecordingEndpointFactory factory = RecordingEndpointFactory.accepting();
        activations.activate(factory, spec, null);
        activations.deactivate(factory, spec);

        activations.deactivate(factory, spec);

        assertThat(events).containsExactly("activate a", "close a");
    }
}
