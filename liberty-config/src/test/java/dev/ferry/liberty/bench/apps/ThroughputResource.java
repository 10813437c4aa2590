package dev.ferry.liberty.bench.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /throughput}: the figures of the application's bean. */
@Path("/throughput")
@RequestScoped
public class ThroughputResource {
    @Inject
    private Throughput throughput;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Throughput.Figures figures() {
        return throughput.figures();
    }
}
