package dev.ferry.liberty.bench.apps;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;

/** {@code POST /load?count=N&persistent=true}: puts N messages of 1 KiB on the benchmark queue. */
@Path("/load")
@RequestScoped
public class JmsLoadResource {
    @Resource(lookup = "jms/benchCF")
    private ConnectionFactory connections;

    @Resource(lookup = "jms/benchQueue")
    private Queue queue;

    @POST
    public String load(@QueryParam("count") int count, @QueryParam("persistent") boolean persistent) {
        byte[] body = new byte[1024];
        try (JMSContext context = connections.createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
            JMSProducer producer = context.createProducer()
                    .setDeliveryMode(persistent ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < count; i++) {
                producer.send(queue, body);
            }
        }
        return Integer.toString(count);
    }
}
