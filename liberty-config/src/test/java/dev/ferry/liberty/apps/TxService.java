package dev.ferry.liberty.apps;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * One JTA transaction around a row of the application's database and a Ferry send: both happen, or neither. The
 * tables are made when the application starts.
 */
@ApplicationScoped
public class TxService {
    @Resource(lookup = "jdbc/txdb")
    private DataSource database;

    @Resource(lookup = "ferry/orders")
    private FerryConnectionFactory ferry;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    /** Released by the test when a held transaction may go on to commit. */
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile boolean holding;

    /**
     * Inserts {@code key} and sends it to {@code topic} (all in one queue, in order); rolls the transaction back when
     * asked to. Returns the message id.
     */
    @Transactional
    public String insertAndSend(String topic, String key, boolean rollback, boolean hold) throws SQLException,
            InterruptedException {
        insert("ORDERS", key);
        String msgId;
        try (FerryConnection connection = ferry.getConnection()) {
            msgId = connection.sendOrdered(Message.builder(topic).keys(key)
                    .body(key.getBytes(StandardCharsets.UTF_8)).build(), "tx").msgId();
        }
        if (rollback) {
            transaction.setRollbackOnly();
        }
        if (hold) {
            holding = true;
            gate.await(5, TimeUnit.MINUTES);
            holding = false;
        }
        return msgId;
    }

    /** The next held transaction waits until {@link #release()}. */
    public void closeGate() {
        gate = new CountDownLatch(1);
    }

    public void release() {
        gate.countDown();
    }

    public boolean holding() {
        return holding;
    }

    /** Makes the tables once, when the application starts, outside any transaction. */
    void createTables(@Observes @Initialized(ApplicationScoped.class) Object started) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            for (String table : new String[] {"ORDERS", "DELIVERIES"}) {
                try {
                    statement.execute("CREATE TABLE " + table + "(ID VARCHAR(100))");
                } catch (SQLException e) {
                    if (!"X0Y32".equals(e.getSQLState())) { // Derby's "already exists"
                        throw e;
                    }
                }
            }
        }
    }

    /** Inserts a row into {@code table} (ORDERS or DELIVERIES) inside the caller's transaction. */
    public void insert(String table, String key) throws SQLException {
        try (Connection connection = database.getConnection()) {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                    + "(ID) VALUES (?)")) {
                insert.setString(1, key);
                insert.executeUpdate();
            }
        }
    }

    /** Every id of {@code table} that starts with {@code prefix}, duplicates included. */
    public List<String> ids(String table, String prefix) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = database.getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT ID FROM " + table
                     + " WHERE ID LIKE ?")) {
            select.setString(1, prefix + "%");
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    /** How many rows of {@code table} have {@code key}. */
    public int count(String table, String key) throws SQLException {
        try (Connection connection = database.getConnection()) {
            try (PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM " + table
                    + " WHERE ID = ?")) {
                select.setString(1, key);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    return rows.getInt(1);
                }
            }
        }
    }
}
