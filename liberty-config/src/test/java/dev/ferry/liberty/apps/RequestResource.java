package dev.ferry.liberty.apps;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.FerryException;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.resource.ConnectionFactoryDefinition;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * {@code POST /request/{topic}?timeoutMillis=T}: sends the body as a request through the application's connection
 * factory and answers with its reply's body, or 504 and the failure when none came.
 */
@ConnectionFactoryDefinition(name = RequestResource.FACTORY, interfaceName = "dev.ferry.api.FerryConnectionFactory",
        resourceAdapter = "ferry-ra", properties = {"producerGroup=reply-app"})
@Path("/request")
@RequestScoped
public class RequestResource {
    static final String FACTORY = "java:app/ferry/requests";

    @Resource(lookup = FACTORY)
    private FerryConnectionFactory connections;

    @POST
    @Path("/{topic}")
    @Produces(MediaType.TEXT_PLAIN)
    public Response request(@PathParam("topic") String topic, @QueryParam("timeoutMillis") long timeoutMillis,
                          byte[] body) {
        try (FerryConnection connection = connections.getConnection()) {
            ReceivedMessage reply = connection.request(Message.builder(topic).body(body).build(),
                    Duration.ofMillis(timeoutMillis));
            return Response.ok(new String(reply.body(), StandardCharsets.UTF_8)).build();
        } catch (FerryException e) {
            return Response.status(Response.Status.GATEWAY_TIMEOUT).entity(e.getMessage()).build();
        }
    }
}
