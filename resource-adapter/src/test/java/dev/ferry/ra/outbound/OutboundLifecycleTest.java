package dev.ferry.ra.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.ra.FakeBootstrapContext;
import dev.ferry.ra.FerryResourceAdapter;
import dev.ferry.ra.TestAdapters;
import jakarta.resource.NotSupportedException;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConnectionEvent;
import jakarta.resource.spi.ConnectionEventListener;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.naming.Reference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outbound contract with a fake pooling ConnectionManager: handles, events, the shared producer. The adapter
 * is in remote mode against a name server nobody listens on: nothing here sends.
 */
class OutboundLifecycleTest {
    @TempDir
    Path directory;
    private FakeBootstrapContext context;
    private FerryResourceAdapter adapter;

    /** A one-slot-per-connection pool that records the events it gets, like a server's. */
    static class RecordingConnectionManager implements ConnectionManager, ConnectionEventListener {
        private static final long serialVersionUID = 1L;
        final transient List<ConnectionEvent> events = new CopyOnWriteArrayList<>();
        final transient Set<ManagedConnection> idle = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final transient List<ManagedConnection> created = new CopyOnWriteArrayList<>();

        @Override
        public Object allocateConnection(ManagedConnectionFactory factory, ConnectionRequestInfo info)
                throws ResourceException {
            ManagedConnection managed = factory.matchManagedConnections(Set.copyOf(idle), null, info);
            if (managed == null) {
                managed = factory.createManagedConnection(null, info);
                managed.addConnectionEventListener(this);
                created.add(managed);
            } else {
                idle.remove(managed);
            }
            return managed.getConnection(null, info);
        }

        @Override
        public void connectionClosed(ConnectionEvent event) {
            events.add(event);
            ManagedConnection managed = (ManagedConnection) event.getSource();
            try {
                managed.cleanup();
            } catch (ResourceException e) {
                throw new IllegalStateException(e);
            }
            idle.add(managed);
        }

        @Override
        public void localTransactionStarted(ConnectionEvent event) {
            events.add(event);
        }

        @Override
        public void localTransactionCommitted(ConnectionEvent event) {
            events.add(event);
        }

        @Override
        public void localTransactionRolledback(ConnectionEvent event) {
            events.add(event);
        }

        @Override
        public void connectionErrorOccurred(ConnectionEvent event) {
            events.add(event);
        }
    }

    @BeforeEach
    void startAdapter() throws Exception {
        context = new FakeBootstrapContext();
        adapter = TestAdapters.remote("127.0.0.1:9", directory);
        adapter.start(context);
    }

    @AfterEach
    void stopAdapter() {
        adapter.stop();
    }

    private FerryManagedConnectionFactory managedFactory() {
        FerryManagedConnectionFactory factory = new FerryManagedConnectionFactory();
        factory.setResourceAdapter(adapter);
        factory.setProducerGroup("orders-producer");
        return factory;
    }

    @Test
    void shouldReportAClosedHandleAndPoolItsManagedConnectionAgain() throws Exception {
        FerryManagedConnectionFactory managed = managedFactory();
        RecordingConnectionManager pool = new RecordingConnectionManager();
        FerryConnectionFactory factory = (FerryConnectionFactory) managed.createConnectionFactory(pool);

        FerryConnection first = factory.getConnection();
        first.close();
        first.close(); // a second close is a no-op: one event
        FerryConnection second = factory.getConnection();

        assertThat(pool.events).singleElement().satisfies(event -> {
            assertThat(event.getId()).isEqualTo(ConnectionEvent.CONNECTION_CLOSED);
            assertThat(event.getConnectionHandle()).isSameAs(first);
            assertThat(event.getSource()).isSameAs(pool.created.get(0));
        });
        assertThat(pool.created).as("the closed connection's managed connection was matched again").hasSize(1);
        assertThatThrownBy(() -> first.send(Message.builder("T").body(new byte[] {1}).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("FERRY-RA-0320");
        second.close();
    }

    @Test
    void shouldShareOneProducerAmongAllManagedConnections() throws Exception {
        FerryManagedConnectionFactory factory = managedFactory();
        FerryManagedConnection a = (FerryManagedConnection) factory.createManagedConnection(null, null);
        FerryManagedConnection b = (FerryManagedConnection) factory.createManagedConnection(null, null);
        assertThat(a).isNotSameAs(b);
        assertThat(a.producer()).isSameAs(b.producer());
        assertThat(a.producer().config().group()).isEqualTo("orders-producer");
        int works = context.fakeWorkManager().running();
        factory.createManagedConnection(null, null);
        assertThat(context.fakeWorkManager().running()).as("no new client per managed connection").isEqualTo(works);
    }

    @Test
    void shouldInvalidateHandlesOnCleanupAndMoveThemOnAssociate() throws Exception {
        FerryManagedConnectionFactory factory = managedFactory();
        FerryManagedConnection a = (FerryManagedConnection) factory.createManagedConnection(null, null);
        FerryManagedConnection b = (FerryManagedConnection) factory.createManagedConnection(null, null);
        FerryConnection handle = (FerryConnection) a.getConnection(null, null);
        FerryConnection other = (FerryConnection) a.getConnection(null, null);
        assertThat(a.openHandles()).isEqualTo(2);

        b.associateConnection(handle);
        assertThat(a.openHandles()).isEqualTo(1);
        assertThat(b.openHandles()).isEqualTo(1);
        RecordingConnectionManager listener = new RecordingConnectionManager();
        b.addConnectionEventListener(listener);
        handle.close();
        assertThat(listener.events).singleElement().extracting(ConnectionEvent::getSource).isSameAs(b);

        a.cleanup();
        assertThat(a.openHandles()).isZero();
        assertThatThrownBy(() -> other.sendOneway(Message.builder("T").body(new byte[] {1}).build()))
                .isInstanceOf(IllegalStateException.class);

        a.destroy();
        assertThatThrownBy(() -> a.getConnection(null, null)).isInstanceOf(ResourceException.class);
        assertThat(factory.matchManagedConnections(Set.of(a), null, null)).isNull();
        assertThat(factory.matchManagedConnections(Set.of(a, b), null, null)).isSameAs(b);
    }

    @Test
    void shouldTakePartInXaAndLocalTransactionsByDefault() throws Exception {
        FerryManagedConnectionFactory factory = managedFactory();
        ManagedConnection managed = factory.createManagedConnection(null, null);
        assertThat(factory.getTransactionSupport())
                .isEqualTo(jakarta.resource.spi.TransactionSupport.TransactionSupportLevel.XATransaction);
        assertThat(managed.getXAResource()).isNotNull().isSameAs(managed.getXAResource());
        assertThat(managed.getLocalTransaction()).isNotNull();
        factory.setTransactionSupportLevel("LocalTransaction");
        assertThatThrownBy(managed::getXAResource).isInstanceOf(NotSupportedException.class);
        assertThat(managed.getLocalTransaction()).isNotNull();
        assertThat(managed.getMetaData().getEISProductName()).isEqualTo("Ferry");
    }

    @Test
    void shouldCompareFactoriesByTheirConfiguration() {
        FerryManagedConnectionFactory a = managedFactory();
        FerryManagedConnectionFactory b = managedFactory();
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        b.setSendTimeoutMillis(500);
        assertThat(a).isNotEqualTo(b);
        FerryManagedConnectionFactory otherAdapter = managedFactory();
        otherAdapter.setResourceAdapter(new FerryResourceAdapter());
        assertThat(a).isNotEqualTo(otherAdapter);
    }

    @Test
    void shouldBeBindableInJndi() throws Exception {
        FerryConnectionFactory factory = (FerryConnectionFactory) managedFactory()
                .createConnectionFactory(new RecordingConnectionManager());
        assertThat(factory).isInstanceOf(jakarta.resource.Referenceable.class);
        Reference reference = new Reference(FerryConnectionFactory.class.getName());
        ((jakarta.resource.Referenceable) factory).setReference(reference);
        assertThat(factory.getReference()).isSameAs(reference);
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            out.writeObject(factory);
        }
    }

    @Test
    void shouldNameEveryBadFactoryProperty() {
        FerryManagedConnectionFactory factory = managedFactory();
        factory.setNameServer("nowhere");
        factory.setProducerGroup("bad group");
        factory.setSendTimeoutMillis(0);
        factory.setRetries(-1);
        assertThatThrownBy(() -> factory.createManagedConnection(null, null))
                .isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("4 bad properties")
                .hasMessageContaining("nameServer = 'nowhere'")
                .hasMessageContaining("producerGroup = 'bad group'")
                .hasMessageContaining("sendTimeoutMillis = '0'")
                .hasMessageContaining("retries = '-1'");
    }

    @Test
    void shouldCloseTheSharedProducerWhenTheAdapterStops() throws Exception {
        FerryManagedConnectionFactory factory = managedFactory();
        FerryConnectionFactory connections = (FerryConnectionFactory) factory.createConnectionFactory();
        FerryConnection connection = connections.getConnection();
        connection.close();
        adapter.stop();
        context.fakeWorkManager().assertNoWorkOutlivesStop();
        assertThatThrownBy(connections::getConnection).hasMessageContaining("FERRY-RA-0330")
                .hasMessageContaining("not started");
        adapter.start(context); // for stopAdapter
        connections.getConnection().close();
        assertThat(new String("ok".getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo("ok");
    }
}
