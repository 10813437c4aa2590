package dev.ferry.samples.orders;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The data source {@value #DATA_SOURCE} with the order table in it, made on first use. Looked up when first needed
 * rather than injected, so that the application still deploys, and its other endpoints work, on a server that has no
 * such data source.
 */
@ApplicationScoped
public class OrderTable {
    static final String DATA_SOURCE = "jdbc/orders";
    static final String NAME = "TRANSACTIONAL_ORDERS";

    private volatile DataSource ready;

    /** The data source once the table exists; made outside any transaction, so a rollback never takes it away. */
    @Transactional(Transactional.TxType.NOT_SUPPORTED)
    public DataSource ready() throws SQLException {
        DataSource database = ready;
        if (database != null) {
            return database;
        }
        synchronized (this) {
            if (ready == null) {
                database = lookup();
                create(database);
                ready = database;
            }
            return ready;
        }
    }

    private static DataSource lookup() {
        try {
            return InitialContext.doLookup(DATA_SOURCE);
        } catch (NamingException e) {
            throw new OrderDatabaseUnavailableException("this server has no data source " + DATA_SOURCE
                    + " for transactional orders", e);
        }
    }

    private static void create(DataSource database) throws SQLException {
        try (Connection connection = database.getConnection()) {
            if (exists(connection)) {
                return;
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE " + NAME + " (ID BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                        + " ITEM VARCHAR(" + OrderParser.MAX_ITEM_LENGTH + ") NOT NULL, QUANTITY INT NOT NULL,"
                        + " MSG_ID VARCHAR(64) NOT NULL)");
            } catch (SQLException e) {
                if (!exists(connection)) { // else another application made it first
                    throw e;
                }
            }
        }
    }

    private static boolean exists(Connection connection) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, null, NAME, null)) {
            return tables.next();
        }
    }
}
