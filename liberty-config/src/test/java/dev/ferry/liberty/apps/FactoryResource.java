package dev.ferry.liberty.apps;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import java.time.Duration;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Sends through a connection factory the application defines itself, portably, by the adapter's name; with
 * {@code deliverAfterMillis}, delayed by that long.
 */
@ConnectionFactoryDefinition(name = "java:app/ferry/own", interfaceName = "dev.ferry.api.FerryConnectionFactory",
        resourceAdapter = "ferry-ra", properties = {"producerGroup=factory-app", "retries=1"})
@Path("/factory")
@RequestScoped
public class FactoryResource {
    @Resource(lookup = "java:app/ferry/own")
    private FerryConnectionFactory connections;

    @POST
    @Path("/{topic}")
    @Produces(MediaType.TEXT_PLAIN)
    public String send(@PathParam("topic") String topic, @QueryParam("deliverAfterMillis") long deliverAfterMillis,
                       byte[] body) {
        Message.Builder message = Message.builder(topic).body(body).tags("own-factory");
        if (deliverAfterMillis > 0) {
            message.deliverAfter(Duration.ofMillis(deliverAfterMillis));
        }
        try (FerryConnection connection = connections.getConnection()) {
            return connection.send(message.build()).msgId();
        }
    }
}
