package dev.ferry.liberty.apps;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

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

    /** Ferry's management beans as the server's platform MBean server holds them: name and attributes. */
    @GET
    @Path("/mbeans")
    @Produces(MediaType.APPLICATION_JSON)
    public List<Map<String, Object>> mbeans() throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<Map<String, Object>> beans = new ArrayList<>();
        for (ObjectName name : server.queryNames(new ObjectName("dev.ferry:*"), null)) {
            Map<String, Object> attributes = new TreeMap<>();
            for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
                attributes.put(attribute.getName(), server.getAttribute(name, attribute.getName()));
            }
            beans.add(Map.of("name", name.toString(), "attributes", attributes));
        }
        return beans;
    }

    @GET
    @Path("/ping")
    @Produces(MediaType.TEXT_PLAIN)
    public String ping() {
        return "pong";
    }
}
