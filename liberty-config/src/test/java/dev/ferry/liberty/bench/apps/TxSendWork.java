package dev.ferry.liberty.bench.apps;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * One XA transaction: a row of an embedded Derby database and one 1 KiB message, sent through Ferry's connection
 * factory or through Liberty's JMS; the server's transaction manager commits both in two phases.
 */
@ApplicationScoped
public class TxSendWork {
    private static final byte[] BODY = new byte[1024];
    private final AtomicLong rows = new AtomicLong();

    @Resource(lookup = "jdbc/benchdb")
    private DataSource database;

    @Resource(lookup = "ferry/bench")
    private FerryConnectionFactory ferry;

    @Resource(lookup = "jms/benchCF")
    private ConnectionFactory jms;

    @Resource(lookup = "jms/txQueue")
    private Queue queue;

    void createTable(@Observes @Initialized(ApplicationScoped.class) Object started) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE BENCH_ROWS(ID BIGINT)");
        } catch (SQLException e) {
            if (!"X0Y32".equals(e.getSQLState())) { // Derby's "already exists"
                throw e;
            }
        }
    }

    @Transactional
    public void ferry() throws SQLException {
        insert();
        ferrySend();
    }

    @Transactional
    public void jms() throws SQLException {
        insert();
        jmsSend();
    }

    /*
     * The parts, each alone in its transaction (one resource: the transaction manager commits it in one phase), to
     * tell what each system's own part costs from what the two-phase commit with Derby costs both.
     */

    @Transactional
    public void ferryOnly() {
        ferrySend();
    }

    @Transactional
    public void jmsOnly() {
        jmsSend();
    }

    @Transactional
    public void derbyOnly() throws SQLException {
        insert();
    }

    private void ferrySend() {
        try (FerryConnection connection = ferry.getConnection()) {
            connection.send(Message.builder("bench-tx").body(BODY).build());
        }
    }

    private void jmsSend() {
        try (JMSContext context = jms.createContext()) {
            context.createProducer().send(queue, BODY);
        }
    }

    private void insert() throws SQLException {
        try (Connection connection = database.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO BENCH_ROWS(ID) VALUES (?)")) {
            insert.setLong(1, rows.incrementAndGet());
            insert.executeUpdate();
        }
    }
}
