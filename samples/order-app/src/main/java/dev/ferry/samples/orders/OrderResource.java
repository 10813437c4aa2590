package dev.ferry.samples.orders;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.FerryException;
import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.api.SendResult;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * {@code POST /orders} sends the request body as a message to the {@code orders} topic through the connection
 * factory the server binds at {@code ferry/orders}; {@code GET /orders/received} lists what {@link OrderMdb}
 * received.
 *
 * <p>Query parameters of the POST: {@code tags}, {@code keys} (repeatable), {@code property} (repeatable,
 * {@code name=value}), {@code delayLevel}, and {@code shardingKey}: orders with the same sharding key go to the
 * same queue and are received in the order they were sent. The body must be an order ({@link OrderParser}: a JSON
 * object with an {@code item}); it is sent as it came. A bad order (an empty body, not JSON, no item, a quantity
 * below 1, a bad property) is answered 400 with one line saying why and nothing is sent; a send the engine cannot
 * make, 503.
 */
@Path("/orders")
@RequestScoped
public class OrderResource {
    static final String TOPIC = "orders";

    @Resource(lookup = "ferry/orders")
    private FerryConnectionFactory connections;

    @Inject
    private ReceivedOrders received;

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response send(byte[] body, @QueryParam("tags") String tags, @QueryParam("keys") List<String> keys,
                         @QueryParam("property") List<String> properties, @QueryParam("delayLevel") int delayLevel,
                         @QueryParam("shardingKey") String shardingKey) {
        Message message;
        try {
            Message.Builder builder = Message.builder(TOPIC).body(body).keys(keys).delayLevel(delayLevel);
            if (tags != null && !tags.isBlank()) {
                builder.tags(tags);
            }
            for (String property : properties) {
                int equals = property.indexOf('=');
                if (equals <= 0) {
                    return refusal(Response.Status.BAD_REQUEST, "property must be name=value: " + property);
                }
                builder.property(property.substring(0, equals), property.substring(equals + 1));
            }
            message = builder.build();
            OrderParser.parse(body);
        } catch (InvalidMessageException | InvalidOrderException e) {
            // the client's mistake: one line back to it, nothing for the server's log
            return refusal(Response.Status.BAD_REQUEST, e.getMessage());
        }
        try (FerryConnection connection = connections.getConnection()) {
            SendResult result = shardingKey == null || shardingKey.isEmpty()
                    ? connection.send(message) : connection.sendOrdered(message, shardingKey);
            return Response.ok(new SentOrder(result.status().name(), result.msgId(), result.queueId(),
                    result.queueOffset()), MediaType.APPLICATION_JSON_TYPE).build();
        } catch (FerryException e) {
            return refusal(Response.Status.SERVICE_UNAVAILABLE, e.getMessage());
        }
    }

    static Response refusal(Response.Status status, String why) {
        return Response.status(status).type(MediaType.TEXT_PLAIN_TYPE).entity(why + "\n").build();
    }

    @GET
    @Path("/received")
    @Produces(MediaType.APPLICATION_JSON)
    public List<ReceivedOrder> received() {
        return received.list();
    }

    /** What the broker answered to a send. */
    public record SentOrder(String status, String msgId, int queueId, long queueOffset) {
    }
}
