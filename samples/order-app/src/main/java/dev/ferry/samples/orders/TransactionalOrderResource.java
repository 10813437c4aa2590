package dev.ferry.samples.orders;

import dev.ferry.api.FerryException;
import dev.ferry.api.InvalidMessageException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionalException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;

/**
 * {@code POST /orders/transactional?outcome=commit|rollback} sends the order (the body, as {@code POST /orders}
 * takes it) and writes its row in one JTA transaction ({@link OrderLedger}), then commits or rolls back as asked;
 * {@code GET /orders/transactional} lists the rows. A bad order or outcome is answered 400 with one line; a server
 * without the order database ({@value OrderTable#DATA_SOURCE}), a send or a commit that fails, 503.
 */
@Path("/orders/transactional")
@RequestScoped
public class TransactionalOrderResource {
    @Inject
    private OrderLedger ledger;

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response record(byte[] body, @QueryParam("outcome") String outcome) {
        if (!"commit".equals(outcome) && !"rollback".equals(outcome)) {
            return OrderResource.refusal(Response.Status.BAD_REQUEST, "outcome must be commit or rollback");
        }
        boolean commit = "commit".equals(outcome);
        try {
            Order order = OrderParser.parse(body);
            OrderRow row = ledger.record(order, body, commit);
            return Response.ok(new Outcome(commit ? "COMMITTED" : "ROLLED_BACK", row),
                    MediaType.APPLICATION_JSON_TYPE).build();
        } catch (InvalidOrderException | InvalidMessageException e) {
            return OrderResource.refusal(Response.Status.BAD_REQUEST, e.getMessage());
        } catch (OrderDatabaseUnavailableException | FerryException e) {
            return OrderResource.refusal(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        } catch (SQLException e) {
            return OrderResource.refusal(Response.Status.SERVICE_UNAVAILABLE, "the database refused the order: "
                    + firstLine(e.getMessage()));
        } catch (TransactionalException e) {
            return OrderResource.refusal(Response.Status.SERVICE_UNAVAILABLE, "the transaction did not commit: "
                    + firstLine(String.valueOf(e.getCause())));
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response rows() {
        try {
            return Response.ok(ledger.latest(), MediaType.APPLICATION_JSON_TYPE).build();
        } catch (OrderDatabaseUnavailableException e) {
            return OrderResource.refusal(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        } catch (SQLException e) {
            return OrderResource.refusal(Response.Status.SERVICE_UNAVAILABLE, "the database refused the query: "
                    + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("");
    }

    /** What the transaction did, and the row it wrote (gone again after a rollback). */
    public record Outcome(String outcome, OrderRow row) {
    }
}
