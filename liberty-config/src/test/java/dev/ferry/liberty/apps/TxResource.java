package dev.ferry.liberty.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code POST /tx/{topic}?key=K&outcome=commit|rollback[&hold=true]}: a row and a message in one transaction;
 * {@code GET /tx/rows/{table}?key=K}: how many rows have the key; {@code GET /tx/ids/{table}?prefix=P}: the ids that
 * start with P; {@code POST /tx/gate/close|open} and
 * {@code GET /tx/holding}: hold a transaction before it commits; {@code POST /tx/allow?messages=N}: lets
 * {@link OnceMdb} process N more messages.
 */
@Path("/tx")
@RequestScoped
public class TxResource {
    @Inject
    private TxService service;

    @POST
    @Path("/{topic}")
    @Produces(MediaType.TEXT_PLAIN)
    public String send(@PathParam("topic") String topic, @QueryParam("key") String key,
                       @QueryParam("outcome") String outcome, @QueryParam("hold") boolean hold)
            throws SQLException, InterruptedException {
        return service.insertAndSend(topic, key, "rollback".equals(outcome), hold);
    }

    @GET
    @Path("/rows/{table}")
    @Produces(MediaType.TEXT_PLAIN)
    public String rows(@PathParam("table") String table, @QueryParam("key") String key) throws SQLException {
        return Integer.toString(service.count("DELIVERIES".equals(table) ? "DELIVERIES" : "ORDERS", key));
    }

    @GET
    @Path("/ids/{table}")
    @Produces(MediaType.APPLICATION_JSON)
    public List<String> ids(@PathParam("table") String table, @QueryParam("prefix") String prefix)
            throws SQLException {
        return service.ids("DELIVERIES".equals(table) ? "DELIVERIES" : "ORDERS", prefix);
    }

    @POST
    @Path("/gate/{action}")
    @Produces(MediaType.TEXT_PLAIN)
    public String gate(@PathParam("action") String action) {
        if ("close".equals(action)) {
            service.closeGate();
        } else {
            service.release();
        }
        return action;
    }

    @POST
    @Path("/allow")
    @Produces(MediaType.TEXT_PLAIN)
    public String allow(@QueryParam("messages") int messages) {
        OnceAllowance.grant(messages);
        return Integer.toString(messages);
    }

    @GET
    @Path("/holding")
    @Produces(MediaType.TEXT_PLAIN)
    public String holding() {
        return Boolean.toString(service.holding());
    }
}
