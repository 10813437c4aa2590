package dev.ferry.liberty.bench.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.sql.SQLException;

/**
 * {@code POST /txsend/{system}?count=N}: N transactions one after the other; answers the nanoseconds taken. Systems:
 * {@code ferry} and {@code jms} (a Derby row and a send), {@code ferry-only}, {@code jms-only}, {@code derby-only}.
 */
@Path("/txsend")
@RequestScoped
public class TxSendResource {
    @Inject
    private TxSendWork work;

    @POST
    @Path("/{system}")
    public String run(@PathParam("system") String system, @QueryParam("count") int count) throws SQLException {
        Transaction transaction = switch (system) {
            case "ferry" -> work::ferry;
            case "jms" -> work::jms;
            case "ferry-only" -> work::ferryOnly;
            case "jms-only" -> work::jmsOnly;
            case "derby-only" -> work::derbyOnly;
            default -> throw new BadRequestException("no system " + system);
        };
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            transaction.run();
        }
        return Long.toString(System.nanoTime() - start);
    }

    /** One transaction of the chosen kind. */
    private interface Transaction {
        void run() throws SQLException;
    }
}
