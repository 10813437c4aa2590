package dev.ferry.strategies.offset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginConfigException;
import dev.ferry.spi.ReadOffsetType;
import dev.ferry.spi.TransactionalOffsetStore;
import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The jdbc offset store against an embedded Derby database: each test "transaction" is one connection with
 * auto-commit off, which the store's connections stand for (as an application server's enlisted connections do), so
 * the store's writes commit or roll back with it.
 */
class JdbcOffsetStoreTest {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final MessageQueue QUEUE = new MessageQueue("orders", "broker-a", 3);

    private final RecordingBrokers brokers = new RecordingBrokers();
    private String url;
    /** The connection of the transaction the store works in now. */
    private volatile Connection transaction;

    @BeforeEach
    void createDatabase() throws SQLException {
        url = "jdbc:derby:memory:offsets" + DATABASES.incrementAndGet();
        DriverManager.getConnection(url + ";create=true").close();
    }

    @AfterEach
    void dropDatabase() {
        try {
            DriverManager.getConnection(url + ";drop=true");
        } catch (SQLException expected) {
            // Derby answers a drop with an exception that says it dropped
        }
    }

    private JdbcOffsetStore store(String group) {
        JdbcOffsetStore store = new JdbcOffsetStore(new OffsetStoreContext(group, "client", MessageModel.CLUSTERING,
                Path.of("unused"), brokers), "FERRY_OFFSETS", () -> enlisted(() -> transaction));
        try (Connection setup = DriverManager.getConnection(url)) {
            transaction = setup; // auto-commit: the table is made outside any transaction
            store.load();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } finally {
            transaction = null;
        }
        return store;
    }

    /** Begins a transaction the store's next calls on this thread belong to. */
    private Connection begin() throws SQLException {
        Connection connection = DriverManager.getConnection(url);
        connection.setAutoCommit(false);
        transaction = connection;
        return connection;
    }

    @Test
    void shouldClaimEachMessageOnceAndOnlyInTransactionsThatCommit() throws SQLException {
        JdbcOffsetStore store = store("billing");
        try (Connection first = begin()) {
            assertThat(store.claim(QUEUE, 0)).isTrue();
            first.commit();
        }
        try (Connection second = begin()) {
            assertThat(store.claim(QUEUE, 0)).as("consumed by a committed transaction").isFalse();
            assertThat(store.claim(QUEUE, 1)).isTrue();
            second.rollback();
        }
        try (Connection third = begin()) {
            assertThat(store.claim(QUEUE, 1)).as("the claim rolled back with its transaction").isTrue();
            third.commit();
        }
        JdbcOffsetStore restarted = store("billing");
        JdbcOffsetStore otherGroup = store("shipping");
        try (Connection reading = begin()) {
            assertThat(restarted.read(QUEUE, ReadOffsetType.READ_FROM_STORE)).isEqualTo(2);
            assertThat(otherGroup.read(QUEUE, ReadOffsetType.READ_FROM_STORE))
                    .as("another group's row").isEqualTo(OffsetStore.NO_OFFSET);
            reading.commit();
        }
    }

    @Test
    void shouldLeaveNoRowWhenTheFirstClaimRollsBack() throws SQLException {
        JdbcOffsetStore store = store("billing");
        try (Connection first = begin()) {
            assertThat(store.claim(QUEUE, 7)).isTrue();
            first.rollback();
        }
        try (Connection reading = begin()) {
            assertThat(store.read(QUEUE, ReadOffsetType.READ_FROM_STORE)).isEqualTo(OffsetStore.NO_OFFSET);
            reading.commit();
        }
    }

    @Test
    void shouldMakeASecondClaimOfTheSameMessageWaitAndFindItTaken() throws Exception {
        JdbcOffsetStore store = store("billing");
        try (Connection setup = begin()) {
            store.claim(QUEUE, 4);
            setup.commit();
        }
        Connection first = begin();
        assertThat(store.claim(QUEUE, 5)).isTrue();
        Connection second = DriverManager.getConnection(url);
        second.setAutoCommit(false);
        // the other consumer's claim, in a transaction of its own, while the first still holds the row
        JdbcOffsetStore other = new JdbcOffsetStore(new OffsetStoreContext("billing", "other",
                MessageModel.CLUSTERING, Path.of("unused"), brokers), "FERRY_OFFSETS", () -> enlisted(() -> second));
        CompletableFuture<Boolean> competing = CompletableFuture.supplyAsync(() -> other.claim(QUEUE, 5));
        first.commit();
        first.close();
        assertThat(competing).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(false);
        second.rollback();
        second.close();
    }

    @Test
    void shouldTellTheBrokerTheOffsetsItPersists() throws SQLException {
        JdbcOffsetStore store = store("billing");
        try (Connection first = begin()) {
            store.claim(QUEUE, 0);
            first.commit();
        }
        store.persistAll(Set.of(QUEUE));
        assertThat(brokers.offsets).containsEntry(QUEUE, 1L);
        assertThat(store).isInstanceOf(TransactionalOffsetStore.class);
    }

    @Test
    void shouldRefuseAMissingDataSourceAndABadTableName() {
        JdbcOffsetStoreProvider provider = new JdbcOffsetStoreProvider();
        OffsetStoreContext context = new OffsetStoreContext("g", "c", MessageModel.CLUSTERING, Path.of("unused"),
                brokers);
        assertThatThrownBy(() -> provider.create(context, PluginConfig.empty()))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("dataSource");
        assertThatThrownBy(() -> provider.create(context, PluginConfig.of("dataSource", "jdbc/x", "table",
                "OFFSETS; DROP TABLE X"))).isInstanceOf(PluginConfigException.class).hasMessageContaining("table");
        assertThat(provider.name()).isEqualTo("jdbc");
    }

    /** A connection source whose connections are the current transaction's, which closing does not end. */
    private interface CurrentConnection {
        Connection get();
    }

    private static DataSource enlisted(CurrentConnection current) {
        return new DataSource() {
            @Override
            public Connection getConnection() {
                Connection connection = current.get();
                return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> method.getName().equals("close")
                                ? null : method.invoke(connection, args));
            }

            @Override
            public Connection getConnection(String username, String password) {
                return getConnection();
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(PrintWriter out) {
            }

            @Override
            public void setLoginTimeout(int seconds) {
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(Class<T> type) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(Class<?> type) {
                return false;
            }
        };
    }
}
