package dev.ferry.samples.orders;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.SendResult;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * An order sent to the {@code orders} topic and written to the order table in one JTA transaction: when it commits,
 * the row exists and {@link OrderMdb} receives the message; when it rolls back, neither.
 */
@ApplicationScoped
public class OrderLedger {
    /** The tag of the messages sent here, to tell them from {@code POST /orders}'s in what the bean received. */
    static final String TAG = "transactional";
    static final int LISTED = 100;

    @Resource(lookup = "ferry/orders")
    private FerryConnectionFactory connections;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    @Inject
    private OrderTable table;

    /**
     * Sends {@code body} (the order as the client wrote it) and inserts its row, then commits or, when
     * {@code commit} is false, rolls both back. Returns the row as the transaction saw it.
     */
    @Transactional(rollbackOn = SQLException.class)
    public OrderRow record(Order order, byte[] body, boolean commit) throws SQLException {
        SendResult sent;
        // The connection's send is held as a half message until the transaction ends, like the insert.
        try (FerryConnection connection = connections.getConnection()) {
            sent = connection.send(Message.builder(OrderResource.TOPIC).tags(TAG).body(body).build());
        }
        long id;
        try (Connection connection = table.ready().getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + OrderTable.NAME
                     + " (ITEM, QUANTITY, MSG_ID) VALUES (?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, order.item());
            insert.setInt(2, order.quantity());
            insert.setString(3, sent.msgId());
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                id = keys.getLong(1);
            }
        }
        if (!commit) {
            transaction.setRollbackOnly();
        }
        return new OrderRow(id, order.item(), order.quantity(), sent.msgId());
    }

    /** The latest {@value #LISTED} rows, newest first. */
    public List<OrderRow> latest() throws SQLException {
        List<OrderRow> rows = new ArrayList<>();
        try (Connection connection = table.ready().getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT ID, ITEM, QUANTITY, MSG_ID FROM "
                     + OrderTable.NAME + " ORDER BY ID DESC FETCH FIRST " + LISTED + " ROWS ONLY");
             ResultSet result = select.executeQuery()) {
            while (result.next()) {
                rows.add(new OrderRow(result.getLong(1), result.getString(2), result.getInt(3),
                        result.getString(4)));
            }
        }
        return rows;
    }
}
