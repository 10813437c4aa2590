package dev.ferry.strategies.offset;

import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;
import java.util.regex.Pattern;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * {@code jdbc}: a group's offsets in a table of the application's own database, written inside each delivery's
 * transaction ({@link JdbcOffsetStore}), for exactly-once processing by a transacted, orderly message-driven bean.
 * Settings: {@code dataSource}, the JNDI name of the application server's (XA) data source, required; {@code table},
 * the table's name, {@code FERRY_OFFSETS} by default (made when missing).
 */
public final class JdbcOffsetStoreProvider implements OffsetStoreProvider {
    private static final Pattern TABLE = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]{0,63}$");

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public OffsetStore create(OffsetStoreContext context, PluginConfig config) {
        String dataSource = config.requiredString("dataSource");
        String table = config.string("table", "FERRY_OFFSETS");
        if (!TABLE.matcher(table).matches()) {
            throw config.invalid("table", "a table name of letters, digits and '_', at most 64");
        }
        return new JdbcOffsetStore(context, table, () -> lookup(dataSource));
    }

    /** The server's data source; looked up when first used, on a thread of the server. */
    private static DataSource lookup(String name) {
        try {
            Object found = new InitialContext().lookup(name);
            if (found instanceof DataSource dataSource) {
                return dataSource;
            }
            throw new IllegalStateException("JNDI name '" + name + "' names " + found.getClass().getName()
                    + ", not a javax.sql.DataSource");
        } catch (NamingException e) {
            throw new IllegalStateException("no data source at JNDI name '" + name + "': " + e.getMessage(), e);
        }
    }
}
