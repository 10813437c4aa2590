package dev.ferry.liberty.apps;

import dev.ferry.api.ReceivedMessage;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The rows {@link FaultOnceMdb} writes, one per message it processed, in the database that also holds its group's
 * offsets ({@code jdbc/faultdb}): the fault harness counts them.
 */
@ApplicationScoped
public class FaultRows {
    static final String DATA_SOURCE = "jdbc/faultdb";

    @Resource(lookup = DATA_SOURCE)
    private DataSource database;

    /** Makes the table once, when the application starts, outside any transaction. */
    void createTable(@Observes @Initialized(ApplicationScoped.class) Object started) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE FAULT_ROWS(MSG_KEY VARCHAR(200), TOPIC VARCHAR(200), "
                    + "BROKER VARCHAR(200), QUEUE_ID INT, QUEUE_OFFSET BIGINT, AT_MILLIS BIGINT)");
        } catch (SQLException e) {
            if (!"X0Y32".equals(e.getSQLState())) { // Derby's "already exists": a restarted server
                throw e;
            }
        }
    }

    /** Inserts the message's row inside the caller's transaction. */
    public void insert(ReceivedMessage message) throws SQLException {
        try (Connection connection = database.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO FAULT_ROWS(MSG_KEY, TOPIC, BROKER, "
                     + "QUEUE_ID, QUEUE_OFFSET, AT_MILLIS) VALUES (?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, message.keys().isEmpty() ? "-" : message.keys().get(0));
            insert.setString(2, message.topic());
            insert.setString(3, message.brokerName());
            insert.setInt(4, message.queueId());
            insert.setLong(5, message.queueOffset());
            insert.setLong(6, System.currentTimeMillis());
            insert.executeUpdate();
        }
    }

    /** Every row, duplicates included, as name-value pairs. */
    public List<Map<String, String>> all() throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Connection connection = database.getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT MSG_KEY, TOPIC, BROKER, QUEUE_ID, "
                     + "QUEUE_OFFSET, AT_MILLIS FROM FAULT_ROWS");
             ResultSet result = select.executeQuery()) {
            while (result.next()) {
                rows.add(Map.of("key", result.getString(1), "topic", result.getString(2), "broker",
                        result.getString(3), "queue", Integer.toString(result.getInt(4)), "offset",
                        Long.toString(result.getLong(5)), "time", Long.toString(result.getLong(6))));
            }
        }
        return rows;
    }
}
