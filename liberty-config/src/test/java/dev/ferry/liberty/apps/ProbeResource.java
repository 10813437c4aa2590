package dev.ferry.liberty.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /probe/deliveries?bean=X}: what the test application's beans received; {@code /probe/ping}. */
@Path("/probe")
@RequestScoped
public class ProbeResource {
    @Inject
    private Deliveries deliveries;

    @GET
    @Path("/deliveries")
    @Produces(MediaType.APPLICATION_JSON)
    public List<Delivery> deliveries(@QueryParam("bean") String bean) {
        return deliveries.of(bean);
    }

    @GET
    @Path("/ping")
    @Produces(MediaType.TEXT_PLAIN)
    public String ping() {
        return "pong";
    }
}
