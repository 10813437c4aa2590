package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.resource.spi.ResourceAdapterInternalException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order in which an adapter starts and stops its parts, with activations that deliver nothing, in remote mode
 * (which connects to nothing until a client is used) on a fake WorkManager.
 */
class AdapterLifecycleOrderTest {
    private final List<String> events = new CopyOnWriteArrayList<>();

    @TempDir
    Path directory;

    private FerryResourceAdapter started() throws ResourceAdapterInternalException {
        FerryResourceAdapter adapter = TestAdapters.remote("127.0.0.1:9876", directory);
        adapter.start(new FakeBootstrapContext());
        return adapter;
    }

    @Test
    void shouldStopEveryActivationBeforeWhatTheRuntimeCloses() throws Exception {
        FerryResourceAdapter adapter = started();
        adapter.runtime().closeAtStop(() -> events.add("close producer"));
        adapter.endpointActivation(RecordingEndpointFactory.accepting(), new FakeActivationSpec("a", events));
        adapter.endpointActivation(RecordingEndpointFactory.accepting(), new FakeActivationSpec("b", events));

        adapter.stop();

        assertThat(events).hasSize(5).startsWith("activate a", "activate b").endsWith("close producer")
                .contains("close a", "close b");
        assertThat(adapter.activationCount()).isZero();
        assertThat(adapter.runningRuntime()).isEmpty();
    }

    @Test
    void shouldRefuseASecondStartAndStartAgainAfterStop() throws Exception {
        FerryResourceAdapter adapter = started();

        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessage("FERRY-RA-0005 the adapter is started already");
        adapter.stop();
        adapter.start(new FakeBootstrapContext());

        assertThat(adapter.runningRuntime()).isPresent();
        adapter.stop();
    }

    @Test
    void shouldRefuseActivationsWhileStopped() throws Exception {
        FerryResourceAdapter adapter = started();
        adapter.stop();

        assertThatThrownBy(() -> adapter.endpointActivation(RecordingEndpointFactory.accepting(),
                new FakeActivationSpec("late", events)))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessage("FERRY-RA-0004 the Ferry resource adapter is not started");
        assertThat(events).isEmpty();
        adapter.stop(); // a second stop does nothing
    }

    @Test
    void shouldStartNothingWhenAPropertyIsBad() {
        FerryResourceAdapter adapter = TestAdapters.remote("no-port", directory);

        assertThatThrownBy(() -> adapter.start(new FakeBootstrapContext()))
                .hasMessageContaining("FERRY-RA-0002").hasMessageContaining("nameServer = 'no-port'");
        assertThat(adapter.runningRuntime()).isEmpty();
    }
}
