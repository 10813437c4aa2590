package dev.ferry.liberty.carried;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /plugin-version}: the version of the plugin jar the running application carries. */
@Path("/plugin-version")
@RequestScoped
public class PluginVersionResource {

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String version() {
        return VersionFilterProvider.version();
    }
}
