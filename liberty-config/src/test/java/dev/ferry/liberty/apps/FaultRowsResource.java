package dev.ferry.liberty.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/** {@code GET /fault/rows}: every row {@link FaultOnceMdb} committed, duplicates included. */
@Path("/fault")
@RequestScoped
public class FaultRowsResource {
    @Inject
    private FaultRows rows;

    @GET
    @Path("/rows")
    @Produces(MediaType.APPLICATION_JSON)
    public List<Map<String, String>> rows() throws SQLException {
        return rows.all();
    }
}
