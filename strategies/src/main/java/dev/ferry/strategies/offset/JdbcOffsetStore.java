package dev.ferry.strategies.offset;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.BrokerOffsetException;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.TransactionalOffsetStore;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * Offsets in a database table, one row per group and queue holding the next offset to consume. {@link #claim} moves
 * a queue's row on by one message inside the caller's transaction (never committing itself: the transaction manager
 * does), so the row commits with the consumer's own work or not at all; the conditional update holds the row locked
 * until then, so a second consumer claiming the same message waits and then finds it taken. {@link #read} reads the
 * row (where a consumer that takes a queue over starts). The broker is told the offsets too, when they are persisted,
 * so that tools show the group's progress. Thread-safe.
 */
final class JdbcOffsetStore extends TableBackedOffsetStore implements TransactionalOffsetStore {
    private static final System.Logger LOG = System.getLogger(JdbcOffsetStore.class.getName());

    private final OffsetStoreContext context;
    private final String tableName;
    private final Supplier<DataSource> lookup;
    private volatile DataSource dataSource;
    private final String advance;
    private final String insert;
    private final String select;

    JdbcOffsetStore(OffsetStoreContext context, String table, Supplier<DataSource> lookup) {
        this.context = context;
        this.tableName = table.toUpperCase(Locale.ROOT);
        this.lookup = lookup;
        String key = " WHERE CONSUMER_GROUP = ? AND TOPIC = ? AND BROKER_NAME = ? AND QUEUE_ID = ?";
        this.advance = "UPDATE " + tableName + " SET NEXT_OFFSET = ?" + key + " AND NEXT_OFFSET <= ?";
        this.insert = "INSERT INTO " + tableName
                + " (CONSUMER_GROUP, TOPIC, BROKER_NAME, QUEUE_ID, NEXT_OFFSET) VALUES (?, ?, ?, ?, ?)";
        this.select = "SELECT NEXT_OFFSET FROM " + tableName + key;
    }

    private DataSource dataSource() {
        DataSource current = dataSource;
        if (current == null) {
            current = lookup.get();
            dataSource = current;
        }
        return current;
    }

    /** Makes the table when it does not exist (outside any transaction: the consumer starts on its own thread). */
    @Override
    public void load() {
        try (Connection connection = dataSource().getConnection()) {
            if (exists(connection)) {
                return;
            }
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE TABLE " + tableName + " (CONSUMER_GROUP VARCHAR(255) NOT NULL, TOPIC VARCHAR(255)"
                        + " NOT NULL, BROKER_NAME VARCHAR(255) NOT NULL, QUEUE_ID INT NOT NULL, NEXT_OFFSET BIGINT"
                        + " NOT NULL, PRIMARY KEY (CONSUMER_GROUP, TOPIC, BROKER_NAME, QUEUE_ID))");
            } catch (SQLException e) {
                if (!exists(connection)) { // another consumer made it meanwhile: fine
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the offset table " + tableName + " of group " + context.group()
                    + " cannot be made: " + e.getMessage(), e);
        }
    }

    private boolean exists(Connection connection) throws SQLException {
        DatabaseMetaData metaData = connection.getMetaData();
        for (String name : new String[] {tableName, tableName.toLowerCase(Locale.ROOT)}) {
            try (ResultSet tables = metaData.getTables(null, null, name, new String[] {"TABLE"})) {
                if (tables.next()) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public boolean claim(MessageQueue queue, long offset) {
        try (Connection connection = dataSource().getConnection()) {
            try (PreparedStatement update = connection.prepareStatement(advance)) {
                update.setLong(1, offset + 1);
                bindKey(update, 2, queue);
                update.setLong(6, offset);
                if (update.executeUpdate() == 1) {
                    update(queue, offset + 1, true);
                    return true;
                }
            }
            long next = nextOffset(connection, queue);
            if (next == NO_OFFSET) {
                // the queue's first message: a concurrent first claim makes this insert fail, and the delivery with it
                try (PreparedStatement add = connection.prepareStatement(insert)) {
                    bindKey(add, 1, queue);
                    add.setLong(5, offset + 1);
                    add.executeUpdate();
                }
                update(queue, offset + 1, true);
                return true;
            }
            if (next > offset) {
                update(queue, next, true);
                return false; // a committed transaction consumed it
            }
            throw new IllegalStateException("offset " + offset + " of " + queue + " could not be claimed although "
                    + "the table says " + next);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot record offset " + offset + " of " + queue + " for group "
                    + context.group() + " in " + tableName + ": " + e.getMessage(), e);
        }
    }

    @Override
    long readFromStore(MessageQueue queue) {
        try (Connection connection = dataSource().getConnection()) {
            return nextOffset(connection, queue);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "reading the offset of " + queue + " for group " + context.group() + " from "
                    + tableName + " failed: " + e.getMessage());
            return READ_FAILED;
        }
    }

    private long nextOffset(Connection connection, MessageQueue queue) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(select)) {
            bindKey(query, 1, queue);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getLong(1) : NO_OFFSET;
            }
        }
    }

    private void bindKey(PreparedStatement statement, int first, MessageQueue queue) throws SQLException {
        statement.setString(first, context.group());
        statement.setString(first + 1, queue.topic());
        statement.setString(first + 2, queue.brokerName());
        statement.setInt(first + 3, queue.queueId());
    }

    /** The database is written by {@link #claim}; the broker is told, for tools that show the group's lag. */
    @Override
    public void persist(MessageQueue queue) {
        Long next = table.get(queue);
        if (next == null) {
            return;
        }
        try {
            context.brokerOffsets().commit(queue, next);
        } catch (BrokerOffsetException e) {
            LOG.log(Level.DEBUG, "telling the broker offset " + next + " of " + queue + " failed: " + e.getMessage());
        }
    }

    @Override
    public void persistAll(Set<MessageQueue> assigned) {
        assigned.forEach(this::persist);
    }

    @Override
    public String toString() {
        return "JdbcOffsetStore[" + context.group() + " in " + tableName + "]";
    }
}
